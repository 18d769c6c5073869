#include "edge/status/restart_routes.h"

#include <algorithm>
#include <charconv>
#include <climits>

#include "core/date.h"
#include "core/id.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/status/restart_history.h"
#include "edge/status/restart_settings.h"
#include "edge/status/restart_store.h"
#include "edge/status/restart_worker.h"
#include "edge/status/status_fields.h"
#include "edge/status/status_http.h"
#include "edge/status/status_routes.h"
#include "edge/status/status_store.h"

namespace edge::status {
namespace {

namespace cs = core::status;

constexpr std::size_t kDefaultFiringsLimit = 50;
constexpr std::size_t kMaxFiringsLimit = 1000;

core::Error target_not_found() {
  return core::make_error("restart_target_not_found", "restart target not found");
}

// The target as the dashboard shows it: no sealed member, the settings with their has* flags, and the
// firing state (failures counted towards the threshold, the last automatic firing).
json::object target_view(App& app, const json::object& target) {
  json::object out = target;
  out.erase("sealed");
  out["settings"] = stored_settings_view(target);
  auto state = get_record(app, restart_state_key(record::str(target, "id")));
  const cs::RestartState s = restart_state_of(state && *state ? **state : json::object{});
  out["consecutiveFailures"] = s.consecutiveFailures;
  out["lastFiredAt"] = s.lastFiredAtMs ? json::value(core::format_timestamp(*s.lastFiredAtMs)) : nullptr;
  return out;
}

// `checkId` must name a check of this page; checked inside the write transaction that binds it.
core::Status check_of_page(const store::ReadTxn& txn, store::Table t, std::string_view company_id,
                           std::string_view page_id, std::string_view check_id) {
  auto where =
      is_key_segment(check_id) ? record::get_object(txn, t, check_index_key(check_id)) : std::nullopt;
  if (!where || record::str(*where, "companyId") != company_id || record::str(*where, "pageId") != page_id)
    return core::make_error("invalid_check_id", "checkId must name a check of this page");
  return {};
}

int clamp_int(std::int64_t v) {
  return static_cast<int>(std::clamp<std::int64_t>(v, INT_MIN, INT_MAX));
}

// Applies the members of `body` to a new or stored target (`record_key` is where it is stored, the
// associated data of its secrets): name, checkId, threshold, cooldownSeconds, settings. The result is
// validated as a whole, so a patch is judged together with what is stored. `type` is fixed at creation.
core::Status apply_target_fields(App& app, const json::object& body, std::string_view record_key,
                                 json::object& target) {
  auto name = text_field(body, "name", kMaxNameChars, false);
  if (!name) return name.error();
  if (*name) target["name"] = **name;
  if (auto* type = body.if_contains("type"); type && !type->is_null()) {
    if (!type->is_string() || type->get_string() != record::str(target, "type"))
      return core::make_error("invalid_field", "field 'type' cannot change; create a new target instead");
  }
  if (auto* check = body.if_contains("checkId"); check && !check->is_null()) {
    if (!check->is_string()) return core::make_error("invalid_field", "field 'checkId' must be a string");
    target["checkId"] = check->get_string();
  }
  for (const char* key : {"threshold", "cooldownSeconds"}) {
    auto v = core::optional_int(body, key);
    if (!v) return v.error();
    if (*v) target[key] = clamp_int(**v);
  }
  CORE_TRY(cs::validate_restart_binding(binding_of(target)));
  auto settings = load_settings(app, record_key, target);
  if (!settings) {
    if (settings.error().code == "sealed_invalid")
      return core::make_error("internal", "the target's stored secrets cannot be opened");
    return settings.error();
  }
  if (auto* s = body.if_contains("settings"); s && !s->is_null()) {
    if (!s->is_object()) return core::make_error("invalid_field", "field 'settings' must be an object");
    CORE_TRY(apply_settings(s->get_object(), *settings));
  }
  if (auto valid = validate_settings(*settings); !valid) {
    // `invalid_body` is the status API's 400 for a request that is not a JSON object; the HTTP target's
    // body member answers 422 under a name of its own.
    if (valid.error().code == "invalid_body")
      return core::make_error("invalid_target_body", valid.error().message);
    return valid.error();
  }
  store_settings(app, record_key, *settings, target);
  return {};
}

core::Result<std::size_t> limit_param(const Request& req) {
  auto text = req.query_param("limit");
  if (!text) return kDefaultFiringsLimit;
  std::size_t n = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), n);
  if (ec != std::errc() || end != text->data() + text->size() || n < 1 || n > kMaxFiringsLimit)
    return core::make_error("invalid_field", "query parameter 'limit' must be an integer from 1 to " +
                                                 std::to_string(kMaxFiringsLimit));
  return n;
}

