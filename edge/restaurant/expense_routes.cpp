// POST /expenses, GET /expenses, GET /expenses/{id} (docs/restaurant-expenses.md). The import is in
// expense_import_routes.cpp.

#include <algorithm>
#include <tuple>

#include "core/id.h"
#include "core/restaurant/expense.h"
#include "core/restaurant/text_field.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/restaurant/expense_import_routes.h"
#include "edge/restaurant/expense_record.h"
#include "edge/restaurant/idempotency.h"
#include "edge/restaurant/restaurant_common.h"
#include "edge/restaurant/restaurant_store.h"

namespace edge::restaurant {
namespace {

constexpr std::size_t kMaxReceiptUrlChars = 2048;

Response expense_not_found() {
  return rest_error(404, "expense_not_found", "expense not found");
}

// The members of a POST /expenses body, read and checked (references not yet looked up).
struct ExpenseBody {
  ExpenseRefs refs;
  core::restaurant::ExpenseRecord expense;
};

// Reads everything but branchId. Errors: missing_field / invalid_field for types, vat_rate_invalid,
// invalid_amount, invalid_date, invalid_timestamp, invalid_field (paymentMethod, receiptUrl).
core::Status read_expense_body(const json::object& body, ExpenseBody& out) {
  auto category = core::require_string(body, "categoryId");
  if (!category) return category.error();
  out.refs.categoryId = *category;
  auto vendor = core::optional_string(body, "vendorId");
  if (!vendor) return vendor.error();
  out.refs.vendorId = *vendor;

  core::restaurant::ExpenseInput in;
  auto vat = vat_rate_field(body, true);
  if (!vat) return vat.error();
  in.vatRateBps = **vat;
  auto gross = amount_field(body, "grossMinor", true);
  if (!gross) return gross.error();
  in.grossMinor = **gross;
  auto accrual = core::require_string(body, "accrualDate");
  if (!accrual) return accrual.error();
  in.accrualDate = *accrual;
  auto due = core::optional_string(body, "dueDate");
  if (!due) return due.error();
  in.dueDate = *due;
  auto paid = core::optional_string(body, "paidAt");
  if (!paid) return paid.error();
  in.paidAt = *paid;
  auto method = core::optional_string(body, "paymentMethod");
  if (!method) return method.error();
  in.paymentMethod = *method;
  auto deductible = core::optional_bool(body, "isVatDeductible");
  if (!deductible) return deductible.error();
  in.isVatDeductible = deductible->value_or(true);
  auto valid = core::restaurant::validate_expense(in);
  if (!valid) return valid.error();
  out.expense = std::move(*valid);

  auto receipt = core::optional_string(body, "receiptUrl");
  if (!receipt) return receipt.error();
  if (*receipt) {
    auto url = core::restaurant::trimmed_text_field(**receipt, "receiptUrl", kMaxReceiptUrlChars);
    if (!url) return url.error();
    out.refs.receiptUrl = std::move(*url);
  }
  return {};
}

}  // namespace

void register_expenses(App& app) {
  Router& r = app.router;
  r.add("POST", path("/expenses"), restaurant_route(app, "", [&app](Request& req, const CompanyContext& ctx) {
          auto write = read_branch_write(app, req, ctx);
          if (!write) return rest_error(write.error());
          IdempotentCreate idem;
          if (auto answered = idem.begin(app, req, ctx, "POST /expenses", write->branchId))
            return std::move(*answered);
          ExpenseBody in;
          auto st = read_expense_body(write->body, in);
          if (!st.ok()) return rest_error(st.error());
          in.refs.branchId = write->branchId;
          in.refs.id = core::make_id("exp_", app.random);
          json::object rec = expense_json(in.refs, in.expense, now_text(app));

          // The category and vendor are looked up in the write transaction, so one deleted meanwhile is
          // never referenced.
          std::string category_key = company_key(ctx, "category", in.refs.categoryId);
          std::string vendor_key = in.refs.vendorId ? company_key(ctx, "vendor", *in.refs.vendorId) : "";
          bool category_ok = is_key_segment(in.refs.categoryId);
          bool vendor_ok = !in.refs.vendorId || is_key_segment(*in.refs.vendorId);
          store::Table t = app.restaurant_table;
          auto answer = idem.write(app, [&](store::WriteTxn& txn) -> core::Result<Response> {
            if (!category_ok || !txn.get(t, category_key))
              return core::make_error("category_not_found", "category not found");
            if (!vendor_ok || (!vendor_key.empty() && !txn.get(t, vendor_key)))
              return core::make_error("vendor_not_found", "vendor not found");
            put_expense(txn, t, ctx.company.id, rec);
            return rest_ok(rec, 201);
          });
          if (!answer) return rest_error(answer.error());
          return std::move(*answer);
        }));

  register_expense_import(app);

  r.add("GET", path("/expenses"),
        restaurant_route(app, "restaurant.view", [&app](Request& req, const CompanyContext& ctx) {
          auto from = day_query(req, "from");
          if (!from) return rest_error(from.error());
          auto to = day_query(req, "to");
          if (!to) return rest_error(to.error());
          auto branch = branch_query(app, req, ctx);
          if (!branch) return rest_error(branch.error());
          std::string only = *branch ? record::str(**branch, "id") : "";
          auto all = list_records(app, "c/" + ctx.company.id + "/expense/");
          if (!all) return rest_error(all.error());
          std::vector<json::object> out;
          for (auto& rec : *all) {
            std::string b = record::str(rec, "branchId");
            if (!may_view_branch(ctx, b) || (!only.empty() && b != only)) continue;
            auto d = core::parse_day_key(record::str(rec, "accrualDate"));
            if (!d) continue;
            if ((*from && *d < **from) || (*to && *d > **to)) continue;
            out.push_back(std::move(rec));
          }
          std::stable_sort(out.begin(), out.end(), [](const json::object& a, const json::object& b) {
            return std::tuple(record::str(a, "accrualDate"), record::str(a, "id")) <
                   std::tuple(record::str(b, "accrualDate"), record::str(b, "id"));
          });
          return paged(req, out);
        }));

  r.add("GET", path("/expenses/{id}"),
        restaurant_route(app, "restaurant.view", [&app](Request& req, const CompanyContext& ctx) {
          std::string id(req.param("id"));
          if (!is_key_segment(id)) return expense_not_found();
          auto rec = get_record(app, expense_key(ctx.company.id, id));
          if (!rec) return rest_error(rec.error());
          if (!*rec || !may_view_branch(ctx, record::str(**rec, "branchId"))) return expense_not_found();
          return rest_ok(std::move(**rec));
        }));
}

}  // namespace edge::restaurant
