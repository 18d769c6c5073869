// POST /expenses/import: the CSV of core::restaurant::parse_expense_csv into one branch. Good rows are
// imported and bad rows reported; the category and vendor cells are resolved against the company's records
// here (docs/restaurant-expenses.md).

#include "edge/restaurant/expense_import_routes.h"

#include <algorithm>
#include <map>
#include <set>

#include "core/ascii.h"
#include "core/id.h"
#include "core/restaurant/expense_import.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/restaurant/expense_record.h"
#include "edge/restaurant/idempotency.h"
#include "edge/restaurant/restaurant_common.h"
#include "edge/restaurant/restaurant_store.h"

namespace edge::restaurant {
namespace {

namespace rules = core::restaurant;

constexpr std::size_t kMaxImportRows = 10'000;
// The import's body limit: 10,000 rows of about 400 bytes (long names, quoted cells), above the 1 MiB of
// other JSON bodies. Larger bodies answer 413 payload_too_large before the handler runs.
constexpr std::size_t kMaxImportBody = 4 << 20;

struct ImportRequest {
  std::string csv;
  std::string branchId;
  bool dryRun = false;
};

// A raw `text/csv` body takes branchId and dryRun from the query; anything else is the JSON body
// {csv, branchId, dryRun}. Errors: invalid_json / invalid_body, missing_field, invalid_field.
core::Result<ImportRequest> read_import_request(const Request& req) {
  ImportRequest out;
  if (core::to_ascii_lower(req.header("content-type")).starts_with("text/csv")) {
    auto branch = req.query_param("branchId");
    if (!branch) return core::make_error("missing_field", "query parameter 'branchId' is required");
    out.branchId = *branch;
    if (auto dry = req.query_param("dryRun")) {
      if (*dry == "1" || *dry == "true") {
        out.dryRun = true;
      } else if (*dry != "0" && *dry != "false") {
        return core::make_error("invalid_field", "query parameter 'dryRun' must be 1, 0, true or false");
      }
    }
    out.csv = req.body;
    return out;
  }
  auto body = core::parse_json_object(req.body);
  if (!body) return body.error();
  auto branch = core::require_string(*body, "branchId");
  if (!branch) return branch.error();
  out.branchId = *branch;
  auto csv = core::require_string(*body, "csv");
  if (!csv) return csv.error();
  out.csv = std::move(*csv);
  auto dry = core::optional_bool(*body, "dryRun");
  if (!dry) return dry.error();
  out.dryRun = dry->value_or(false);
  return out;
}

// The company's categories or vendors, for resolving a cell: an id, else a name compared trimmed (the core
// trims cells) and ASCII-case-insensitively. Several records with one name: the smallest id wins.
struct Names {
  std::set<std::string> ids;
  std::map<std::string, std::string> by_name;  // lower-cased name -> id

  void load(const store::ReadTxn& txn, store::Table t, const std::string& prefix) {
    txn.scan(t, prefix, [&](std::string_view, std::string_view value) {
      auto rec = core::parse_json_object(value);
      if (!rec) return true;
      std::string id = record::str(*rec, "id");
      ids.insert(id);
      by_name.emplace(core::to_ascii_lower(record::str(*rec, "name")),
                      id);  // keys ascend: the first id is the least
      return true;
    });
  }

