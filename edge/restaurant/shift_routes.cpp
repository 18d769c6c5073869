// Shifts (spec document 3, "Shift"; docs/restaurant-shifts.md): open one per branch, read the current one,
// close it with the counted cash against the expected cash (core/restaurant/shift.h).

#include <algorithm>
#include <tuple>

#include "core/id.h"
#include "core/restaurant/shift.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/restaurant/idempotency.h"
#include "edge/restaurant/restaurant_common.h"
#include "edge/restaurant/restaurant_store.h"

namespace edge::restaurant {
namespace {

// Index of the branch's open shift: `c/<companyId>/shiftopen/<branchId>` holding the shift id. Written and
// checked in the same transaction as the shift, so two opens at once give one shift.
std::string open_shift_key(const CompanyContext& ctx, std::string_view branch_id) {
  return company_key(ctx, "shiftopen", branch_id);
}

// The shift of `id`, or 404 shift_not_found, also for ids of branches the caller cannot see.
core::Result<json::object> load_shift(App& app, const CompanyContext& ctx, std::string_view id) {
  if (!is_key_segment(id)) return core::make_error("shift_not_found", "shift not found");
  auto rec = get_record(app, company_key(ctx, "shift", id));
  if (!rec) return rec.error();
  if (!*rec || !may_view_branch(ctx, record::str(**rec, "branchId")))
    return core::make_error("shift_not_found", "shift not found");
  return std::move(**rec);
}

// The cash payments taken at the branch from `opened_at` (inclusive) to `closed_at` (inclusive), from the
// order payment ledger `c/<companyId>/orderpay/<branchId>/<businessDate>/...` (written by the order
// routes), starting at the shift's business date.
std::vector<core::restaurant::ShiftPayment> shift_payments(const store::ReadTxn& txn, store::Table t,
                                                           const CompanyContext& ctx,
                                                           const json::object& shift,
                                                           const std::string& closed_at) {
  std::string prefix = company_key(ctx, "orderpay", record::str(shift, "branchId")) + "/";
  std::string opened_at = record::str(shift, "openedAt");
  std::vector<core::restaurant::ShiftPayment> out;
  txn.scan(
      t, prefix,
      [&](std::string_view, std::string_view value) {
        auto p = core::parse_json_object(value);
        if (!p) return true;
        std::string at = record::str(*p, "createdAt");
        // ISO 8601 UTC timestamps with milliseconds compare as text.
        if (at >= opened_at && at <= closed_at)
          out.push_back({record::str(*p, "method"), record::num(*p, "amountMinor")});
        return true;
      },
      prefix + record::str(shift, "businessDate"));
  return out;
}

Response conflict_with_shift(const core::Error& e, const json::object& shift) {
  Response r = rest_error(e);
  r.body = core::to_json(json::object{{"error", e.code}, {"message", e.message}, {"shift", shift}});
  return r;
}

void open_shift(App& app) {
  app.router.add("POST", path("/shifts"),
                 restaurant_route(app, "", [&app](Request& req, const CompanyContext& ctx) {
                   auto write = read_branch_write(app, req, ctx);
                   if (!write) return rest_error(write.error());
                   const std::string& branch_id = write->branchId;
                   IdempotentCreate idem;
                   if (auto answered = idem.begin(app, req, ctx, "POST /shifts", branch_id))
                     return std::move(*answered);
                   auto opening = amount_field(write->body, "openingFloatMinor", true);
                   if (!opening) return rest_error(opening.error());
                   auto valid = core::validate_amount_minor(**opening, "openingFloatMinor");
                   if (!valid.ok()) return rest_error(valid.error());
                   auto day = current_business_date(app, write->branch);
                   if (!day) return rest_error(day.error());

                   std::string now = now_text(app);
                   std::string id = core::make_id("shf_", app.random);
                   json::object rec{{"id", id},
                                    {"branchId", branch_id},
                                    {"businessDate", core::format_day_key(*day)},
                                    {"status", "open"},
                                    {"openingFloatMinor", **opening},
                                    {"openedAt", now},
                                    {"closedAt", nullptr},
                                    {"countedCashMinor", nullptr},
                                    {"cashPaymentsMinor", nullptr},
                                    {"expectedCashMinor", nullptr},
                                    {"differenceMinor", nullptr},
                                    {"createdAt", now},
                                    {"updatedAt", now}};
                   std::string index = open_shift_key(ctx, branch_id);
                   std::optional<json::object> open;
                   store::Table t = app.restaurant_table;
                   auto answer = idem.write(app, [&](store::WriteTxn& txn) -> core::Result<Response> {
                     open.reset();
                     if (auto existing = txn.get(t, index)) {
                       if (auto s = txn.get(t, company_key(ctx, "shift", *existing)))
                         open = core::parse_json_object(*s).value_or(json::object{});
                       return core::make_error("shift_already_open",
                                               "branch '" + branch_id + "' already has an open shift");
                     }
                     txn.put(t, company_key(ctx, "shift", id), core::to_json(rec));
                     txn.put(t, index, id);
                     return rest_ok(rec, 201);
                   });
                   if (!answer)
                     return open ? conflict_with_shift(answer.error(), *open) : rest_error(answer.error());
                   return std::move(*answer);
                 }));
}

void close_shift(App& app) {
  app.router.add(
      "POST", path("/shifts/{id}/close"),
      restaurant_route(app, "", [&app](Request& req, const CompanyContext& ctx) {
        auto shift = load_shift(app, ctx, req.param("id"));
        if (!shift) return rest_error(shift.error());
        std::string branch_id = record::str(*shift, "branchId");
        if (!may_write_branch(ctx, branch_id)) return rest_forbidden_branch(branch_id);
        auto body = core::parse_json_object(req.body);
        if (!body) return rest_error(body.error());
        auto counted = amount_field(*body, "countedCashMinor", true);
        if (!counted) return rest_error(counted.error());
        auto valid = core::validate_amount_minor(**counted, "countedCashMinor");
        if (!valid.ok()) return rest_error(valid.error());

        std::string now = now_text(app);
        std::string key = company_key(ctx, "shift", record::str(*shift, "id"));
        std::string index = open_shift_key(ctx, branch_id);
        json::object out;
        bool not_open = false;
        store::Table t = app.restaurant_table;
        auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
          not_open = false;
          auto v = txn.get(t, key);
          auto rec = v ? core::parse_json_object(*v) : core::make_error("shift_not_found", "shift not found");
          if (!rec) return core::make_error("shift_not_found", "shift not found");
          if (record::str(*rec, "status") != "open") {
            not_open = true;
            out = *rec;
            return core::make_error("shift_not_open", "shift is already closed");
          }
          auto payments = shift_payments(txn, t, ctx, *rec, now);
          auto count =
              core::restaurant::count_shift_cash(record::num(*rec, "openingFloatMinor"), payments, **counted);
          if (!count) return count.error();
          (*rec)["status"] = "closed";
          (*rec)["closedAt"] = now;
          (*rec)["countedCashMinor"] = count->countedCashMinor;
          (*rec)["cashPaymentsMinor"] = count->cashPaymentsMinor;
          (*rec)["expectedCashMinor"] = count->expectedCashMinor;
          (*rec)["differenceMinor"] = count->differenceMinor;
          (*rec)["updatedAt"] = now;
          txn.put(t, key, core::to_json(*rec));
          if (auto open = txn.get(t, index); open && *open == record::str(*rec, "id")) txn.erase(t, index);
          out = std::move(*rec);
          return {};
        });
        if (!st.ok()) return not_open ? conflict_with_shift(st.error(), out) : rest_error(st.error());
        return rest_ok(std::move(out));
      }));
}

