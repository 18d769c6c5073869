#pragma once
// Daily income rows (spec document 3, "Income row"): one per branch x business day x channel, reconciled
// against the till's Z report.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "core/date.h"
#include "core/result.h"

namespace core::restaurant {

inline constexpr std::size_t kMaxChannelChars = 64;

// An income row as parsed from a request (the edge reads the JSON and the day key).
struct IncomeInput {
  CivilDate businessDate;
  std::string channel;
  std::int64_t grossMinor = 0;       // VAT included
  std::int64_t commissionMinor = 0;  // platform commission
  std::optional<std::int64_t> zReportMinor;
};

// A valid income row with its derived fields.
struct IncomeRow {
  CivilDate businessDate;
  std::string channel;  // trimmed
  std::int64_t grossMinor = 0;
  std::int64_t commissionMinor = 0;
  std::optional<std::int64_t> zReportMinor;
  // grossMinor - commissionMinor: what the branch keeps.
  std::int64_t netMinor = 0;
  // grossMinor - zReportMinor when the Z report is known: positive when more was recorded than the till
  // counted, negative when less.
  std::optional<std::int64_t> zReportDiffMinor;
};

// Validates an income row against the branch's current business date (from its time zone and
// dayCutoffHour: core::business_date of the branch's local time now).
// Errors, in this order: `business_date_in_future` when businessDate > current_business_date;
// `invalid_field` for an empty (after trimming) channel or one over 64 characters; `invalid_amount` for
// grossMinor, commissionMinor or zReportMinor outside 0..kMaxAmountMinor; `commission_exceeds_gross` when
// commissionMinor > grossMinor.
Result<IncomeRow> validate_income(const IncomeInput& input, const CivilDate& current_business_date);

}  // namespace core::restaurant
