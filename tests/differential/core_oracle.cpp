// core_oracle: the native side of the differential tests (docs/differential-tests.md).
//
// Protocol: one JSON request per stdin line, `{"fn": "<package function>", "args": [...]}` with the
// arguments of the JS call; one JSON answer per stdout line, in request order, flushed when stdin has no
// more buffered input (so a test may pipeline thousands of lines and read the answers as they come).
// An answer is what the wasm package returns for that call; a request the oracle cannot read is answered
// `{"oracle_error": "..."}` and the process keeps going.

#include <cmath>
#include <exception>
#include <iostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>

#include "tests/differential/oracle.h"

namespace oracle {

json::value ok(json::value value) {
  return json::object{{"ok", true}, {"value", std::move(value)}};
}

json::value fail(const core::Error& error) {
  return json::object{{"ok", false}, {"code", error.code}, {"message", error.message}};
}

json::value fail(std::string code, std::string message) {
  return fail(core::make_error(std::move(code), std::move(message)));
}

JsNumber js_number(const json::value& value) {
  constexpr std::int64_t kMaxSafe = 9007199254740991;  // Number.MAX_SAFE_INTEGER
  if (value.is_int64()) {
    const std::int64_t n = value.get_int64();
    if (n >= -kMaxSafe && n <= kMaxSafe) return {true, n};
    return {};
  }
  if (value.is_uint64()) return {};  // at least 2^63
  if (value.is_double()) {
    const double d = value.get_double();
    if (std::isfinite(d) && std::trunc(d) == d && std::fabs(d) <= static_cast<double>(kMaxSafe)) {
      return {true, static_cast<std::int64_t>(d)};
    }
    return {};
  }
  if (value.is_object() && value.as_object().contains("$num")) return {};  // NaN, Infinity, -Infinity
  throw std::invalid_argument("expected a number, got " + json::serialize(value));
}

std::optional<int> js_int(const json::value& value) {
  const JsNumber n = js_number(value);
  if (!n.safe || n.value < -2147483647 || n.value > 2147483647) return std::nullopt;
  return static_cast<int>(n.value);
}

const json::value& arg(const json::array& args, std::size_t i) {
  static const json::value null_value;
  return i < args.size() ? args[i] : null_value;
}

const json::value& member(const json::value& object, std::string_view name) {
  static const json::value null_value;
  const json::value* found = object.as_object().if_contains(name);
  return found ? *found : null_value;
}

bool is_absent(const json::value& object, std::string_view name) {
  return !object.as_object().contains(name);
}

std::string text(const json::value& value) {
  return std::string(value.as_string());
}

}  // namespace oracle

int main() {
  using namespace oracle;
  std::unordered_map<std::string_view, Handler> handlers;
  for (auto group : {basic_functions(), restaurant_functions(), status_functions(), mail_functions()})
    for (const Function& f : group) handlers.emplace(f.name, f.handler);

  std::ios::sync_with_stdio(false);
  std::string line;
  while (std::getline(std::cin, line)) {
    json::value answer;
    try {
      const json::object request = json::parse(line).as_object();
      const std::string_view fn = request.at("fn").as_string();
      auto found = handlers.find(fn);
      if (found == handlers.end()) throw std::invalid_argument("unknown function '" + std::string(fn) + "'");
      answer = found->second(request.at("args").as_array());
    } catch (const std::exception& error) {
      answer = json::object{{"oracle_error", error.what()}};
    }
    std::cout << json::serialize(answer) << '\n';
    // Answer as soon as the test stops writing: flushing per line would cost a syscall per case.
    if (std::cin.rdbuf()->in_avail() == 0) std::cout.flush();
  }
  std::cout.flush();
  return 0;
}
