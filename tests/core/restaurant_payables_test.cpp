#include "core/restaurant/payables.h"

#include <doctest/doctest.h>

#include <vector>

using namespace core;
using namespace core::restaurant;

namespace {

CivilDate day(std::string_view key) {
  auto d = parse_day_key(key);
  REQUIRE_MESSAGE(d.ok(), key);
  return *d;
}

std::string bucket(std::string_view due, std::string_view today) {
  return std::string(payable_bucket_key(payable_bucket(day(due), day(today))));
}

std::vector<std::string> ids(const PayableGroup& g) {
  std::vector<std::string> out;
  for (const auto& p : g.items) out.push_back(p.expenseId);
  return out;
}

}  // namespace

TEST_CASE("payables group by due date relative to today (a Wednesday mid-month)") {
  // 2026-01-14 is a Wednesday; its ISO week ends Sunday 2026-01-18; January ends on the 31st.
  std::vector<Payable> items{
      {"e6", day("2026-02-01"), 600}, {"e5", day("2026-01-31"), 500}, {"e4", day("2026-01-19"), 400},
      {"e3", day("2026-01-18"), 300}, {"e2", day("2026-01-14"), 200}, {"e1", day("2026-01-13"), 100},
      {"e0", day("2025-12-31"), 50},  {"e7", day("2026-01-14"), 1},
  };
  auto groups = group_payables(items, day("2026-01-14"));
  CHECK(groups[0].key == "overdue");
  CHECK(groups[1].key == "thisWeek");
  CHECK(groups[2].key == "thisMonth");
  CHECK(groups[3].key == "later");
  CHECK(ids(groups[0]) == std::vector<std::string>{"e0", "e1"});  // by due date, across the year boundary
  CHECK(groups[0].totalMinor == 150);
  CHECK(ids(groups[1]) == std::vector<std::string>{"e2", "e7", "e3"});  // same day: by id
  CHECK(groups[1].totalMinor == 501);
  CHECK(ids(groups[2]) == std::vector<std::string>{"e4", "e5"});
  CHECK(groups[2].totalMinor == 900);
  CHECK(ids(groups[3]) == std::vector<std::string>{"e6"});
  CHECK(groups[3].totalMinor == 600);
}

TEST_CASE("all four groups are present when there is nothing to pay") {
  auto groups = group_payables({}, day("2026-01-14"));
  CHECK(groups[0].key == "overdue");
  CHECK(groups[3].key == "later");
  for (const auto& g : groups) {
    CHECK(g.items.empty());
    CHECK(g.totalMinor == 0);
  }
}

TEST_CASE("a week that runs into the next month stays whole; thisMonth is then empty") {
  // Thursday 2026-01-29; the week ends Sunday 2026-02-01.
  CHECK(bucket("2026-01-28", "2026-01-29") == "overdue");
  CHECK(bucket("2026-01-29", "2026-01-29") == "thisWeek");
  CHECK(bucket("2026-01-31", "2026-01-29") == "thisWeek");
  CHECK(bucket("2026-02-01", "2026-01-29") == "thisWeek");
  CHECK(bucket("2026-02-02", "2026-01-29") == "later");
  // Wednesday 2026-12-30: the week ends Sunday 2027-01-03, across the year.
  CHECK(bucket("2027-01-03", "2026-12-30") == "thisWeek");
  CHECK(bucket("2027-01-04", "2026-12-30") == "later");
  CHECK(bucket("2026-12-31", "2026-12-30") == "thisWeek");
}

TEST_CASE("on a Sunday the week is just today; Monday starts thisMonth") {
  CHECK(bucket("2026-01-18", "2026-01-18") == "thisWeek");
  CHECK(bucket("2026-01-19", "2026-01-18") == "thisMonth");
  CHECK(bucket("2026-01-31", "2026-01-18") == "thisMonth");
  // Monday 2026-02-23: week to Sunday 2026-03-01 (February 2026 has 28 days).
  CHECK(bucket("2026-02-28", "2026-02-23") == "thisWeek");
  CHECK(bucket("2026-03-01", "2026-02-23") == "thisWeek");
  CHECK(bucket("2026-02-22", "2026-02-23") == "overdue");
  // Monday 2026-02-02: the week ends the 8th, February the 28th.
  CHECK(bucket("2026-02-09", "2026-02-02") == "thisMonth");
  CHECK(bucket("2026-02-28", "2026-02-02") == "thisMonth");
  CHECK(bucket("2026-03-01", "2026-02-02") == "later");
}
