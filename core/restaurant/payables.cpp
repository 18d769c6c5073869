#include "core/restaurant/payables.h"

#include <algorithm>
#include <tuple>

namespace core::restaurant {

std::string_view payable_bucket_key(PayableBucket bucket) {
  switch (bucket) {
    case PayableBucket::overdue:
      return "overdue";
    case PayableBucket::thisWeek:
      return "thisWeek";
    case PayableBucket::thisMonth:
      return "thisMonth";
    case PayableBucket::later:
      return "later";
  }
  return "later";
}

PayableBucket payable_bucket(const CivilDate& due, const CivilDate& today) {
  if (due < today) return PayableBucket::overdue;
  const CivilDate week_end = add_days(today, 7 - static_cast<int>(iso_weekday(today)));
  if (due <= week_end) return PayableBucket::thisWeek;
  const CivilDate month_end{today.year, today.month, days_in_month(today.year, today.month)};
  if (due <= month_end) return PayableBucket::thisMonth;
  return PayableBucket::later;
}

std::array<PayableGroup, 4> group_payables(std::span<const Payable> payables, const CivilDate& today) {
  std::array<PayableGroup, 4> groups;
  for (int b = 0; b < 4; ++b) groups[b].key = std::string(payable_bucket_key(static_cast<PayableBucket>(b)));
  for (const Payable& p : payables) {
    PayableGroup& group = groups[static_cast<int>(payable_bucket(p.dueDate, today))];
    group.items.push_back(p);
    group.totalMinor += p.amountMinor;
  }
  // Stable: items with the same due date and id (possible from a JavaScript caller, never from stored
  // expenses) keep the caller's order, so every build answers the same.
  for (PayableGroup& group : groups) {
    std::stable_sort(group.items.begin(), group.items.end(), [](const Payable& a, const Payable& b) {
      return std::tie(a.dueDate, a.expenseId) < std::tie(b.dueDate, b.expenseId);
    });
  }
  return groups;
}

}  // namespace core::restaurant
