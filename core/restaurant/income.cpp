#include "core/restaurant/income.h"

#include "core/money.h"
#include "core/restaurant/text_field.h"

namespace core::restaurant {

Result<IncomeRow> validate_income(const IncomeInput& input, const CivilDate& current_business_date) {
  if (input.businessDate > current_business_date) {
    return make_error("business_date_in_future", "businessDate " + format_day_key(input.businessDate) +
                                                     " is after the branch's current business date " +
                                                     format_day_key(current_business_date));
  }
  auto channel = trimmed_text_field(input.channel, "channel", kMaxChannelChars);
  if (!channel) return channel.error();
  CORE_TRY(validate_amount_minor(input.grossMinor, "grossMinor"));
  CORE_TRY(validate_amount_minor(input.commissionMinor, "commissionMinor"));
  if (input.zReportMinor) CORE_TRY(validate_amount_minor(*input.zReportMinor, "zReportMinor"));
  if (input.commissionMinor > input.grossMinor) {
    return make_error("commission_exceeds_gross", "commissionMinor must not exceed grossMinor");
  }
  IncomeRow row;
  row.businessDate = input.businessDate;
  row.channel = std::move(*channel);
  row.grossMinor = input.grossMinor;
  row.commissionMinor = input.commissionMinor;
  row.zReportMinor = input.zReportMinor;
  row.netMinor = input.grossMinor - input.commissionMinor;
  if (input.zReportMinor) row.zReportDiffMinor = input.grossMinor - *input.zReportMinor;
  return row;
}

}  // namespace core::restaurant
