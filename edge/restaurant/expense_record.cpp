#include "edge/restaurant/expense_record.h"

#include "core/date.h"
#include "core/restaurant/expense.h"
#include "edge/platform/record_json.h"

namespace edge::restaurant {
namespace {

json::value opt_text(const std::optional<std::string>& v) {
  return v ? json::value(*v) : json::value(nullptr);
}

std::string payable_key(std::string_view company_id, const json::object& expense) {
  return payable_prefix(company_id, record::str(expense, "branchId")) + record::str(expense, "dueDate") +
         "/" + record::str(expense, "id");
}

}  // namespace

json::object expense_json(const ExpenseRefs& refs, const core::restaurant::ExpenseRecord& e,
                          std::string_view now) {
  return json::object{
      {"id", refs.id},
      {"branchId", refs.branchId},
      {"categoryId", refs.categoryId},
      {"vendorId", opt_text(refs.vendorId)},
      {"grossMinor", e.amounts.grossMinor},
      {"vatRateBps", e.vatRateBps},
      {"netMinor", e.amounts.netMinor},
      {"vatMinor", e.amounts.vatMinor},
      {"costMinor", e.amounts.costMinor},
      {"accrualDate", core::format_day_key(e.accrualDate)},
      {"dueDate", e.dueDate ? json::value(core::format_day_key(*e.dueDate)) : json::value(nullptr)},
      {"paidAt", record::time_or_null(e.paidAtUnixMs)},
      {"paymentMethod", e.paymentMethod},
      {"isVatDeductible", e.isVatDeductible},
      {"receiptUrl", opt_text(refs.receiptUrl)},
      {"createdAt", now},
      {"updatedAt", now},
  };
}

std::string expense_key(std::string_view company_id, std::string_view expense_id) {
  return "c/" + std::string(company_id) + "/expense/" + std::string(expense_id);
}

std::string payable_prefix(std::string_view company_id, std::string_view branch_id) {
  std::string prefix = "c/" + std::string(company_id) + "/payable/";
  if (!branch_id.empty()) prefix += std::string(branch_id) + "/";
  return prefix;
}

std::string accrual_prefix(std::string_view company_id, std::string_view branch_id) {
  return "c/" + std::string(company_id) + "/expacc/" + std::string(branch_id) + "/";
}

std::string paid_prefix(std::string_view company_id, std::string_view branch_id) {
  return "c/" + std::string(company_id) + "/exppaid/" + std::string(branch_id) + "/";
}

void put_expense(store::WriteTxn& txn, store::Table t, std::string_view company_id,
                 const json::object& expense) {
  std::string id = record::str(expense, "id");
  std::string ref = core::to_json(json::object{{"expenseId", id}});
  txn.put(t, expense_key(company_id, id), core::to_json(expense));
  txn.put(t,
          accrual_prefix(company_id, record::str(expense, "branchId")) + record::str(expense, "accrualDate") +
              "/" + id,
          ref);
  // paidAt is stored as ISO 8601 UTC (`YYYY-MM-DDTHH:MM:SS.mmmZ`): its first ten characters are the UTC date.
  if (std::string paid = record::str(expense, "paidAt"); paid.size() >= 10)
    txn.put(t, paid_prefix(company_id, record::str(expense, "branchId")) + paid.substr(0, 10) + "/" + id,
            ref);
  if (core::restaurant::is_payable(!record::str(expense, "dueDate").empty(),
                                   !record::str(expense, "paidAt").empty()))
    txn.put(t, payable_key(company_id, expense), ref);
}

void erase_payable(store::WriteTxn& txn, store::Table t, std::string_view company_id,
                   const json::object& expense) {
  if (!record::str(expense, "dueDate").empty()) txn.erase(t, payable_key(company_id, expense));
}

}  // namespace edge::restaurant
