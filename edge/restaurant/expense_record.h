#pragma once
// Stored expenses (docs/restaurant-expenses.md): the JSON record the API shows, its key and the payables
// index that is written with it. Shared by POST /expenses, the CSV import and the payables routes; reports
// and the overview read the same member names.
//
// Record: {id, branchId, categoryId, vendorId (string|null), grossMinor, vatRateBps, netMinor, vatMinor,
// costMinor, accrualDate, dueDate (string|null), paidAt (ISO ms UTC|null), paymentMethod, isVatDeductible,
// receiptUrl (string|null), createdAt, updatedAt} under `c/<companyId>/expense/<id>`.
// Index: an unpaid expense with a dueDate also has `c/<companyId>/payable/<branchId>/<dueDate>/<id>`
// (value `{"expenseId": id}`), so the payables board reads only what is owed, already in due-date order.
// Index: every expense has `c/<companyId>/expacc/<branchId>/<accrualDate>/<id>` (same value), so a window of
// accrual dates (the overview's month so far) reads its expenses without scanning the others. accrualDate
// and branchId never change after create.
// Index: a paid expense also has `c/<companyId>/exppaid/<branchId>/<UTC date of paidAt>/<id>` (same value),
// so cash-basis reports over a window read its payments only. paidAt is set once (create or pay) and never
// changes.

#include <optional>
#include <string>
#include <string_view>

#include "core/json.h"
#include "core/restaurant/expense.h"
#include "native/store/kv_store.h"

namespace edge::restaurant {

namespace json = core::json;

// The members of an expense that are references or free text, not rules (core::restaurant::ExpenseRecord).
struct ExpenseRefs {
  std::string id;
  std::string branchId;
  std::string categoryId;
  std::optional<std::string> vendorId;
  std::optional<std::string> receiptUrl;
};

// The record of a validated expense; createdAt and updatedAt are `now`.
json::object expense_json(const ExpenseRefs& refs, const core::restaurant::ExpenseRecord& e,
                          std::string_view now);

std::string expense_key(std::string_view company_id, std::string_view expense_id);
// The payables index prefix of one branch (`c/<companyId>/payable/<branchId>/`), or of every branch when
// `branch_id` is empty (`c/<companyId>/payable/`).
std::string payable_prefix(std::string_view company_id, std::string_view branch_id);

// The accrual index prefix of one branch: `c/<companyId>/expacc/<branchId>/`; keys continue
// `<YYYY-MM-DD>/<id>`.
std::string accrual_prefix(std::string_view company_id, std::string_view branch_id);

// The paid index prefix of one branch: `c/<companyId>/exppaid/<branchId>/`; keys continue
// `<YYYY-MM-DD>/<id>`, the date being paidAt's in UTC (a branch's local date is at most one day away from
// it).
std::string paid_prefix(std::string_view company_id, std::string_view branch_id);

// Stores `expense`, its accrual index key, its paid index key when it is paid and its payables index key when
// it is a payable, in `txn`.
void put_expense(store::WriteTxn& txn, store::Table t, std::string_view company_id,
                 const json::object& expense);
// Removes the index key of `expense` (as it was stored), if it has one.
void erase_payable(store::WriteTxn& txn, store::Table t, std::string_view company_id,
                   const json::object& expense);

}  // namespace edge::restaurant
