// Categories and vendors (per company) and tables (per branch) (docs/restaurant-api.md, "Categories, vendors,
// tables"): one set of CRUD routes per kind, registered from a CatalogKind.

#include <algorithm>
#include <optional>
#include <tuple>

#include "core/id.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/restaurant/idempotency.h"
#include "edge/restaurant/restaurant_common.h"
#include "edge/restaurant/restaurant_http.h"
#include "edge/restaurant/restaurant_store.h"

namespace edge::restaurant {

namespace {

struct CatalogKind {
  std::string_view path;       // "/categories"
  std::string_view key;        // "category"
  std::string_view id_prefix;  // "cat_"
  std::string_view not_found;  // "category_not_found"
  bool per_branch = false;     // tables: a branchId, writes checked against the branch
};

void register_catalog_kind(App& app, CatalogKind kind) {
  Router& r = app.router;
  auto not_found = [kind] { return rest_error(404, kind.not_found, std::string(kind.key) + " not found"); };
  // The write check for a record of this kind: company-wide kinds need restaurant.manage, tables the branch.
  auto may_write = [kind](const CompanyContext& ctx, std::string_view branch_id) {
    return kind.per_branch ? may_write_branch(ctx, branch_id) : ctx.principal.allows("restaurant.write");
  };

  r.add("GET", path(kind.path),
        restaurant_route(app, "restaurant.view", [&app, kind](Request& req, const CompanyContext& ctx) {
          auto branch = req.query_param("branchId");
          auto all = list_records(app, "c/" + ctx.company.id + "/" + std::string(kind.key) + "/");
          if (!all) return rest_error(all.error());
          std::vector<json::object> out;
          for (auto& rec : *all) {
            if (kind.per_branch) {
              std::string b = record::str(rec, "branchId");
              if (!may_view_branch(ctx, b) || (branch && *branch != b)) continue;
            }
            out.push_back(std::move(rec));
          }
          std::stable_sort(out.begin(), out.end(), [](const json::object& a, const json::object& b) {
            return std::tuple(record::str(a, "name"), record::str(a, "id")) <
                   std::tuple(record::str(b, "name"), record::str(b, "id"));
          });
          return paged(req, out);
        }));

  r.add("POST", path(kind.path),
        restaurant_route(app, "", [&app, kind, may_write](Request& req, const CompanyContext& ctx) {
          auto body = core::parse_json_object(req.body);
          if (!body) return rest_error(body.error());
          std::string branch_id;
          if (kind.per_branch) {
            auto b = core::require_string(*body, "branchId");
            if (!b) return rest_error(b.error());
            branch_id = *b;
          }
          if (!may_write(ctx, branch_id))
            return kind.per_branch ? rest_forbidden_branch(branch_id) : rest_forbidden("restaurant.manage");
          IdempotentCreate idem;
          if (auto answered = idem.begin(app, req, ctx, "POST " + std::string(kind.path), branch_id))
            return std::move(*answered);
          auto name = name_field(*body);
          if (!name) return rest_error(name.error());
          if (kind.per_branch) {
            auto b = load_branch(app, ctx, branch_id);
            if (!b) return rest_error(b.error());
          }
          std::string now = now_text(app);
          json::object rec{{"id", core::make_id(kind.id_prefix, app.random)}};
          if (kind.per_branch) rec["branchId"] = branch_id;
          rec["name"] = *name;
          rec["createdAt"] = now;
          rec["updatedAt"] = now;
          return create_record(app, idem, company_key(ctx, kind.key, record::str(rec, "id")), rec);
        }));

  r.add("GET", path(std::string(kind.path) + "/{id}"),
        restaurant_route(
            app, "restaurant.view", [&app, kind, not_found](Request& req, const CompanyContext& ctx) {
              std::string id(req.param("id"));
              if (!is_key_segment(id)) return not_found();
              auto rec = get_record(app, company_key(ctx, kind.key, id));
              if (!rec) return rest_error(rec.error());
              // A table of a branch the caller cannot view is as unknown to it as another company's.
              if (!*rec || (kind.per_branch && !may_view_branch(ctx, record::str(**rec, "branchId"))))
                return not_found();
              return rest_ok(std::move(**rec));
            }));

  // PATCH and DELETE: the record named by {id}, if it exists and the caller may write to it; otherwise the
  // response to send.
  auto writable = [&app, kind, may_write, not_found](Request& req, const CompanyContext& ctx,
                                                     std::string& key) -> std::optional<Response> {
    std::string id(req.param("id"));
    if (!is_key_segment(id)) return not_found();
    key = company_key(ctx, kind.key, id);
    auto existing = get_record(app, key);
    if (!existing) return rest_error(existing.error());
    if (!*existing) return not_found();
    std::string branch_id = record::str(**existing, "branchId");
    if (!may_write(ctx, branch_id))
      return kind.per_branch ? rest_forbidden_branch(branch_id) : rest_forbidden("restaurant.manage");
    return std::nullopt;
  };

  r.add("PATCH", path(std::string(kind.path) + "/{id}"),
        restaurant_route(app, "", [&app, kind, writable, not_found](Request& req, const CompanyContext& ctx) {
          std::string key;
          if (auto refused = writable(req, ctx, key)) return std::move(*refused);
          auto body = core::parse_json_object(req.body);
          if (!body) return rest_error(body.error());
          std::optional<std::string> name;
          if (body->contains("name")) {
            auto n = name_field(*body);
            if (!n) return rest_error(n.error());
            name = *n;
          }
          std::string now = now_text(app);
          json::object out;
          auto st = update_record(
              app, key, kind.not_found,
              [&](json::object& rec) -> core::Status {
                if (name) rec["name"] = *name;
                rec["updatedAt"] = now;
                return {};
              },
              out);
          if (!st.ok()) return st.error().code == kind.not_found ? not_found() : rest_error(st.error());
          return rest_ok(std::move(out));
        }));

  r.add("DELETE", path(std::string(kind.path) + "/{id}"),
        restaurant_route(app, "", [&app, kind, writable, not_found](Request& req, const CompanyContext& ctx) {
          std::string key;
          if (auto refused = writable(req, ctx, key)) return std::move(*refused);
          auto st = erase_record(app, key, kind.not_found);
          if (!st.ok()) return st.error().code == kind.not_found ? not_found() : rest_error(st.error());
          return rest_ok(json::object{{"id", std::string(req.param("id"))}, {"deleted", true}});
        }));
}

}  // namespace

void register_catalog(App& app) {
  register_catalog_kind(app, {"/categories", "category", "cat_", "category_not_found", false});
  register_catalog_kind(app, {"/vendors", "vendor", "ven_", "vendor_not_found", false});
  register_catalog_kind(app, {"/tables", "table", "tbl_", "table_not_found", true});
}

}  // namespace edge::restaurant
