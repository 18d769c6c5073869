#include "core/status/sla.h"

#include <string>

namespace core::status {

Result<SlaPeriod> parse_sla_period(std::optional<std::string_view> from, std::optional<std::string_view> to,
                                   const CivilDate& today) {
  auto day = [](std::optional<std::string_view> text, const char* name) -> Result<CivilDate> {
    if (!text)
      return make_error("invalid_period",
                        std::string("query parameter '") + name + "' is required (YYYY-MM-DD)");
    auto d = parse_day_key(*text);
    if (!d)
      return make_error("invalid_period",
                        std::string("query parameter '") + name + "' must be a date YYYY-MM-DD");
    return *d;
  };
  auto f = day(from, "from");
  if (!f) return f.error();
  auto t = day(to, "to");
  if (!t) return t.error();
  if (*t < *f) return make_error("invalid_period", "'from' must not be after 'to'");
  if (today < *t)
    return make_error("invalid_period", "'to' must not be after today (" + format_day_key(today) + ", UTC)");
  SlaPeriod p{*f, *t};
  if (p.days() > kSlaMaxDays)
    return make_error("invalid_period", "the period is at most " + std::to_string(kSlaMaxDays) + " days");
  return p;
}

SlaFigures sla_figures(const SlaPeriod& period, std::span<const StateTime> days) {
  SlaFigures f;
  for (std::size_t i = 0; i < days.size(); ++i) {
    f.total += days[i];
    auto u = days[i].uptime_basis_points();
    if (u && (!f.worstDayUptime || *u < *f.worstDayUptime)) {
      f.worstDayUptime = u;
      f.worstDay = add_days(period.from, static_cast<int>(i));
    }
  }
  f.uptime = f.total.uptime_basis_points();
  return f;
}

}  // namespace core::status