Response firings_response(App& app, std::string_view check_id, std::string_view target_id,
                          const Request& req) {
  auto limit = limit_param(req);
  if (!limit) return status_error(limit.error());
  auto firings = check_firings(app, check_id, target_id, *limit);
  if (!firings) return status_error(firings.error());
  json::array out;
  for (auto& f : *firings) out.emplace_back(std::move(f));
  return status_ok(std::move(out));
}

// The target `targetId` of page `pageId`, both of the caller's company.
core::Result<json::object> load_target(App& app, const Request& req, const CompanyContext& ctx) {
  const std::string page_id(req.param("pageId")), target_id(req.param("targetId"));
  auto page = load_page(app, ctx, page_id);
  if (!page) return page.error();
  if (!is_key_segment(target_id)) return target_not_found();
  auto target = get_record(app, restart_key(ctx.company.id, page_id, target_id));
  if (!target) return target.error();
  if (!*target) return target_not_found();
  return std::move(**target);
}

Response no_content() {
  Response res;
  res.status = 204;
  return res;
}

}  // namespace

void register_restart_routes(App& app) {
  Router& r = app.router;
  const std::string targets = "/pages/{pageId}/restart-targets";
  r.add("POST", dashboard_path(targets),
        dashboard_route(app, "status.manage", [&app](Request& req, const CompanyContext& ctx) {
          const std::string page_id(req.param("pageId"));
          auto page = load_page(app, ctx, page_id);
          if (!page) return status_error(page.error());
          auto body = core::parse_json_object(req.body);
          if (!body) return status_error(body.error());
          for (const char* required : {"name", "type", "checkId", "settings"})
            if (!body->contains(required) || body->at(required).is_null())
              return status_error(422, "missing_field", "field '" + std::string(required) + "' is required");
          if (!body->at("type").is_string())
            return status_error(422, "invalid_field", "field 'type' must be a string");
          auto type = cs::parse_restart_target_type(body->at("type").get_string());
          if (!type) return status_error(type.error());
          const std::string id = core::make_id("rst_", app.random);
          const std::string key = restart_key(ctx.company.id, page_id, id);
          const std::string now = core::format_timestamp(app.clock.now_ms());
          const cs::RestartBinding defaults;
          json::object target{{"id", id},
                              {"pageId", page_id},
                              {"checkId", ""},
                              {"name", ""},
                              {"type", cs::wire_name(*type)},
                              {"threshold", defaults.threshold},
                              {"cooldownSeconds", defaults.cooldownSeconds},
                              {"createdAt", now},
                              {"updatedAt", now}};
          store_settings(app, key, default_settings(*type), target);
          auto st = apply_target_fields(app, *body, key, target);
          if (!st.ok()) return status_error(st.error());
          const store::Table t = app.status_table;
          auto created = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
            if (!txn.get(t, page_key(ctx.company.id, page_id)))
              return core::make_error("page_not_found", "page not found");
            CORE_TRY(check_of_page(txn, t, ctx.company.id, page_id, record::str(target, "checkId")));
            put_target(txn, t, ctx.company.id, target, "");
            return {};
          });
          if (!created.ok()) return status_error(created.error());
          return status_ok(target_view(app, target), 201);
        }));
  r.add("GET", dashboard_path(targets),
        dashboard_route(app, "status.view", [&app](Request& req, const CompanyContext& ctx) {
          const std::string page_id(req.param("pageId"));
          auto page = load_page(app, ctx, page_id);
          if (!page) return status_error(page.error());
          auto all = list_records(app, restart_prefix(ctx.company.id, page_id));
          if (!all) return status_error(all.error());
          if (auto check = req.query_param("checkId"))
            std::erase_if(*all, [&](const json::object& t) { return record::str(t, "checkId") != *check; });
          std::stable_sort(all->begin(), all->end(), [](const json::object& a, const json::object& b) {
            return std::pair(record::str(a, "createdAt"), record::str(a, "id")) <
                   std::pair(record::str(b, "createdAt"), record::str(b, "id"));
          });
          for (auto& t : *all) t = target_view(app, t);
          return paged(req, *all);
        }));
  r.add("GET", dashboard_path(targets + "/{targetId}"),
        dashboard_route(app, "status.view", [&app](Request& req, const CompanyContext& ctx) {
          auto target = load_target(app, req, ctx);
          if (!target) return status_error(target.error());
          return status_ok(target_view(app, *target));
        }));
  r.add("PATCH", dashboard_path(targets + "/{targetId}"),
        dashboard_route(app, "status.manage", [&app](Request& req, const CompanyContext& ctx) {
          const std::string page_id(req.param("pageId")), target_id(req.param("targetId"));
          auto page = load_page(app, ctx, page_id);
          if (!page) return status_error(page.error());
          auto body = core::parse_json_object(req.body);
          if (!body) return status_error(body.error());
          if (!is_key_segment(target_id)) return status_error(target_not_found());
          const std::string key = restart_key(ctx.company.id, page_id, target_id);
          const std::string now = core::format_timestamp(app.clock.now_ms());
          const store::Table t = app.status_table;
          json::object out;
          auto updated = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
            auto target = record::get_object(txn, t, key);
            if (!target) return target_not_found();
            const std::string previous_check = record::str(*target, "checkId");
            CORE_TRY(apply_target_fields(app, *body, key, *target));
            if (record::str(*target, "checkId") != previous_check)
              CORE_TRY(check_of_page(txn, t, ctx.company.id, page_id, record::str(*target, "checkId")));
            (*target)["updatedAt"] = now;
            put_target(txn, t, ctx.company.id, *target, previous_check);
            out = std::move(*target);
            return {};
          });
          if (!updated.ok()) return status_error(updated.error());
          return status_ok(target_view(app, out));
        }));
  r.add("DELETE", dashboard_path(targets + "/{targetId}"),
        dashboard_route(app, "status.manage", [&app](Request& req, const CompanyContext& ctx) {
          const std::string page_id(req.param("pageId")), target_id(req.param("targetId"));
          auto page = load_page(app, ctx, page_id);
          if (!page) return status_error(page.error());
          if (!is_key_segment(target_id)) return status_error(target_not_found());
          const store::Table t = app.status_table;
          auto deleted = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
            auto target = record::get_object(txn, t, restart_key(ctx.company.id, page_id, target_id));
            if (!target) return target_not_found();
            erase_target(txn, t, ctx.company.id, *target);
            return {};
          });
          if (!deleted.ok()) return status_error(deleted.error());
          return no_content();
        }));
  // The manual test fire (spec: HTTP targets only). It runs while the request waits, bounded by the
  // target's timeout, and is recorded in the check's history with `manual: true`; it leaves the target's
  // threshold count and cooldown alone.
  r.add("POST", dashboard_path(targets + "/{targetId}/test"),
        dashboard_route(app, "status.manage", [&app](Request& req, const CompanyContext& ctx) {
          auto target = load_target(app, req, ctx);
          if (!target) return status_error(target.error());
          if (record::str(*target, "type") != cs::wire_name(cs::RestartTargetType::http))
            return status_error(422, "test_fire_not_supported", "only HTTP targets have a test fire");
          RestartWorker& worker = *app.status_restarts;
          if (!worker.begin_manual())
            return status_error(429, "rate_limited", "too many test fires at once; try again shortly");
          const std::string key =
              restart_key(ctx.company.id, record::str(*target, "pageId"), record::str(*target, "id"));
          const store::Table t = app.status_table;
          RestartJob job;
          auto recorded = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
            auto current = record::get_object(txn, t, key);
            if (!current) return target_not_found();
            job = put_pending_firing(app, txn, ctx.company.id, *current, app.clock.now_ms(), true,
                                     std::nullopt);
            return {};
          });
          core::Result<std::optional<json::object>> fired =
              recorded.ok() ? execute_firing(app, job)
                            : core::Result<std::optional<json::object>>(recorded.error());
          worker.end_manual();
          if (!fired) return status_error(fired.error());
          if (!*fired) return status_error(target_not_found());  // its check was deleted meanwhile
          return status_ok(firing_view(**fired));
        }));
  r.add("GET", dashboard_path(targets + "/{targetId}/firings"),
        dashboard_route(app, "status.view", [&app](Request& req, const CompanyContext& ctx) {
          auto target = load_target(app, req, ctx);
          if (!target) return status_error(target.error());
          return firings_response(app, record::str(*target, "checkId"), record::str(*target, "id"), req);
        }));
  r.add("GET", dashboard_path("/pages/{pageId}/components/{componentId}/checks/{checkId}/firings"),
        dashboard_route(app, "status.view", [&app](Request& req, const CompanyContext& ctx) {
          const std::string page_id(req.param("pageId")), component_id(req.param("componentId")),
              check_id(req.param("checkId"));
          auto component = load_component(app, ctx, page_id, component_id);
          if (!component) return status_error(component.error());
          if (!is_key_segment(check_id)) return status_error(404, "check_not_found", "check not found");
          auto check = get_record(app, check_key(ctx.company.id, page_id, component_id, check_id));
          if (!check) return status_error(check.error());
          if (!*check) return status_error(404, "check_not_found", "check not found");
          return firings_response(app, check_id, "", req);
        }));
}

}  // namespace edge::status
