#pragma once
// The payables board (spec document 3, GET /payables/upcoming): unpaid expenses with a due date, grouped
// by how soon they fall due relative to the branch's local calendar date.

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/date.h"

namespace core::restaurant {

// One unpaid expense with a due date; the caller leaves out paid expenses and those without a dueDate.
struct Payable {
  std::string expenseId;
  CivilDate dueDate;
  std::int64_t amountMinor = 0;  // the expense's grossMinor: what is owed
};

enum class PayableBucket { overdue, thisWeek, thisMonth, later };

// The wire key of a bucket: `overdue`, `thisWeek`, `thisMonth`, `later`.
std::string_view payable_bucket_key(PayableBucket bucket);

// Which group a due date falls in, `today` being the branch's local calendar date:
//   overdue   due < today
//   thisWeek  today <= due <= the Sunday ending today's ISO week (Monday-Sunday)
//   thisMonth after that Sunday, up to the last day of today's month
//   later     everything after
// A week that runs into the next month stays whole: with today Thursday 29 January, 1 February (Sunday) is
// thisWeek, and thisMonth is empty because the week already passes the end of January; 2 February is later.
// Precondition: valid dates.
PayableBucket payable_bucket(const CivilDate& due, const CivilDate& today);

struct PayableGroup {
  std::string key;
  std::vector<Payable> items;  // by dueDate, then expenseId
  std::int64_t totalMinor = 0;
};

// All four groups, always present and in the order overdue, thisWeek, thisMonth, later (empty groups have no
// items and total 0). Items are sorted by due date, then expense id; ties keep their input order.
// Precondition: valid dates and amounts from validated expenses (0..kMaxAmountMinor; the totals of up to
// about 9000 such amounts cannot overflow).
std::array<PayableGroup, 4> group_payables(std::span<const Payable> payables, const CivilDate& today);

}  // namespace core::restaurant
