// Incidents of a status page (docs/status-incidents.md): create with the first update, list (active or
// resolved), read, add timeline updates, patch the title, impact and components, delete. Every update
// writes its notification into the outbox in the same transaction.

#include <algorithm>

#include "core/date.h"
#include "core/status/statuspage_summary.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/status/incident_store.h"
#include "edge/status/page_events.h"
#include "edge/status/status_events.h"
#include "edge/status/status_http.h"
#include "edge/status/status_routes.h"
#include "edge/status/status_store.h"

namespace edge::status {
namespace {

namespace cs = core::status;

core::Result<std::optional<std::string>> impact_field(const json::object& body, bool required) {
  auto* v = body.if_contains("impact");
  if (!v || v->is_null()) {
    if (required) return core::make_error("missing_field", "field 'impact' is required");
    return std::optional<std::string>();
  }
  if (!v->is_string()) return core::make_error("invalid_field", "field 'impact' must be a string");
  auto impact = cs::parse_incident_impact(v->get_string());
  if (!impact || *impact == cs::StatuspageIndicator::none)
    return core::make_error("invalid_impact", "impact must be one of minor, major, critical");
  return std::optional<std::string>(std::string(v->get_string()));
}

// The update members {status, body}: `status` with `fallback` when absent, `body` {tr, en} required.
struct UpdateInput {
  cs::IncidentStatus status;
  json::object body;
};
core::Result<UpdateInput> update_fields(const json::object& body,
                                        std::optional<cs::IncidentStatus> fallback) {
  UpdateInput in{cs::IncidentStatus::investigating, {}};
  auto* s = body.if_contains("status");
  if (!s || s->is_null()) {
    if (!fallback) return core::make_error("missing_field", "field 'status' is required");
    in.status = *fallback;
  } else {
    if (!s->is_string()) return core::make_error("invalid_field", "field 'status' must be a string");
    auto parsed = cs::parse_incident_status(s->get_string());
    if (!parsed) return parsed.error();
    in.status = *parsed;
  }
  auto text = localized_field(body, "body", kMaxBodyChars, true);
  if (!text) return text.error();
  in.body = std::move(**text);
  return in;
}

core::Result<std::vector<json::object>> page_incidents(App& app, std::string_view company_id,
                                                       std::string_view page_id) {
  auto all = list_records(app, incident_prefix(company_id, page_id));
  if (!all) return all.error();
  // Newest first: startedAt, then creation, then id (ISO timestamps of one format sort as text).
  std::stable_sort(all->begin(), all->end(), [](const json::object& a, const json::object& b) {
    return std::tuple(record::str(a, "startedAt"), record::str(a, "createdAt"), record::str(a, "id")) >
           std::tuple(record::str(b, "startedAt"), record::str(b, "createdAt"), record::str(b, "id"));
  });
  return all;
}

Response no_content() {
  Response r;
  r.status = 204;
  return r;
}

// The incident path parameter as a key, `incident_not_found` when it cannot name one.
core::Result<std::string> incident_path_key(const CompanyContext& ctx, std::string_view page_id,
                                            std::string_view incident_id) {
  if (!is_key_segment(incident_id)) return core::make_error("incident_not_found", "incident not found");
  return incident_key(ctx.company.id, page_id, incident_id);
}

}  // namespace

void register_incident_routes(App& app) {
  Router& r = app.router;
  r.add("POST", dashboard_path("/pages/{pageId}/incidents"),
        dashboard_route(app, "status.manage", [&app](Request& req, const CompanyContext& ctx) {
          std::string page_id(req.param("pageId"));
          auto page = load_page(app, ctx, page_id);
          if (!page) return status_error(page.error());
          auto body = core::parse_json_object(req.body);
          if (!body) return status_error(body.error());
          auto title = localized_field(*body, "title", kMaxTitleChars, true);
          if (!title) return status_error(title.error());
          auto impact = impact_field(*body, true);
          if (!impact) return status_error(impact.error());
          auto components = affected_components_field(app, *body, ctx.company.id, page_id, false);
          if (!components) return status_error(components.error());
          auto update = update_fields(*body, cs::IncidentStatus::investigating);
          if (!update) return status_error(update.error());
          if (update->status == cs::IncidentStatus::resolved)
            return status_error(422, "invalid_incident_status",
                                "a new incident starts investigating, identified or monitoring");
          const std::int64_t now = app.clock.now_ms();
          json::object incident =
              new_incident(app, page_id, **title, **impact, components->value_or(std::vector<std::string>{}),
                           "manual", now, now);
          auto stored = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
            json::object rec = incident;
            auto added = add_incident_update(app, rec, update->status, update->body, now);
            if (!added) return added.error();
            // The page may have been deleted since it was read.
            if (!txn.get(app.status_table, page_key(ctx.company.id, page_id)))
              return core::make_error("page_not_found", "page not found");
            record::put_object(txn, app.status_table,
                               incident_key(ctx.company.id, page_id, record::str(rec, "id")), rec);
            enqueue_incident_event(app, txn, ctx.company.id, rec, *added);
            incident = std::move(rec);
            return {};
          });
          if (!stored.ok()) return status_error(stored.error());
          events_committed(app);
          page_changed(app, ctx.company.id, page_id);
          return status_ok(std::move(incident), 201);
        }));
  r.add("GET", dashboard_path("/pages/{pageId}/incidents"),
        dashboard_route(app, "status.view", [&app](Request& req, const CompanyContext& ctx) {
          std::string page_id(req.param("pageId"));
          auto page = load_page(app, ctx, page_id);
          if (!page) return status_error(page.error());
          auto state = req.query_param("state");
          if (state && *state != "active" && *state != "resolved")
            return status_error(422, "invalid_field", "state must be active or resolved");
          auto all = page_incidents(app, ctx.company.id, page_id);
          if (!all) return status_error(all.error());
          if (state) {
            const bool want_resolved = *state == "resolved";
            std::erase_if(*all, [&](const json::object& i) {
              return (incident_status(i) == cs::IncidentStatus::resolved) != want_resolved;
            });
          }
          return paged(req, *all);
        }));
  r.add("GET", dashboard_path("/pages/{pageId}/incidents/{incidentId}"),
        dashboard_route(app, "status.view", [&app](Request& req, const CompanyContext& ctx) {
          std::string page_id(req.param("pageId"));
          auto page = load_page(app, ctx, page_id);
          if (!page) return status_error(page.error());
          auto key = incident_path_key(ctx, page_id, req.param("incidentId"));
          if (!key) return status_error(key.error());
          auto incident = get_record(app, *key);
          if (!incident) return status_error(incident.error());
          if (!*incident) return status_error(404, "incident_not_found", "incident not found");
          return status_ok(std::move(**incident));
        }));
  r.add("POST", dashboard_path("/pages/{pageId}/incidents/{incidentId}/updates"),
        dashboard_route(app, "status.manage", [&app](Request& req, const CompanyContext& ctx) {
          std::string page_id(req.param("pageId"));
          auto page = load_page(app, ctx, page_id);
          if (!page) return status_error(page.error());
          auto key = incident_path_key(ctx, page_id, req.param("incidentId"));
          if (!key) return status_error(key.error());
          auto body = core::parse_json_object(req.body);
          if (!body) return status_error(body.error());
          auto update = update_fields(*body, std::nullopt);
          if (!update) return status_error(update.error());
          const std::int64_t now = app.clock.now_ms();
          json::object out;
          auto stored = update_record(
              app, *key, "incident_not_found",
              [&](json::object& incident, store::WriteTxn& txn) -> core::Status {
                auto added = add_incident_update(app, incident, update->status, update->body, now);
                if (!added) return added.error();
                enqueue_incident_event(app, txn, ctx.company.id, incident, *added);
                if (update->status == cs::IncidentStatus::resolved)
                  release_auto_incident(app, txn, ctx.company.id, incident);
                return {};
              },
              out);
          if (!stored.ok()) return status_error(stored.error());
          events_committed(app);
          page_changed(app, ctx.company.id, page_id);
          return status_ok(std::move(out), 201);
        }));
  r.add("PATCH", dashboard_path("/pages/{pageId}/incidents/{incidentId}"),
        dashboard_route(app, "status.manage", [&app](Request& req, const CompanyContext& ctx) {
          std::string page_id(req.param("pageId"));
          auto page = load_page(app, ctx, page_id);
          if (!page) return status_error(page.error());
          auto key = incident_path_key(ctx, page_id, req.param("incidentId"));
          if (!key) return status_error(key.error());
          auto body = core::parse_json_object(req.body);
          if (!body) return status_error(body.error());
          auto title = localized_field(*body, "title", kMaxTitleChars, false);
          if (!title) return status_error(title.error());
          auto impact = impact_field(*body, false);
          if (!impact) return status_error(impact.error());
          auto components = affected_components_field(app, *body, ctx.company.id, page_id, false);
          if (!components) return status_error(components.error());
          const std::string now = core::format_timestamp(app.clock.now_ms());
          json::object out;
          auto stored = update_record(
              app, *key, "incident_not_found",
              [&](json::object& incident, store::WriteTxn&) -> core::Status {
                if (*title) incident["title"] = **title;
                if (*impact) incident["impact"] = **impact;
                if (*components) incident["affectedComponentIds"] = record::array_of(**components);
                incident["updatedAt"] = now;
                return {};
              },
              out);
          if (!stored.ok()) return status_error(stored.error());
          page_changed(app, ctx.company.id, page_id);
          return status_ok(std::move(out));
        }));
  r.add("DELETE", dashboard_path("/pages/{pageId}/incidents/{incidentId}"),
        dashboard_route(app, "status.manage", [&app](Request& req, const CompanyContext& ctx) {
          std::string page_id(req.param("pageId"));
          auto page = load_page(app, ctx, page_id);
          if (!page) return status_error(page.error());
          auto key = incident_path_key(ctx, page_id, req.param("incidentId"));
          if (!key) return status_error(key.error());
          auto deleted = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
            auto incident = record::get_object(txn, app.status_table, *key);
            if (!incident) return core::make_error("incident_not_found", "incident not found");
            release_auto_incident(app, txn, ctx.company.id, *incident);
            txn.erase(app.status_table, *key);
            return {};
          });
          if (!deleted.ok()) return status_error(deleted.error());
          page_changed(app, ctx.company.id, page_id);
          return no_content();
        }));
}

}  // namespace edge::status
