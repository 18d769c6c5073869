// vatSplit, businessDate, addDays and verifyJwtHs256 answered by the core (core/money.h, core/date.h,
// core/jwt.h). Error messages are the core's, except where the package documents its own check: numbers
// that are not safe integers, the shape of a local date-time, and the range of addDays' result.

#include <array>
#include <string>
#include <string_view>

#include "core/date.h"
#include "core/jwt.h"
#include "core/money.h"
#include "tests/differential/oracle.h"

namespace oracle {
namespace {

// vatSplit(grossMinor, vatRateBps): the rate is checked first, also when the gross is not a safe integer.
json::value vat_split(const json::array& args) {
  const JsNumber gross = js_number(arg(args, 0));
  const JsNumber rate = js_number(arg(args, 1));
  if (!rate.safe) return fail("vat_rate_invalid", "VAT rate must be an integer from 0 to 10000 basis points");
  if (auto valid = core::validate_vat_rate_bps(rate.value); !valid) return fail(valid.error());
  if (!gross.safe) {
    return fail("invalid_amount", "grossMinor must be an integer from 0 to 1000000000000000 minor units");
  }
  auto split = core::split_vat(gross.value, rate.value);
  if (!split) return fail(split.error());
  return ok(json::object{
      {"grossMinor", split->grossMinor}, {"netMinor", split->netMinor}, {"vatMinor", split->vatMinor}});
}

bool digits2(std::string_view s, std::size_t at, int& out) {
  if (at + 2 > s.size() || s[at] < '0' || s[at] > '9' || s[at + 1] < '0' || s[at + 1] > '9') return false;
  out = (s[at] - '0') * 10 + (s[at + 1] - '0');
  return true;
}

// The documented shapes `YYYY-MM-DDTHH:MM` and `YYYY-MM-DDTHH:MM:SS`. The first ten characters must be a
// real day key (invalid_date, the core's parser); any other shape is invalid_time; hour, minute and second
// ranges are the core's to refuse.
core::Result<core::LocalDateTime> local_date_time(std::string_view s) {
  auto date = core::parse_day_key(s.size() > 10 ? s.substr(0, 10) : s);
  if (!date) return date.error();
  core::LocalDateTime local{*date, 0, 0, 0};
  bool shaped = (s.size() == 16 || s.size() == 19) && s[10] == 'T' && digits2(s, 11, local.hour) &&
                s[13] == ':' && digits2(s, 14, local.minute);
  if (shaped && s.size() == 19) shaped = s[16] == ':' && digits2(s, 17, local.second);
  if (!shaped) {
    return core::make_error("invalid_time", "'" + std::string(s) +
                                                "' is not a local date and time (expected YYYY-MM-DDTHH:MM "
                                                "or YYYY-MM-DDTHH:MM:SS)");
  }
  return local;
}

// businessDate(localDateTime, dayCutoffHour = 4): the cutoff is checked before the time, as the core does.
json::value business_date(const json::array& args) {
  const std::string input = text(arg(args, 0));
  const auto cutoff = args.size() > 1 ? js_int(args[1]) : std::optional<int>(core::kDefaultDayCutoffHour);
  if (!cutoff) return fail("invalid_cutoff_hour", "dayCutoffHour must be an integer from 0 to 23");
  auto local = local_date_time(input);
  // An unreadable time still loses to a bad cutoff: ask the core about the cutoff with a valid time.
  auto date = core::business_date(local ? *local : core::LocalDateTime{}, *cutoff);
  if (!date) return fail(date.error());
  if (!local) return fail(local.error());
  return ok(json::string(core::format_day_key(*date)));
}

// addDays(dayKey, days) through core::add_days; the result must be a day key again (years 0000..9999).
json::value add_days(const json::array& args) {
  auto date = core::parse_day_key(text(arg(args, 0)));
  if (!date) return fail(date.error());
  const auto days = js_int(arg(args, 1));
  if (!days) return fail("invalid_date", "days must be an integer");
  // |days| < 2^31 keeps the year within +-5.9 million: inside add_days' precondition.
  const core::CivilDate result = core::add_days(*date, *days);
  if (result.year < 0 || result.year > 9999) {
    return fail("invalid_date", "the resulting day lies outside 0000-01-01..9999-12-31");
  }
  return ok(json::string(core::format_day_key(result)));
}

// verifyJwtHs256(compact, secret): the secret as a string (its UTF-8 bytes); {header, claims} as parsed.
json::value verify_jwt_hs256(const json::array& args) {
  auto jwt = core::verify_hs256(text(arg(args, 0)), text(arg(args, 1)));
  if (!jwt) return fail(jwt.error());
  return ok(json::object{{"header", jwt->header}, {"claims", jwt->claims}});
}

constexpr std::array kFunctions = {
    Function{"vatSplit", &vat_split},
    Function{"businessDate", &business_date},
    Function{"addDays", &add_days},
    Function{"verifyJwtHs256", &verify_jwt_hs256},
};

}  // namespace

std::span<const Function> basic_functions() {
  return kFunctions;
}

}  // namespace oracle
