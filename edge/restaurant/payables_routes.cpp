// GET /payables/upcoming and POST /payables/{id}/pay (docs/restaurant-expenses.md). Payables are read from
// the index expense_record.h keeps, never by scanning every expense.

#include <algorithm>
#include <array>
#include <map>
#include <tuple>

#include "core/restaurant/amount_sum.h"
#include "core/restaurant/payables.h"
#include "core/restaurant/text_field.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/restaurant/expense_record.h"
#include "edge/restaurant/restaurant_common.h"
#include "edge/restaurant/restaurant_store.h"

namespace edge::restaurant {
namespace {

namespace rules = core::restaurant;

Response expense_not_found() {
  return rest_error(404, "expense_not_found", "expense not found");
}

// The unpaid expenses with a due date of the branches in `branches`, from the index, in one snapshot.
core::Result<std::vector<json::object>> load_payables(App& app, const CompanyContext& ctx,
                                                      const std::string& only_branch,
                                                      const std::map<std::string, json::object>& branches) {
  std::vector<json::object> out;
  store::Table t = app.restaurant_table;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    out.clear();
    txn.scan(t, payable_prefix(ctx.company.id, only_branch), [&](std::string_view, std::string_view value) {
      auto entry = core::parse_json_object(value);
      if (!entry) return true;
      auto stored = txn.get(t, expense_key(ctx.company.id, record::str(*entry, "expenseId")));
      if (!stored) return true;
      auto rec = core::parse_json_object(*stored);
      if (!rec || !branches.contains(record::str(*rec, "branchId"))) return true;
      if (!rules::is_payable(!record::str(*rec, "dueDate").empty(), !record::str(*rec, "paidAt").empty()))
        return true;
      out.push_back(std::move(*rec));
      return true;
    });
    return {};
  });
  if (!st.ok()) return st.error();
  return out;
}

// The four groups over several branches: each expense is placed against its own branch's calendar today.
core::Result<json::object> payable_groups(App& app, const std::vector<json::object>& expenses,
                                          const std::map<std::string, json::object>& branches) {
  std::map<std::string, std::vector<rules::Payable>> per_branch;
  std::map<std::string, const json::object*> by_id;
  for (const auto& e : expenses) {
    auto due = core::parse_day_key(record::str(e, "dueDate"));
    if (!due) continue;
    std::string id = record::str(e, "id");
    per_branch[record::str(e, "branchId")].push_back({id, *due, record::num(e, "grossMinor")});
    by_id[id] = &e;
  }
  struct Group {
    std::vector<rules::Payable> items;
    std::int64_t total = 0;
  };
  std::array<Group, 4> merged;
  for (const auto& [branch_id, payables] : per_branch) {
    auto today = current_calendar_date(app, branches.at(branch_id));
    if (!today) return today.error();
    auto groups = rules::group_payables(payables, *today);
    for (std::size_t i = 0; i < groups.size(); ++i) {
      merged[i].items.insert(merged[i].items.end(), groups[i].items.begin(), groups[i].items.end());
      auto total = rules::add_amount(merged[i].total, groups[i].totalMinor, "payables total");
      if (!total) return total.error();
      merged[i].total = *total;
    }
  }
  json::array out;
  for (std::size_t i = 0; i < merged.size(); ++i) {
    auto& items = merged[i].items;
    std::stable_sort(items.begin(), items.end(), [](const rules::Payable& a, const rules::Payable& b) {
      return std::tie(a.dueDate, a.expenseId) < std::tie(b.dueDate, b.expenseId);
    });
    json::array records;
    for (const auto& p : items) records.emplace_back(*by_id.at(p.expenseId));
    out.emplace_back(json::object{{"key", rules::payable_bucket_key(static_cast<rules::PayableBucket>(i))},
                                  {"items", std::move(records)},
                                  {"totalMinor", merged[i].total}});
  }
  return json::object{{"groups", std::move(out)}};
}

struct PayBody {
  std::int64_t amountMinor = 0;
  std::optional<std::string> paymentMethod;  // nullopt: keep the expense's
  std::optional<std::int64_t> paidAtUnixMs;  // nullopt: now
};