void read_shifts(App& app) {
  Router& r = app.router;
  r.add("GET", path("/shifts/current"),
        restaurant_route(app, "restaurant.view", [&app](Request& req, const CompanyContext& ctx) {
          if (!req.query_param("branchId"))
            return rest_error(422, "missing_field", "query parameter 'branchId' is required");
          auto branch = branch_query(app, req, ctx);
          if (!branch) return rest_error(branch.error());
          std::optional<json::object> current;
          store::Table t = app.restaurant_table;
          std::string index = open_shift_key(ctx, record::str(**branch, "id"));
          auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
            current.reset();
            if (auto id = txn.get(t, index))
              if (auto s = txn.get(t, company_key(ctx, "shift", *id)))
                current = core::parse_json_object(*s).value_or(json::object{});
            return {};
          });
          if (!st.ok()) return rest_error(st.error());
          return rest_ok(current ? json::value(std::move(*current)) : json::value(nullptr));
        }));
  r.add("GET", path("/shifts/{id}"),
        restaurant_route(app, "restaurant.view", [&app](Request& req, const CompanyContext& ctx) {
          auto shift = load_shift(app, ctx, req.param("id"));
          if (!shift) return rest_error(shift.error());
          return rest_ok(std::move(*shift));
        }));
  r.add("GET", path("/shifts"),
        restaurant_route(app, "restaurant.view", [&app](Request& req, const CompanyContext& ctx) {
          auto branch = branch_query(app, req, ctx);
          if (!branch) return rest_error(branch.error());
          auto from = day_query(req, "from");
          if (!from) return rest_error(from.error());
          auto to = day_query(req, "to");
          if (!to) return rest_error(to.error());
          auto all = list_records(app, "c/" + ctx.company.id + "/shift/");
          if (!all) return rest_error(all.error());
          std::vector<json::object> out;
          for (auto& s : *all) {
            std::string b = record::str(s, "branchId");
            if (!may_view_branch(ctx, b) || (*branch && record::str(**branch, "id") != b)) continue;
            std::string day = record::str(s, "businessDate");
            if ((*from && day < core::format_day_key(**from)) || (*to && day > core::format_day_key(**to)))
              continue;
            out.push_back(std::move(s));
          }
          // Newest first: the history a manager scrolls.
          std::stable_sort(out.begin(), out.end(), [](const json::object& a, const json::object& b) {
            return std::tuple(record::str(a, "openedAt"), record::str(a, "id")) >
                   std::tuple(record::str(b, "openedAt"), record::str(b, "id"));
          });
          return paged(req, out);
        }));
}

}  // namespace

void register_shifts(App& app) {
  read_shifts(app);
  open_shift(app);
  close_shift(app);
}

}  // namespace edge::restaurant
