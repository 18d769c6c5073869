// The SLA report's period and figures (core/status/sla.h).

#include "core/status/sla.h"

#include <doctest/doctest.h>

#include <vector>

using namespace core::status;

TEST_CASE("status: the SLA period, with a clear error for each bad query") {
  const core::CivilDate today{2026, 11, 20};
  auto ok = parse_sla_period("2026-10-01", "2026-10-31", today);
  REQUIRE(ok);
  CHECK(*ok == SlaPeriod{{2026, 10, 1}, {2026, 10, 31}});
  CHECK(ok->days() == 31);
  CHECK(parse_sla_period("2026-11-20", "2026-11-20", today)->days() == 1);
  // 366 days is the most: 2025-11-20 .. 2026-11-20 is 366 days, one more is refused.
  CHECK(parse_sla_period("2025-11-20", "2026-11-20", today)->days() == 366);
  auto message = [&](std::optional<std::string_view> f, std::optional<std::string_view> t) {
    auto r = parse_sla_period(f, t, today);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == "invalid_period");
    return r.error().message;
  };
  CHECK(message("2025-11-19", "2026-11-20") == "the period is at most 366 days");
  CHECK(message(std::nullopt, "2026-11-20") == "query parameter 'from' is required (YYYY-MM-DD)");
  CHECK(message("2026-11-01", std::nullopt) == "query parameter 'to' is required (YYYY-MM-DD)");
  CHECK(message("2026-02-29", "2026-03-01") == "query parameter 'from' must be a date YYYY-MM-DD");
  CHECK(message("2026-11-01", "20261102") == "query parameter 'to' must be a date YYYY-MM-DD");
  CHECK(message("2026-11-02", "2026-11-01") == "'from' must not be after 'to'");
  CHECK(message("2026-11-02", "2026-11-21") == "'to' must not be after today (2026-11-20, UTC)");
}

TEST_CASE("status: SLA figures: totals, uptime, the worst day (earliest of equals)") {
  const SlaPeriod p{{2026, 10, 30}, {2026, 11, 2}};
  std::vector<StateTime> days{
      {1000, 0, 0, 5, 0},     // 100 %
      {800, 100, 100, 0, 7},  // 90 %
      {0, 0, 0, 86400, 0},    // unknown only: no uptime, never the worst
      {900, 0, 100, 0, 0},    // 90 %, later than the first 90 %
  };
  auto f = sla_figures(p, days);
  CHECK(f.total == StateTime{2700, 100, 200, 86405, 7});
  CHECK(f.uptime == 2800 * 10000 / 3000);  // 93.33 %
  CHECK(f.worstDay == core::CivilDate{2026, 10, 31});
  CHECK(f.worstDayUptime == 9000);
  // Nothing observed: no uptime, no worst day.
  std::vector<StateTime> none{{0, 0, 0, 10, 0}, {0, 0, 0, 0, 10}};
  auto empty = sla_figures(p, none);
  CHECK(empty.uptime == std::nullopt);
  CHECK(empty.worstDay == std::nullopt);
  CHECK(empty.worstDayUptime == std::nullopt);
}
