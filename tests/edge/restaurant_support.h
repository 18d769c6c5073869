#pragma once
// What the restaurant API tests share: the company path, the fixture clock's timestamp, reading members of
// answers, and a configuration whose rate limit never refuses (the manual clock never refills the bucket).

#include <string>
#include <string_view>

#include "test_edge.h"

namespace restaurant_test {

inline const std::string kBase = "/api/restaurant/companies/acme";
// TestEdge::kStart: 14:06:40 in Istanbul, business and calendar date 2026-11-18.
inline constexpr const char* kNow = "2026-11-18T11:06:40.000Z";

inline edge::Config unthrottled() {
  edge::Config c;
  c.rate_limit = {1'000'000, 1000};
  return c;
}

// The string member `key` of a JSON object.
inline std::string str(const core::json::value& v, std::string_view key) {
  return std::string(v.as_object().at(key).as_string());
}

// The `id` of the record an answer carries in `data`.
inline std::string id_of(const testing::Reply& r) {
  return str(r.data(), "id");
}

}  // namespace restaurant_test
