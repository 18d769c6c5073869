// Subscribing to a status page (docs/status-subscribers.md): the public
// POST {status_url}/api/v1/status/{slug}/subscribe, and the dashboard's list, delete and delivery log under
// .../pages/{pageId}/subscribers.

#include "edge/status/subscriber_routes.h"

#include <algorithm>

#include "core/date.h"
#include "core/id.h"
#include "core/validate.h"
#include "edge/app.h"
#include "edge/pages/lang.h"
#include "edge/platform/client_address.h"
#include "edge/platform/record_json.h"
#include "edge/status/delivery_channels.h"
#include "edge/status/status_http.h"
#include "edge/status/status_routes.h"
#include "edge/status/status_store.h"
#include "edge/status/subscriber_texts.h"
#include "edge/status/subscribers.h"
#include "edge/status/telegram_client.h"

namespace edge::status {
namespace {

Response cors(Response r) {
  r.set_header("Access-Control-Allow-Origin", "*");
  r.set_header("Cache-Control", "no-store");
  return r;
}

Response fail(std::string_view code, std::string_view message) {
  return cors(status_error(status_http_status(code), code, message));
}

Response fail(const core::Error& e) {
  return cors(status_error(e));
}

core::Result<std::string> required_string(const json::object& body, std::string_view key) {
  const auto* v = body.if_contains(key);
  if (!v || v->is_null())
    return core::make_error("missing_field", "field '" + std::string(key) + "' is required");
  if (!v->is_string())
    return core::make_error("invalid_field", "field '" + std::string(key) + "' must be a string");
  return std::string(v->get_string());
}

Response subscribe(App& app, Request& req) {
  const std::string client = client_address(req, app.config.trusted_proxies);
  if (auto d = app.status_subscribe_limiter.take(client, app.clock.now_ms()); !d.allowed) {
    Response r = fail("rate_limited", "too many subscriptions from this address; retry after " +
                                          std::to_string(d.retry_after_seconds) + " s");
    r.set_header("Retry-After", std::to_string(d.retry_after_seconds));
    return r;
  }
  std::string slug(req.param("slug"));
  if (!is_key_segment(slug)) return fail("page_not_found", "no status page has this slug");
  auto page = page_by_slug(app, slug);
  if (!page) return fail(page.error());
  if (!record::boolean(page->page, "subscribersEnabled"))
    return cors(status_error(403, "subscribers_disabled", "this page does not take subscribers"));
  const std::string page_id = record::str(page->page, "id");

  auto body = core::parse_json_object(req.body);
  if (!body) return fail(body.error());
  auto type = required_string(*body, "type");
  if (!type) return fail(type.error());
  if (*type != "webhook" && *type != "email" && *type != "telegram")
    return fail("invalid_type", "type must be one of webhook, email, telegram");

  Lang lang = pick_lang("", req.header("accept-language"));
  if (const auto* l = body->if_contains("lang"); l && !l->is_null()) {
    if (!l->is_string() || (l->get_string() != "tr" && l->get_string() != "en"))
      return fail("invalid_field", "field 'lang' must be tr or en");
    lang = lang_from_code(l->get_string());
  }
  auto filters = parse_filters(app, page->companyId, page_id, body->if_contains("topic"),
                               body->if_contains("componentIds"));
  if (!filters) return fail(filters.error());

  const std::string now = core::format_timestamp(app.clock.now_ms());
  NewSubscriber n;
  const std::string id = core::make_id("sub_", app.random);
  n.managementToken = make_management_token(app);
  n.record = json::object{{"id", id},
                          {"pageId", page_id},
                          {"type", *type},
                          {"status", "verified"},
                          {"topic", filters->topic},
                          {"componentIds", record::array_of(filters->componentIds)},
                          {"lang", lang_code(lang)},
                          {"createdAt", now},
                          {"updatedAt", now},
                          {"verifiedAt", now}};
  if (*type == "webhook") {
    auto url = required_string(*body, "webhookUrl");
    if (!url) return fail(url.error());
    if (auto st = core::validate_http_url(*url); !st.ok()) return fail(st.error());
    n.record["webhookUrl"] = *url;
  } else if (*type == "email") {
    auto email = required_string(*body, "email");
    if (!email) return fail(email.error());
    if (auto st = core::validate_email(*email); !st.ok()) return fail(st.error());
    if (!status_mail_configured(app))
      return fail("channel_unavailable", "this deployment does not send status mail");
    n.record["email"] = *email;
    n.record["status"] = "pending";
    n.record["verifiedAt"] = nullptr;
    n.confirmToken = make_management_token(app);
  } else {
    std::string chat_id;
    if (const auto* c = body->if_contains("chatId"); c && c->is_int64())
      chat_id = std::to_string(c->get_int64());
    else if (c && c->is_string())
      chat_id = std::string(c->get_string());
    else if (!c || c->is_null())
      return fail("missing_field", "field 'chatId' is required");
    if (!is_chat_id(chat_id))
      return fail("invalid_field", "field 'chatId' must be a chat id (an integer or @channel)");
    auto bot = required_string(*body, "botToken");
    if (!bot) return fail(bot.error());
    if (!is_bot_token(*bot)) return fail("invalid_field", "field 'botToken' is not a Telegram bot token");
    n.record["chatId"] = chat_id;
    n.botToken = *bot;
    // The confirmation message is the verification: a chat the bot cannot write to is refused at once.
    std::string page_name = record::str(page->page, "name");
    std::string text(subscriber_texts(lang).telegram_confirmation);
    text.replace(text.find("{page}"), 6, page_name);
    auto sent = telegram_send_message(app.config.status.telegram_api_base, *bot, chat_id, text,
                                      std::chrono::milliseconds(app.config.status.delivery_timeout_ms));
    if (!sent.ok) {
      if (sent.status == 0) return cors(status_error(502, "telegram_unreachable", sent.error));
      return fail("telegram_refused", sent.error);
    }
  }
  auto created = create_subscriber(app, page->companyId, n);
  if (!created.ok()) return fail(created.error());
  if (!n.confirmToken.empty() && app.status_subscribers) app.status_subscribers->wake();
  return cors(status_ok(json::object{{"id", id},
                                     {"type", *type},
                                     {"status", n.record["status"]},
                                     {"topic", filters->topic},
                                     {"componentIds", record::array_of(filters->componentIds)},
                                     {"managementToken", n.managementToken},
                                     {"webhookSecret", n.managementToken}},
                        201));
}

core::Result<std::vector<json::object>> page_subscribers(App& app, const CompanyContext& ctx,
                                                         std::string_view page_id) {
  auto page = load_page(app, ctx, page_id);
  if (!page) return page.error();
  auto all = list_records(app, subscriber_prefix(ctx.company.id, page_id));
  if (!all) return all.error();
  std::stable_sort(all->begin(), all->end(), [](const json::object& a, const json::object& b) {
    return std::pair(record::str(a, "createdAt"), record::str(a, "id")) <
           std::pair(record::str(b, "createdAt"), record::str(b, "id"));
  });
  return all;
}

}  // namespace

void register_subscriber_routes(App& app) {
  Router& r = app.router;
  r.add("POST", "/api/v1/status/{slug}/subscribe", [&app](Request& req) { return subscribe(app, req); });
  // The CORS preflight of a browser's JSON POST from any origin.
  r.add("OPTIONS", "/api/v1/status/{slug}/subscribe", [](Request&) {
    Response res;
    res.status = 204;
    res.set_header("Access-Control-Allow-Origin", "*");
    res.set_header("Access-Control-Allow-Methods", "POST, OPTIONS");
    res.set_header("Access-Control-Allow-Headers", "Content-Type");
    res.set_header("Access-Control-Max-Age", "86400");
    return res;
  });

  r.add("GET", dashboard_path("/pages/{pageId}/subscribers"),
        dashboard_route(app, "status.view", [&app](Request& req, const CompanyContext& ctx) {
          auto all = page_subscribers(app, ctx, req.param("pageId"));
          if (!all) return status_error(all.error());
          std::vector<json::object> views;
          for (const auto& s : *all) views.push_back(subscriber_view(s));
          return paged(req, views);
        }));
  r.add("DELETE", dashboard_path("/pages/{pageId}/subscribers/{subscriberId}"),
        dashboard_route(app, "status.manage", [&app](Request& req, const CompanyContext& ctx) {
          auto page = load_page(app, ctx, req.param("pageId"));
          if (!page) return status_error(page.error());
          std::string id(req.param("subscriberId"));
          if (!is_key_segment(id)) return status_error(404, "subscriber_not_found", "subscriber not found");
          auto deleted = delete_subscriber(app, ctx.company.id, req.param("pageId"), id);
          if (!deleted.ok()) return status_error(deleted.error());
          Response res;
          res.status = 204;
          return res;
        }));
  r.add("GET", dashboard_path("/pages/{pageId}/subscribers/{subscriberId}/deliveries"),
        dashboard_route(app, "status.view", [&app](Request& req, const CompanyContext& ctx) {
          auto page = load_page(app, ctx, req.param("pageId"));
          if (!page) return status_error(page.error());
          std::string page_id(req.param("pageId")), id(req.param("subscriberId"));
          if (!is_key_segment(id)) return status_error(404, "subscriber_not_found", "subscriber not found");
          auto sub = get_record(app, subscriber_key(ctx.company.id, page_id, id));
          if (!sub) return status_error(sub.error());
          if (!*sub) return status_error(404, "subscriber_not_found", "subscriber not found");
          auto all = list_records(app, delivery_prefix(ctx.company.id, page_id, id));
          if (!all) return status_error(all.error());
          std::vector<json::object> views;
          for (auto it = all->rbegin(); it != all->rend(); ++it) views.push_back(delivery_view(*it));
          return paged(req, views);
        }));
}

}  // namespace edge::status