// Errors: missing_field / invalid_field, invalid_amount (decimals), invalid_field for the method,
// invalid_timestamp.
core::Result<PayBody> read_pay_body(const json::object& body) {
  PayBody out;
  auto amount = amount_field(body, "amountMinor", true);
  if (!amount) return amount.error();
  out.amountMinor = **amount;
  auto method = core::optional_string(body, "paymentMethod");
  if (!method) return method.error();
  if (*method) {
    auto trimmed = rules::trimmed_text_field(**method, "paymentMethod", rules::kMaxPaymentMethodChars);
    if (!trimmed) return trimmed.error();
    out.paymentMethod = std::move(*trimmed);
  }
  auto paid = core::optional_string(body, "paidAt");
  if (!paid) return paid.error();
  if (*paid) {
    auto ms = core::parse_timestamp(**paid);
    if (!ms) return core::make_error(ms.error().code, "paidAt: " + ms.error().message);
    out.paidAtUnixMs = *ms;
  }
  return out;
}

}  // namespace

void register_payables(App& app) {
  Router& r = app.router;
  r.add("GET", path("/payables/upcoming"),
        restaurant_route(app, "restaurant.view", [&app](Request& req, const CompanyContext& ctx) {
          auto branch = branch_query(app, req, ctx);
          if (!branch) return rest_error(branch.error());
          std::map<std::string, json::object> branches;
          std::string only;
          if (*branch) {
            only = record::str(**branch, "id");
            branches.emplace(only, std::move(**branch));
          } else {
            auto all = list_records(app, "c/" + ctx.company.id + "/branch/");
            if (!all) return rest_error(all.error());
            for (auto& b : *all) {
              std::string id = record::str(b, "id");
              if (may_view_branch(ctx, id)) branches.emplace(id, std::move(b));
            }
          }
          auto expenses = load_payables(app, ctx, only, branches);
          if (!expenses) return rest_error(expenses.error());
          auto groups = payable_groups(app, *expenses, branches);
          if (!groups) return rest_error(groups.error());
          return rest_ok(std::move(*groups));
        }));

  r.add("POST", path("/payables/{id}/pay"),
        restaurant_route(app, "", [&app](Request& req, const CompanyContext& ctx) {
          std::string id(req.param("id"));
          if (!is_key_segment(id)) return expense_not_found();
          std::string key = expense_key(ctx.company.id, id);
          auto existing = get_record(app, key);
          if (!existing) return rest_error(existing.error());
          if (!*existing) return expense_not_found();
          std::string branch_id = record::str(**existing, "branchId");
          if (!may_write_branch(ctx, branch_id)) return rest_forbidden_branch(branch_id);
          auto body = core::parse_json_object(req.body);
          if (!body) return rest_error(body.error());
          auto pay = read_pay_body(*body);
          if (!pay) return rest_error(pay.error());
          std::string now = now_text(app);
          std::string paid_at = pay->paidAtUnixMs ? core::format_timestamp(*pay->paidAtUnixMs) : now;

          json::object stored;
          store::Table t = app.restaurant_table;
          auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
            auto value = txn.get(t, key);
            if (!value) return core::make_error("expense_not_found", "expense not found");
            auto rec = core::parse_json_object(*value);
            if (!rec) return core::make_error("expense_not_found", "expense not found");
            CORE_TRY(rules::check_expense_payment(record::str(*rec, "paidAt"),
                                                  record::num(*rec, "grossMinor"), pay->amountMinor));
            erase_payable(txn, t, ctx.company.id, *rec);
            (*rec)["paidAt"] = paid_at;
            if (pay->paymentMethod) (*rec)["paymentMethod"] = *pay->paymentMethod;
            (*rec)["updatedAt"] = now;
            put_expense(txn, t, ctx.company.id, *rec);
            stored = std::move(*rec);
            return {};
          });
          if (!st.ok()) return rest_error(st.error());
          return rest_ok(std::move(stored));
        }));
}

}  // namespace edge::restaurant
