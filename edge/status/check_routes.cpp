// HTTP checks bound to a component (docs/status-api.md, "Checks"): create, list, read (with the latest
// state from the probe summary), patch, delete, and the recent probe results.

#include <algorithm>
#include <charconv>
#include <climits>

#include "core/date.h"
#include "core/id.h"
#include "core/validate.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/status/page_events.h"
#include "edge/status/status_fields.h"
#include "edge/status/status_http.h"
#include "edge/status/status_routes.h"
#include "edge/status/status_store.h"

namespace edge::status {
namespace {

namespace cs = core::status;

constexpr std::size_t kDefaultResultsLimit = 50;
constexpr std::size_t kMaxResultsLimit = 1000;

constexpr const char* kIntMembers[] = {"intervalSeconds", "expectedStatusMin", "expectedStatusMax",
                                       "timeoutMs", "degradedLatencyMs"};

// Applies the members present in `body` to `check` (types and per-field rules), then validates the
// resulting settings as a whole with the core (their codes: invalid_method, invalid_interval, ...), so a
// patch is judged together with what is stored (a timeout is checked against the stored interval).
core::Status apply_check_fields(App& app, const json::object& body, json::object& check) {
  auto name = text_field(body, "name", kMaxNameChars, false);
  if (!name) return name.error();
  if (*name) check["name"] = **name;
  if (auto* u = body.if_contains("url"); u && !u->is_null()) {
    if (!u->is_string()) return core::make_error("invalid_field", "field 'url' must be a string");
    CORE_TRY(core::validate_http_url(u->get_string()));
    check["url"] = u->get_string();
  }
  if (auto* m = body.if_contains("method"); m && !m->is_null()) {
    if (!m->is_string()) return core::make_error("invalid_field", "field 'method' must be a string");
    check["method"] = m->get_string();
  }
  for (const char* key : kIntMembers) {
    auto v = core::optional_int(body, key);
    if (!v) return v.error();
    if (*v) check[key] = **v;
  }
  if (auto* b = body.if_contains("expectedBodyContains")) {
    if (b->is_null()) {
      check["expectedBodyContains"] = nullptr;
    } else if (!b->is_string()) {
      return core::make_error("invalid_field", "field 'expectedBodyContains' must be a string or null");
    } else {
      if (b->get_string().size() > kMaxExpectedBodyChars)
        return core::make_error(
            "invalid_expected_body",
            "expectedBodyContains is at most " + std::to_string(kMaxExpectedBodyChars) + " bytes");
      check["expectedBodyContains"] = b->get_string();
    }
  }
  auto insecure = core::optional_bool(body, "insecureSkipTlsVerify");
  if (!insecure) return insecure.error();
  if (*insecure) {
    if (**insecure && !app.config.status.development_mode)
      return core::make_error("insecure_tls_not_allowed",
                              "insecureSkipTlsVerify is available in development mode only");
    check["insecureSkipTlsVerify"] = **insecure;
  }
  return cs::validate_check_settings(check_settings_of(check));
}

// The check as the dashboard shows it: its settings and its latest state (no-data before a probe).
json::object check_view(App& app, json::object check) {
  auto summary = check_summary(app, record::str(check, "id"));
  if (summary && *summary) {
    check["status"] = record::str(**summary, "status");
    check["lastLatencyMs"] = record::num(**summary, "lastLatencyMs");
    check["lastCheckedAt"] = record::str(**summary, "lastCheckedAt");
    check["consecutiveFailures"] = record::num(**summary, "consecutiveFailures");
  } else {
    check["status"] = cs::wire_name(cs::CheckStatus::no_data);
    check["lastLatencyMs"] = nullptr;
    check["lastCheckedAt"] = nullptr;
    check["consecutiveFailures"] = 0;
  }
  return check;
}

struct CheckPath {
  std::string pageId, componentId, checkId;
  json::object page;
};

// The page and component of a check route, both of the caller's company.
core::Result<CheckPath> check_path(App& app, const Request& req, const CompanyContext& ctx) {
  CheckPath p{std::string(req.param("pageId")),
              std::string(req.param("componentId")),
              std::string(req.param("checkId")),
              {}};
  auto page = load_page(app, ctx, p.pageId);
  if (!page) return page.error();
  p.page = std::move(*page);
  auto component = load_component(app, ctx, p.pageId, p.componentId);
  if (!component) return component.error();
  return p;
}

core::Result<json::object> load_check(App& app, const CompanyContext& ctx, const CheckPath& p) {
  if (!is_key_segment(p.checkId)) return core::make_error("check_not_found", "check not found");
  auto check = get_record(app, check_key(ctx.company.id, p.pageId, p.componentId, p.checkId));
  if (!check) return check.error();
  if (!*check) return core::make_error("check_not_found", "check not found");
  return std::move(**check);
}

}  // namespace

core::Result<std::vector<json::object>> list_checks(App& app, std::string_view company_id,
                                                    std::string_view page_id, std::string_view component_id) {
  auto all = list_records(app, check_prefix(company_id, page_id, component_id));
  if (!all) return all.error();
  std::stable_sort(all->begin(), all->end(), [](const json::object& a, const json::object& b) {
    return std::pair(record::str(a, "createdAt"), record::str(a, "id")) <
           std::pair(record::str(b, "createdAt"), record::str(b, "id"));
  });
  return all;
}

void register_check_routes(App& app) {
  Router& r = app.router;
  const std::string checks = "/pages/{pageId}/components/{componentId}/checks";
  r.add("POST", dashboard_path(checks),
        dashboard_route(app, "status.manage", [&app](Request& req, const CompanyContext& ctx) {
          auto p = check_path(app, req, ctx);
          if (!p) return status_error(p.error());
          auto body = core::parse_json_object(req.body);
          if (!body) return status_error(body.error());
          for (const char* required : {"name", "url"})
            if (!body->contains(required) || body->at(required).is_null())
              return status_error(422, "missing_field", "field '" + std::string(required) + "' is required");
          std::string now = core::format_timestamp(app.clock.now_ms());
          const cs::CheckSettings defaults;
          json::object check{{"id", core::make_id("chk_", app.random)},
                             {"pageId", p->pageId},
                             {"componentId", p->componentId},
                             {"name", ""},
                             {"url", ""},
                             {"method", defaults.method},
                             {"intervalSeconds", defaults.intervalSeconds},
                             {"expectedStatusMin", defaults.expectedStatusMin},
                             {"expectedStatusMax", defaults.expectedStatusMax},
                             {"expectedBodyContains", nullptr},
                             {"timeoutMs", defaults.timeoutMs},
                             {"degradedLatencyMs", defaults.degradedLatencyMs},
                             {"insecureSkipTlsVerify", false},
                             {"createdAt", now},
                             {"updatedAt", now}};
          auto st = apply_check_fields(app, *body, check);
          if (!st.ok()) return status_error(st.error());
          auto created = create_check(app, ctx.company.id, p->pageId, check);
          if (!created.ok()) return status_error(created.error());
          page_changed(app, ctx.company.id, record::str(p->page, "id"));
          app.status_probes->sync_soon();  // the worker picks the change up now, not at its next read
          return status_ok(check_view(app, std::move(check)), 201);
        }));
  r.add("GET", dashboard_path(checks),
        dashboard_route(app, "status.view", [&app](Request& req, const CompanyContext& ctx) {
          auto p = check_path(app, req, ctx);
          if (!p) return status_error(p.error());
          auto all = list_checks(app, ctx.company.id, p->pageId, p->componentId);
          if (!all) return status_error(all.error());
          for (auto& c : *all) c = check_view(app, std::move(c));
          return paged(req, *all);
        }));
  r.add("GET", dashboard_path(checks + "/{checkId}"),
        dashboard_route(app, "status.view", [&app](Request& req, const CompanyContext& ctx) {
          auto p = check_path(app, req, ctx);
          if (!p) return status_error(p.error());
          auto check = load_check(app, ctx, *p);
          if (!check) return status_error(check.error());
          return status_ok(check_view(app, std::move(*check)));
        }));
  r.add("PATCH", dashboard_path(checks + "/{checkId}"),
        dashboard_route(app, "status.manage", [&app](Request& req, const CompanyContext& ctx) {
          auto p = check_path(app, req, ctx);
          if (!p) return status_error(p.error());
          auto body = core::parse_json_object(req.body);
          if (!body) return status_error(body.error());
          if (!is_key_segment(p->checkId)) return status_error(404, "check_not_found", "check not found");
          std::string now = core::format_timestamp(app.clock.now_ms());
          json::object out;
          auto updated = update_record(
              app, check_key(ctx.company.id, p->pageId, p->componentId, p->checkId), "check_not_found",
              [&](json::object& check, store::WriteTxn&) -> core::Status {
                CORE_TRY(apply_check_fields(app, *body, check));
                check["updatedAt"] = now;
                return {};
              },
              out);
          if (!updated.ok()) return status_error(updated.error());
          page_changed(app, ctx.company.id, record::str(p->page, "id"));
          app.status_probes->sync_soon();  // the worker picks the change up now, not at its next read
          return status_ok(check_view(app, std::move(out)));
        }));
  r.add("DELETE", dashboard_path(checks + "/{checkId}"),
        dashboard_route(app, "status.manage", [&app](Request& req, const CompanyContext& ctx) {
          auto p = check_path(app, req, ctx);
          if (!p) return status_error(p.error());
          if (!is_key_segment(p->checkId)) return status_error(404, "check_not_found", "check not found");
          auto deleted = delete_check(app, ctx.company.id, p->pageId, p->componentId, p->checkId);
          if (!deleted.ok()) return status_error(deleted.error());
          page_changed(app, ctx.company.id, record::str(p->page, "id"));
          app.status_probes->sync_soon();  // the worker picks the change up now, not at its next read
          Response res;
          res.status = 204;
          return res;
        }));
  r.add("GET", dashboard_path(checks + "/{checkId}/results"),
        dashboard_route(app, "status.view", [&app](Request& req, const CompanyContext& ctx) {
          auto p = check_path(app, req, ctx);
          if (!p) return status_error(p.error());
          auto check = load_check(app, ctx, *p);
          if (!check) return status_error(check.error());
          std::size_t limit = kDefaultResultsLimit;
          if (auto text = req.query_param("limit")) {
            std::size_t n = 0;
            auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), n);
            if (ec != std::errc() || end != text->data() + text->size() || n < 1 || n > kMaxResultsLimit)
              return status_error(
                  422, "invalid_field",
                  "query parameter 'limit' must be an integer from 1 to " + std::to_string(kMaxResultsLimit));
            limit = n;
          }
          auto results = check_results(app, p->checkId, 0, limit);
          if (!results) return status_error(results.error());
          // Newest first, as a dashboard lists recent probes.
          json::array out;
          for (auto it = results->rbegin(); it != results->rend(); ++it) out.emplace_back(result_view(*it));
          return status_ok(std::move(out));
        }));
}

}  // namespace edge::status