  std::optional<std::string> find(const std::string& cell) const {
    if (ids.contains(cell)) return cell;
    if (auto it = by_name.find(core::to_ascii_lower(cell)); it != by_name.end()) return it->second;
    return std::nullopt;
  }
};

// What an import writes, and the rows the edge refused (unknown categories).
struct ImportPlan {
  std::vector<rules::CsvRowError> errors;
  std::size_t failed = 0;
  std::vector<json::object> vendors;
  std::vector<json::object> expenses;
};

struct PlanInput {
  std::string companyId;
  std::string branchId;
  std::string now;
  const rules::ExpenseCsvImport* parsed = nullptr;
  std::vector<std::string> expenseIds;  // one per good row, made before the transaction
  // A fresh id per distinct lower-cased vendor cell of the good rows, used only if the cell names no vendor.
  std::map<std::string, std::string> newVendorIds;
};

// Resolves the good rows against the records visible in `txn`. Pure apart from reading: the write
// transaction may run it more than once, and a dry run runs it in a read transaction.
ImportPlan plan_import(const store::ReadTxn& txn, store::Table t, const PlanInput& in) {
  ImportPlan plan;
  Names categories, vendors;
  categories.load(txn, t, "c/" + in.companyId + "/category/");
  vendors.load(txn, t, "c/" + in.companyId + "/vendor/");
  std::map<std::string, std::string> created;  // lower-cased vendor cell -> id planned in this import
  std::size_t next_id = 0;
  for (const rules::ExpenseCsvRow& row : in.parsed->rows) {
    auto category = categories.find(row.category);
    if (!category) {
      plan.errors.push_back({row.row, "category", "category_not_found",
                             "category '" + row.category + "' is neither the name nor the id of a category"});
      ++plan.failed;
      continue;
    }
    ExpenseRefs refs{in.expenseIds.at(next_id++), in.branchId, *category, std::nullopt, std::nullopt};
    if (row.vendor) {
      std::string folded = core::to_ascii_lower(*row.vendor);
      if (auto known = vendors.find(*row.vendor)) {
        refs.vendorId = *known;
      } else if (auto it = created.find(folded); it != created.end()) {
        refs.vendorId = it->second;
      } else {
        std::string id = in.newVendorIds.at(folded);
        created.emplace(folded, id);
        plan.vendors.push_back(
            json::object{{"id", id}, {"name", *row.vendor}, {"createdAt", in.now}, {"updatedAt", in.now}});
        refs.vendorId = id;
      }
    }
    plan.expenses.push_back(expense_json(refs, row.expense, in.now));
  }
  return plan;
}

json::object error_json(const rules::CsvRowError& e) {
  return json::object{{"row", e.row}, {"column", e.column}, {"code", e.code}, {"message", e.message}};
}

}  // namespace

void register_expense_import(App& app) {
  app.router.add(
      "POST", path("/expenses/import"),
      restaurant_route(
          app, "",
          [&app](Request& req, const CompanyContext& ctx) {
            auto request = read_import_request(req);
            if (!request) return rest_error(request.error());
            if (!may_write_branch(ctx, request->branchId)) return rest_forbidden_branch(request->branchId);
            auto branch = load_branch(app, ctx, request->branchId);
            if (!branch) return rest_error(branch.error());
            IdempotentCreate idem;
            if (auto answered = idem.begin(app, req, ctx, "POST /expenses/import", request->branchId))
              return std::move(*answered);
            auto parsed = rules::parse_expense_csv(request->csv);
            if (!parsed) return rest_error(parsed.error());
            if (parsed->total > kMaxImportRows)
              return rest_error(422, "too_many_rows",
                                "an import holds at most " + std::to_string(kMaxImportRows) + " rows");

            PlanInput in{ctx.company.id, request->branchId, now_text(app), &*parsed, {}, {}};
            for (const auto& row : parsed->rows) {
              in.expenseIds.push_back(core::make_id("exp_", app.random));
              if (row.vendor && !in.newVendorIds.contains(core::to_ascii_lower(*row.vendor)))
                in.newVendorIds.emplace(core::to_ascii_lower(*row.vendor), core::make_id("ven_", app.random));
            }
            // The answer to this import once `plan` is known; recorded with an Idempotency-Key.
            auto respond = [&](const ImportPlan& plan) {
              std::vector<rules::CsvRowError> errors = parsed->errors;
              errors.insert(errors.end(), plan.errors.begin(), plan.errors.end());
              std::stable_sort(errors.begin(), errors.end(),
                               [](const auto& a, const auto& b) { return a.row < b.row; });
              json::array error_list;
              for (const auto& e : errors) error_list.emplace_back(error_json(e));
              json::array created;
              if (!request->dryRun)
                for (const auto& e : plan.expenses) created.emplace_back(record::str(e, "id"));
              std::size_t failed = parsed->failed + plan.failed;
              return rest_ok(json::object{{"ok", parsed->total - failed},
                                          {"failed", failed},
                                          {"total", parsed->total},
                                          {"dryRun", request->dryRun},
                                          {"errors", std::move(error_list)},
                                          {"created", std::move(created)}});
            };
            store::Table t = app.restaurant_table;
            if (request->dryRun) {
              // A dry run writes nothing, so there is no effect to guard and nothing is recorded.
              ImportPlan plan;
              auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
                plan = plan_import(txn, t, in);
                return {};
              });
              if (!st.ok()) return rest_error(st.error());
              return respond(plan);
            }
            auto answer = idem.write(app, [&](store::WriteTxn& txn) -> core::Result<Response> {
              ImportPlan plan = plan_import(txn, t, in);
              for (const auto& v : plan.vendors)
                txn.put(t, company_key(ctx, "vendor", record::str(v, "id")), core::to_json(v));
              for (const auto& e : plan.expenses) put_expense(txn, t, ctx.company.id, e);
              return respond(plan);
            });
            if (!answer) return rest_error(answer.error());
            return std::move(*answer);
          }),
      RouteOptions{kMaxImportBody});
}

}  // namespace edge::restaurant
