// Mail: webhooks (spec document 2, "Mail: suppressions, webhooks, logs, analytics", "Events";
// spec/DECISIONS.md; docs/mail-api.md, "Webhooks"). Permission: webhooks.manage. Endpoints CRUD, each
// endpoint's delivery log, and replay of one delivery. The signing secret is in the create answer only.

#include "core/json.h"
#include "edge/app.h"
#include "edge/mail/mail_routes.h"
#include "edge/mail/webhook_worker.h"
#include "edge/mail/webhooks.h"
#include "edge/platform/envelope.h"
#include "edge/platform/paging.h"

namespace edge::mail {
namespace {

Response with_total(json::array items, std::size_t total) {
  Response r = envelope_ok(std::move(items));
  r.set_header("X-Total-Count", std::to_string(total));
  return r;
}

Response list_endpoints(App& app, Request& req, const MailContext& ctx) {
  auto paging = parse_paging(req);
  if (!paging) return envelope_error(paging.error());
  auto all = list_webhooks(app, ctx.co().id);
  if (!all) return envelope_error(all.error());
  json::array out;
  for (const auto& w : paging->apply(*all)) out.emplace_back(webhook_to_api(w));
  return with_total(std::move(out), all->size());
}

Response create(App& app, Request& req, const MailContext& ctx) {
  auto body = core::parse_json_object(req.body);
  if (!body) return envelope_error(body.error());
  auto fields = parse_webhook_fields(*body);
  if (!fields) return envelope_error(fields.error());
  auto made = create_webhook(app, ctx.co().id, *fields);
  if (!made) return envelope_error(made.error());
  json::object out = webhook_to_api(made->record);
  out["secret"] = made->secret;
  return envelope_ok(std::move(out), 201);
}

Response list_of_deliveries(App& app, Request& req, const MailContext& ctx) {
  auto paging = parse_paging(req);
  if (!paging) return envelope_error(paging.error());
  const std::string status = req.query_param("status").value_or("");
  if (!status.empty() && status != "pending" && status != "delivered" && status != "failed")
    return envelope_error(400, "query parameter 'status' must be one of pending, delivered, failed");
  auto page = list_deliveries(app, ctx.co().id, req.param("id"), status, paging->skip, paging->limit);
  if (!page) return envelope_error(page.error());
  json::array out;
  for (auto& d : page->items) out.emplace_back(std::move(d));
  return with_total(std::move(out), page->total);
}

}  // namespace

void register_webhook_routes(App& app) {
  const std::string perm = "webhooks.manage";

  add_mail_route(app, "GET", "/webhooks", perm,
                 [&app](Request& req, const MailContext& ctx) { return list_endpoints(app, req, ctx); });

  add_mail_route(app, "POST", "/webhooks", perm,
                 [&app](Request& req, const MailContext& ctx) { return create(app, req, ctx); });

  add_mail_route(app, "GET", "/webhooks/{id}", perm,
                 [&app](Request& req, const MailContext& ctx) {
                   auto w = find_webhook(app, ctx.co().id, req.param("id"));
                   if (!w) return envelope_error(w.error());
                   return envelope_ok(webhook_to_api(*w));
                 },
                 {}, {.nonblocking = true});

  add_mail_route(app, "PATCH", "/webhooks/{id}", perm, [&app](Request& req, const MailContext& ctx) {
    auto body = core::parse_json_object(req.body);
    if (!body) return envelope_error(body.error());
    auto fields = parse_webhook_fields(*body);
    if (!fields) return envelope_error(fields.error());
    auto w = update_webhook(app, ctx.co().id, req.param("id"), *fields);
    if (!w) return envelope_error(w.error());
    return envelope_ok(webhook_to_api(*w));
  });

  add_mail_route(app, "DELETE", "/webhooks/{id}", perm, [&app](Request& req, const MailContext& ctx) {
    auto st = delete_webhook(app, ctx.co().id, req.param("id"));
    if (!st.ok()) return envelope_error(st.error());
    return envelope_ok(json::object{{"id", std::string(req.param("id"))}, {"deleted", true}});
  });

  add_mail_route(app, "GET", "/webhooks/{id}/deliveries", perm,
                 [&app](Request& req, const MailContext& ctx) { return list_of_deliveries(app, req, ctx); });

  add_mail_route(app, "GET", "/webhooks/{id}/deliveries/{deliveryId}", perm,
                 [&app](Request& req, const MailContext& ctx) {
                   auto d = find_delivery(app, ctx.co().id, req.param("id"), req.param("deliveryId"));
                   if (!d) return envelope_error(d.error());
                   return envelope_ok(std::move(*d));
                 },
                 {}, {.nonblocking = true});

  add_mail_route(app, "POST", "/webhooks/{id}/deliveries/{deliveryId}/replay", perm,
                 [&app](Request& req, const MailContext& ctx) {
                   auto d = replay_delivery(app, ctx.co().id, req.param("id"), req.param("deliveryId"));
                   if (!d) return envelope_error(d.error());
                   if (app.mail_webhooks) app.mail_webhooks->wake();
                   return envelope_ok(std::move(*d));
                 });
}

}  // namespace edge::mail
