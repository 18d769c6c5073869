#pragma once
// What the restaurant API tests share: the company path, the fixture clock's timestamp, reading members of
// answers, and a configuration whose rate limit never refuses (the manual clock never refills the bucket).

#include <doctest/doctest.h>

#include <cstdint>
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

// POSTs `body` to kBase + `path` with acme's token; the record's id. The test stops unless the answer is 201.
inline std::string create(testing::TestEdge& edge, const std::string& path, const std::string& body) {
  auto r = edge.post(kBase + path, body, edge.acme_token);
  INFO(path << " " << r.body);
  REQUIRE(r.status == 201);
  return id_of(r);
}

// Report and overview figures (docs/restaurant-reports.md): cost totals and income totals.
inline core::json::object costs(std::int64_t gross, std::int64_t net, std::int64_t vat, std::int64_t cost) {
  return {{"grossMinor", gross}, {"netMinor", net}, {"vatMinor", vat}, {"costMinor", cost}};
}

inline core::json::object income(std::int64_t gross, std::int64_t commission, std::int64_t net) {
  return {{"grossMinor", gross}, {"commissionMinor", commission}, {"netMinor", net}};
}

}  // namespace restaurant_test
