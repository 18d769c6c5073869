// Maintenance windows of a status page (docs/status-incidents.md, "Maintenance windows"): schedule, list,
// read, patch while scheduled, "Start now", "Mark complete" and cancel before the start. Every state rule
// is core/status/maintenance.h; every notification is written by advance_maintenance in the transaction of
// the change.

#include <algorithm>
#include <tuple>

#include "core/date.h"
#include "core/id.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/status/incident_store.h"
#include "edge/status/maintenance_store.h"
#include "edge/status/page_events.h"
#include "edge/status/status_events.h"
#include "edge/status/status_http.h"
#include "edge/status/status_routes.h"
#include "edge/status/status_store.h"

namespace edge::status {
namespace {

namespace cs = core::status;

core::Result<std::optional<std::int64_t>> time_field(const json::object& body, std::string_view key,
                                                     bool required) {
  const std::string name(key);
  auto* v = body.if_contains(key);
  if (!v || v->is_null()) {
    if (required) return core::make_error("missing_field", "field '" + name + "' is required");
    return std::optional<std::int64_t>();
  }
  if (!v->is_string())
    return core::make_error("invalid_field", "field '" + name + "' must be an ISO 8601 timestamp string");
  auto ms = core::parse_timestamp(v->get_string());
  if (!ms) return core::make_error("invalid_field", "field '" + name + "' must be an ISO 8601 timestamp");
  return std::optional<std::int64_t>(*ms);
}

// The members of `body` a window takes, each validated on its own (the components against the page, read
// outside any write transaction): what to set on the record.
core::Result<json::object> window_patch(App& app, const json::object& body, std::string_view company_id,
                                        std::string_view page_id, bool creating) {
  json::object patch;
  auto title = localized_field(body, "title", kMaxTitleChars, creating);
  if (!title) return title.error();
  if (*title) patch["title"] = **title;
  if (auto* d = body.if_contains("description"); d && d->is_null()) {
    patch["description"] = nullptr;
  } else {
    auto description = localized_field(body, "description", kMaxBodyChars, false);
    if (!description) return description.error();
    if (*description) patch["description"] = **description;
  }
  auto start = time_field(body, "scheduledStart", creating);
  if (!start) return start.error();
  if (*start) patch["scheduledStart"] = core::format_timestamp(**start);
  auto end = time_field(body, "end", creating);
  if (!end) return end.error();
  if (*end) patch["end"] = core::format_timestamp(**end);
  auto components = affected_components_field(app, body, company_id, page_id, false);
  if (!components) return components.error();
  if (*components) patch["affectedComponentIds"] = record::array_of(**components);
  return patch;
}

// Sets `patch` on `rec` and validates the resulting schedule: the end after the start (core), and not
// already past (a window over when saved would owe nothing but noise). A new start owes a new reminder.
core::Status apply_window_patch(json::object& rec, const json::object& patch, std::int64_t now_ms) {
  if (auto* start = patch.if_contains("scheduledStart"); start && *start != rec["scheduledStart"])
    rec["reminderSent"] = false;
  for (auto& [k, v] : patch) rec[k] = v;
  const cs::MaintenanceWindow w = window_of(rec);
  CORE_TRY(cs::validate_maintenance_schedule(w.scheduledStartMs, w.endMs));
  if (w.endMs <= now_ms) return core::make_error("invalid_maintenance_end", "the end must be in the future");
  return {};
}

core::Result<std::string> window_path_key(const CompanyContext& ctx, std::string_view page_id,
                                          std::string_view window_id) {
  if (!is_key_segment(window_id))
    return core::make_error("maintenance_not_found", "maintenance window not found");
  return maintenance_key(ctx.company.id, page_id, window_id);
}

using Action = core::Result<cs::MaintenanceWindow> (*)(const cs::MaintenanceWindow&, std::int64_t);

// "Start now", "Mark complete", cancel: the core decides whether the action applies at now; the member it
// sets is stored, and the notifications it makes due are written with it.
Handler action_route(App& app, Action action, const char* member) {
  return dashboard_route(app, "status.manage",
                         [&app, action, member](Request& req, const CompanyContext& ctx) {
                           std::string page_id(req.param("pageId"));
                           auto page = load_page(app, ctx, page_id);
                           if (!page) return status_error(page.error());
                           auto key = window_path_key(ctx, page_id, req.param("maintenanceId"));
                           if (!key) return status_error(key.error());
                           const std::int64_t now = app.clock.now_ms();
                           json::object out;
                           bool notified = false;
                           auto stored = update_record(
                               app, *key, "maintenance_not_found",
                               [&](json::object& rec, store::WriteTxn& txn) -> core::Status {
                                 auto next = action(window_of(rec), now);
                                 if (!next) return next.error();
                                 rec[member] = core::format_timestamp(now);
                                 rec["updatedAt"] = core::format_timestamp(now);
                                 notified = advance_maintenance(app, txn, ctx.company.id, rec, now);
                                 return {};
                               },
                               out);
                           if (!stored.ok()) return status_error(stored.error());
                           if (notified) events_committed(app);
                           page_changed(app, ctx.company.id, page_id);
                           return status_ok(maintenance_view(out, now));
                         });
}

}  // namespace

void register_maintenance_routes(App& app) {
  Router& r = app.router;
  r.add("POST", dashboard_path("/pages/{pageId}/maintenances"),
        dashboard_route(app, "status.manage", [&app](Request& req, const CompanyContext& ctx) {
          std::string page_id(req.param("pageId"));
          auto page = load_page(app, ctx, page_id);
          if (!page) return status_error(page.error());
          auto body = core::parse_json_object(req.body);
          if (!body) return status_error(body.error());
          const std::int64_t now = app.clock.now_ms();
          const std::string now_text = core::format_timestamp(now);
          json::object rec{{"id", core::make_id("mnt_", app.random)},
                           {"pageId", page_id},
                           {"description", nullptr},
                           {"affectedComponentIds", json::array{}},
                           {"manualStartAt", nullptr},
                           {"manualCompleteAt", nullptr},
                           {"cancelledAt", nullptr},
                           {"reminderSent", false},
                           {"startedSent", false},
                           {"completedSent", false},
                           {"createdAt", now_text},
                           {"updatedAt", now_text}};
          auto patch = window_patch(app, *body, ctx.company.id, page_id, true);
          if (!patch) return status_error(patch.error());
          auto valid = apply_window_patch(rec, *patch, now);
          if (!valid.ok()) return status_error(valid.error());
          auto stored = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
            if (!txn.get(app.status_table, page_key(ctx.company.id, page_id)))
              return core::make_error("page_not_found", "page not found");
            json::object window = rec;
            enqueue_maintenance_scheduled(app, txn, ctx.company.id, window, now);
            // A start already past begins now; its maintenance.started follows maintenance.scheduled.
            advance_maintenance(app, txn, ctx.company.id, window, now, now + 1);
            record::put_object(txn, app.status_table,
                               maintenance_key(ctx.company.id, page_id, record::str(window, "id")), window);
            rec = std::move(window);
            return {};
          });
          if (!stored.ok()) return status_error(stored.error());
          events_committed(app);
          page_changed(app, ctx.company.id, page_id);
          return status_ok(maintenance_view(rec, now), 201);
        }));
  r.add("GET", dashboard_path("/pages/{pageId}/maintenances"),
        dashboard_route(app, "status.view", [&app](Request& req, const CompanyContext& ctx) {
          std::string page_id(req.param("pageId"));
          auto page = load_page(app, ctx, page_id);
          if (!page) return status_error(page.error());
          auto filter = req.query_param("status");
          if (filter && *filter != "scheduled" && *filter != "in_progress" && *filter != "completed" &&
              *filter != "cancelled")
            return status_error(422, "invalid_field",
                                "status must be scheduled, in_progress, completed or cancelled");
          auto all = list_records(app, maintenance_prefix(ctx.company.id, page_id));
          if (!all) return status_error(all.error());
          const std::int64_t now = app.clock.now_ms();
          std::vector<json::object> views;
          for (auto& rec : *all) {
            json::object view = maintenance_view(rec, now);
            if (!filter || record::str(view, "status") == *filter) views.push_back(std::move(view));
          }
          // Newest scheduledStart first, then id.
          std::stable_sort(views.begin(), views.end(), [](const json::object& a, const json::object& b) {
            return std::tuple(record::str(a, "scheduledStart"), record::str(a, "id")) >
                   std::tuple(record::str(b, "scheduledStart"), record::str(b, "id"));
          });
          return paged(req, views);
        }));
  r.add("GET", dashboard_path("/pages/{pageId}/maintenances/{maintenanceId}"),
        dashboard_route(app, "status.view", [&app](Request& req, const CompanyContext& ctx) {
          std::string page_id(req.param("pageId"));
          auto page = load_page(app, ctx, page_id);
          if (!page) return status_error(page.error());
          auto key = window_path_key(ctx, page_id, req.param("maintenanceId"));
          if (!key) return status_error(key.error());
          auto rec = get_record(app, *key);
          if (!rec) return status_error(rec.error());
          if (!*rec) return status_error(404, "maintenance_not_found", "maintenance window not found");
          return status_ok(maintenance_view(**rec, app.clock.now_ms()));
        }));
  r.add("PATCH", dashboard_path("/pages/{pageId}/maintenances/{maintenanceId}"),
        dashboard_route(app, "status.manage", [&app](Request& req, const CompanyContext& ctx) {
          std::string page_id(req.param("pageId"));
          auto page = load_page(app, ctx, page_id);
          if (!page) return status_error(page.error());
          auto key = window_path_key(ctx, page_id, req.param("maintenanceId"));
          if (!key) return status_error(key.error());
          auto body = core::parse_json_object(req.body);
          if (!body) return status_error(body.error());
          auto patch = window_patch(app, *body, ctx.company.id, page_id, false);
          if (!patch) return status_error(patch.error());
          const std::int64_t now = app.clock.now_ms();
          json::object out;
          bool notified = false;
          auto stored = update_record(
              app, *key, "maintenance_not_found",
              [&](json::object& rec, store::WriteTxn& txn) -> core::Status {
                if (cs::maintenance_state(window_of(rec), now) != cs::MaintenanceState::scheduled)
                  return core::make_error("maintenance_not_scheduled",
                                          "only a scheduled maintenance window can be changed");
                CORE_TRY(apply_window_patch(rec, *patch, now));
                rec["updatedAt"] = core::format_timestamp(now);
                notified = advance_maintenance(app, txn, ctx.company.id, rec, now);
                return {};
              },
              out);
          if (!stored.ok()) return status_error(stored.error());
          if (notified) events_committed(app);
          page_changed(app, ctx.company.id, page_id);
          return status_ok(maintenance_view(out, now));
        }));
  r.add("POST", dashboard_path("/pages/{pageId}/maintenances/{maintenanceId}/start"),
        action_route(app, &cs::start_maintenance, "manualStartAt"));
  r.add("POST", dashboard_path("/pages/{pageId}/maintenances/{maintenanceId}/complete"),
        action_route(app, &cs::complete_maintenance, "manualCompleteAt"));
  r.add("POST", dashboard_path("/pages/{pageId}/maintenances/{maintenanceId}/cancel"),
        action_route(app, &cs::cancel_maintenance, "cancelledAt"));
}

}  // namespace edge::status
