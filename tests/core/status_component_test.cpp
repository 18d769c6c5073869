#include "core/status/component.h"

#include <doctest/doctest.h>

#include <vector>

using namespace core::status;

namespace {
ComponentStatus of(std::vector<CheckStatus> checks, bool maintenance = false) {
  return component_status(checks, maintenance);
}
ComponentStatus overall(std::vector<ComponentStatus> components) {
  return overall_status(components);
}
constexpr auto op = CheckStatus::operational;
constexpr auto deg = CheckStatus::degraded;
constexpr auto dn = CheckStatus::down;
constexpr auto nd = CheckStatus::no_data;
}  // namespace

TEST_CASE("status: component status from its checks") {
  CHECK(of({op, op}) == ComponentStatus::operational);
  CHECK(of({op, nd}) == ComponentStatus::operational);
  CHECK(of({op, deg, nd}) == ComponentStatus::degraded);
  CHECK(of({deg, dn, op}) == ComponentStatus::down);
  CHECK(of({nd, dn}) == ComponentStatus::down);
  CHECK(of({nd, nd}) == ComponentStatus::no_data);
  CHECK(of({}) == ComponentStatus::no_data);
  // Maintenance hides everything, even a down check or no checks at all.
  CHECK(of({dn, deg}, true) == ComponentStatus::maintenance);
  CHECK(of({}, true) == ComponentStatus::maintenance);
  CHECK(of({op}, true) == ComponentStatus::maintenance);
}

TEST_CASE("status: page overall status from its components") {
  using C = ComponentStatus;
  CHECK(overall({}) == C::no_data);
  CHECK(overall({C::no_data, C::no_data}) == C::no_data);
  CHECK(overall({C::no_data, C::operational}) == C::operational);
  CHECK(overall({C::operational, C::maintenance}) == C::maintenance);
  CHECK(overall({C::maintenance, C::no_data}) == C::maintenance);
  CHECK(overall({C::maintenance, C::degraded, C::operational}) == C::degraded);
  CHECK(overall({C::down, C::maintenance, C::degraded}) == C::down);
  CHECK(overall({C::degraded, C::down}) == C::down);
  CHECK(overall({C::operational}) == C::operational);
}
