#pragma once
// Helpers shared by the embind files of wasm/, one per ES module (tokens_module.cpp, restaurant_module.cpp,
// status_module.cpp, mail_module.cpp): the `{ok: true, value}` / `{ok: false, code, message}` answers and the
// conversion of JS numbers to integers that refuses anything it cannot convert exactly. Header-only and
// free of JSON, so that a module pulls in nothing it does not call.

#include <emscripten/val.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "core/result.h"

namespace platform_wasm {

inline emscripten::val ok_result(const emscripten::val& value) {
  emscripten::val out = emscripten::val::object();
  out.set("ok", true);
  out.set("value", value);
  return out;
}

inline emscripten::val error_result(const core::Error& error) {
  emscripten::val out = emscripten::val::object();
  out.set("ok", false);
  out.set("code", error.code);
  out.set("message", error.message);
  return out;
}

// The largest integer a JS number holds exactly (Number.MAX_SAFE_INTEGER, 2^53 - 1).
inline constexpr std::int64_t kMaxSafeInteger = 9007199254740991;

// JS numbers that are integers within ±(2^53 - 1) convert to int64 exactly; anything else (fractions, NaN,
// infinities, huge values) is refused, so a caller never gets a result computed from a rounded amount.
inline std::optional<std::int64_t> safe_integer(double number) {
  constexpr double kMaxSafe = static_cast<double>(kMaxSafeInteger);
  if (!std::isfinite(number) || std::trunc(number) != number || std::fabs(number) > kMaxSafe) return {};
  return static_cast<std::int64_t>(number);
}

// Integers the core takes as `int` (hours, day counts); nullopt for anything else, which the caller reports
// with the error code the core uses for that argument.
inline std::optional<int> safe_int(double number) {
  auto wide = safe_integer(number);
  if (!wide || *wide < -2147483647 || *wide > 2147483647) return {};
  return static_cast<int>(*wide);
}

// An int64 the core computed, as a JS number. Every amount the core answers lies within ±kMaxSafeInteger
// (inputs are at most 10^15 and sums are checked), so the conversion is exact.
inline emscripten::val js_number(std::int64_t value) {
  return emscripten::val(static_cast<double>(value));
}

// The length of a JS array the bindings have already checked to be an array.
inline std::size_t length_of(const emscripten::val& array) {
  return array["length"].as<std::size_t>();
}

}  // namespace platform_wasm
