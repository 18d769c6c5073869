#pragma once
// The oracle's own marshalling: JSON arguments in, the wasm package's answer shape out
// (`{"ok":true,"value":...}` or `{"ok":false,"code":"...","message":"..."}`). Written from the package's
// documented contract (bindings/index.d.ts, docs/wasm.md), not from wasm/*.cpp, so that a slip in either
// marshalling shows up as a difference.

#include <boost/json.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/result.h"

namespace oracle {

namespace json = boost::json;

// One bound function: the JS call's arguments (after the bindings' own defaults are known to the handler)
// to the answer. A malformed request (wrong JSON kind, too few arguments) throws; main turns that into an
// `oracle_error` line, which the test reports as a broken request, never as a difference.
using Handler = json::value (*)(const json::array& args);

struct Function {
  std::string_view name;
  Handler handler;
};

std::span<const Function> basic_functions();       // vatSplit, businessDate, addDays, verifyJwtHs256
std::span<const Function> restaurant_functions();  // priceItem, orders, payables
std::span<const Function> status_functions();      // componentStatus ... maintenanceState
std::span<const Function> mail_functions();        // renderTemplate, missingVariables, pickLocalized

json::value ok(json::value value);
json::value fail(const core::Error& error);
json::value fail(std::string code, std::string message);

// A JS number as the test sent it. JSON carries finite numbers as they are (an integer beyond int64 arrives
// as a double or uint64); NaN and the infinities, which JSON cannot carry, arrive as {"$num": "NaN"}. A
// number is `safe` when it is an integer within +-(2^53 - 1), Number.isSafeInteger's rule: the package's
// rule for every number that stands for an integer.
struct JsNumber {
  bool safe = false;
  std::int64_t value = 0;  // meaningful when safe
};
JsNumber js_number(const json::value& value);

// The same number where the core takes an `int` (hours, day counts, HTTP statuses, probe settings):
// nullopt unless safe and within +-(2^31 - 1).
std::optional<int> js_int(const json::value& value);

// The i-th argument, or null when the call left it out (a JS default then applies, chosen by the handler).
const json::value& arg(const json::array& args, std::size_t i);
// A member of an object argument; null when absent, as the bindings copy an absent optional member.
const json::value& member(const json::value& object, std::string_view name);
bool is_absent(const json::value& object, std::string_view name);

std::string text(const json::value& value);  // a JS string argument or member

}  // namespace oracle
