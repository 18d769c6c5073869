// The subscriber's pages under {status_url}/p/{slug}/ (docs/status-subscribers.md, "Pages"): confirm
// (email double opt-in), preferences (topic and component filters) and unsubscribe (also RFC 8058's
// one-click POST). The token in the query is the credential; HTML comes from templates rendered with HTML
// escaping (core/mail/render.h) inside the platform frame (edge/pages/layout.h), in the subscriber's
// language unless `?lang=` says otherwise.

#include <algorithm>
#include <map>
#include <mutex>

#include "core/bytes.h"
#include "core/crypto.h"
#include "core/mail/render.h"
#include "core/mail/template.h"
#include "edge/app.h"
#include "edge/pages/layout.h"
#include "edge/platform/record_json.h"
#include "edge/status/status_routes.h"
#include "edge/status/status_store.h"
#include "edge/status/subscriber_routes.h"
#include "edge/status/subscriber_texts.h"
#include "edge/status/subscribers.h"

namespace edge::status {
namespace {

constexpr std::string_view kMessagePage = R"(<div class="card narrow" id="{id}"><h1>{title}</h1>
<p class="lead">{lead}</p></div>)";

constexpr std::string_view kConfirmPage = R"(<div class="card narrow" id="confirm"><h1>{title}</h1>
<p class="lead">{lead}</p><p><strong>{page}</strong></p>
<form method="post" action="{action}"><button type="submit" id="confirm-button">{button}</button></form></div>)";

constexpr std::string_view kUnsubscribePage = R"(<div class="card narrow" id="unsubscribe"><h1>{title}</h1>
<p class="lead">{lead}</p><p><strong>{page}</strong></p>
<form method="post" action="{action}"><input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit" id="unsubscribe-button">{button}</button></form></div>)";

constexpr std::string_view kPreferencesPage = R"(<style>
#preferences fieldset { border: 1px solid var(--line); border-radius: 8px; margin: 18px 0 0; padding: 6px 16px 12px; }
#preferences legend { font-weight: 600; padding: 0 6px; }
#preferences label { font-weight: 400; margin: 8px 0 0; }
#preferences form + form { margin-top: 12px; }
</style><div class="card" id="preferences"><h1>{title}</h1>
<p class="lead">{lead} <strong>{page}</strong></p>{#saved}<p class="pill" id="saved">{notice}</p>{/saved}
<p class="muted" id="subscription">{channel}</p>
<form method="post" action="{action}" id="preferences-form"><input type="hidden" name="csrf" value="{csrf}">
<fieldset><legend>{topicLabel}</legend>{#topics}
<label><input type="radio" name="topic" value="{value}" {checked}> {label}</label>{/topics}</fieldset>
<fieldset><legend>{componentsLabel}</legend><p class="muted">{componentsHint}</p>{#components}
<label><input type="checkbox" name="component_{id}" value="on" {checked}> {name}</label>{/components}</fieldset>
<button type="submit" id="save-button">{save}</button></form>
<form method="post" action="{unsubscribeAction}"><input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit" class="secondary" id="unsubscribe-button">{unsubscribe}</button></form></div>)";

const core::mail::Template& compiled(std::string_view text) {
  static std::mutex mutex;
  static std::map<const char*, core::mail::Template> cache;
  std::lock_guard lock(mutex);
  auto it = cache.find(text.data());
  if (it == cache.end()) it = cache.emplace(text.data(), *core::mail::Template::compile(text)).first;
  return it->second;
}

Response render_page(int status, std::string_view title, std::string_view tpl, const json::object& vars,
                     Lang lang) {
  auto body = core::mail::render(compiled(tpl), vars, core::mail::Escaping::html);
  if (!body) return html_page(500, "Error", "<div class=\"card narrow\"><h1>500</h1></div>", lang_code(lang));
  return html_page(status, title, *body, lang_code(lang));
}

std::optional<Lang> query_lang(const Request& req) {
  if (auto l = req.query_param("lang")) {
    if (*l == "tr") return Lang::tr;
    if (*l == "en") return Lang::en;
  }
  return std::nullopt;
}

Lang page_lang(const Request& req, const json::object* subscriber) {
  if (auto l = query_lang(req)) return *l;
  if (subscriber) return lang_from_code(record::str(*subscriber, "lang"));
  return pick_lang("", req.header("accept-language"));
}

Response invalid_link(const Request& req, Lang lang, int status = 404) {
  const SubscriberTexts& t = subscriber_texts(lang);
  (void)req;
  return render_page(status, t.invalid_title, kMessagePage,
                     {{"id", "invalid"}, {"title", t.invalid_title}, {"lead", t.invalid_lead}}, lang);
}

std::string token_of(const Request& req) {
  return req.query_param("token").value_or("");
}

std::string page_name(App& app, const FoundSubscriber& found) {
  auto page = get_record(app, page_key(found.companyId, record::str(found.subscriber, "pageId")));
  if (!page || !*page) return {};
  if (const auto* b = (**page).if_contains("branding"); b && b->is_object())
    if (auto n = record::str(b->get_object(), "displayName"); !n.empty()) return n;
  return record::str(**page, "name");
}

// The preferences form's CSRF token: bound to the subscriber and its management token, derived with the
// deployment's key, so it needs no storage and changes when the subscription is replaced.
std::string csrf_token(const App& app, const json::object& subscriber) {
  auto mac = core::hmac_sha256(core::to_string(app.secret_key),
                               "status-preferences-csrf:" + record::str(subscriber, "id") + ":" +
                                   record::str(subscriber, "tokenHash"));
  return core::base64url_encode(mac);
}

std::string self_url(const Request& req, std::string_view slug, std::string_view what) {
  return "/p/" + std::string(slug) + "/" + std::string(what) + "?token=" + url_encode(token_of(req));
}

Response preferences_page(App& app, const Request& req, const FoundSubscriber& found, bool saved) {
  const json::object& s = found.subscriber;
  const Lang lang = page_lang(req, &s);
  const SubscriberTexts& t = subscriber_texts(lang);
  const std::string slug(req.param("slug"));
  const std::string topic = record::str(s, "topic");
  json::array topics;
  for (auto [value, label] : {std::pair{"all", t.topic_all}, std::pair{"incidents", t.topic_incidents},
                              std::pair{"maintenance", t.topic_maintenance}})
    topics.emplace_back(
        json::object{{"value", value}, {"label", label}, {"checked", topic == value ? "checked" : ""}});
  const auto chosen = record::strs(s, "componentIds");
  json::array components;
  auto all = list_components(app, found.companyId, record::str(s, "pageId"));
  if (all)
    for (const auto& c : *all) {
      const std::string id = record::str(c, "id");
      const bool on = std::find(chosen.begin(), chosen.end(), id) != chosen.end();
      components.emplace_back(
          json::object{{"id", id}, {"name", record::str(c, "name")}, {"checked", on ? "checked" : ""}});
    }
  const std::string type = record::str(s, "type");
  std::string channel = type == "email"     ? record::str(s, "email")
                        : type == "webhook" ? record::str(s, "webhookUrl")
                                            : "Telegram " + record::str(s, "chatId");
  json::object vars{{"title", t.prefs_title},
                    {"lead", t.prefs_lead},
                    {"page", page_name(app, found)},
                    {"saved", saved},
                    {"notice", t.saved_notice},
                    {"channel", channel},
                    {"action", self_url(req, slug, "preferences")},
                    {"csrf", csrf_token(app, s)},
                    {"topicLabel", t.topic_label},
                    {"topics", std::move(topics)},
                    {"componentsLabel", t.components_label},
                    {"componentsHint", t.components_hint},
                    {"components", std::move(components)},
                    {"save", t.save_button},
                    {"unsubscribeAction", self_url(req, slug, "unsubscribe")},
                    {"unsubscribe", t.unsubscribe_button}};
  return render_page(200, t.prefs_title, kPreferencesPage, vars, lang);
}

}  // namespace

void register_subscriber_pages(App& app) {
  Router& r = app.router;
  r.add("GET", "/p/{slug}/confirm", [&app](Request& req) {
    auto found = subscriber_by_confirm_token(app, req.param("slug"), token_of(req));
    if (!found)
      return invalid_link(req, page_lang(req, nullptr),
                          found.error().code == "subscriber_not_found" ? 404 : 500);
    const Lang lang = page_lang(req, &found->subscriber);
    const SubscriberTexts& t = subscriber_texts(lang);
    if (record::str(found->subscriber, "status") == "verified")
      return render_page(200, t.confirmed_title, kMessagePage,
                         {{"id", "confirmed"}, {"title", t.confirmed_title}, {"lead", t.confirmed_lead}},
                         lang);
    // A button rather than confirming on GET: link scanners of mail providers open links by themselves.
    return render_page(200, t.confirm_title, kConfirmPage,
                       {{"title", t.confirm_title},
                        {"lead", t.confirm_lead},
                        {"page", page_name(app, *found)},
                        {"action", self_url(req, req.param("slug"), "confirm")},
                        {"button", t.confirm_button}},
                       lang);
  });
  r.add("POST", "/p/{slug}/confirm", [&app](Request& req) {
    auto found = subscriber_by_confirm_token(app, req.param("slug"), token_of(req));
    if (!found)
      return invalid_link(req, page_lang(req, nullptr),
                          found.error().code == "subscriber_not_found" ? 404 : 500);
    const Lang lang = page_lang(req, &found->subscriber);
    if (auto st = verify_subscriber(app, *found); !st.ok()) return invalid_link(req, lang, 500);
    const SubscriberTexts& t = subscriber_texts(lang);
    return render_page(200, t.confirmed_title, kMessagePage,
                       {{"id", "confirmed"}, {"title", t.confirmed_title}, {"lead", t.confirmed_lead}}, lang);
  });

  r.add("GET", "/p/{slug}/preferences", [&app](Request& req) {
    auto found = subscriber_by_token(app, req.param("slug"), token_of(req));
    if (!found)
      return invalid_link(req, page_lang(req, nullptr),
                          found.error().code == "subscriber_not_found" ? 404 : 500);
    return preferences_page(app, req, *found, false);
  });
  r.add("POST", "/p/{slug}/preferences", [&app](Request& req) {
    auto found = subscriber_by_token(app, req.param("slug"), token_of(req));
    if (!found)
      return invalid_link(req, page_lang(req, nullptr),
                          found.error().code == "subscriber_not_found" ? 404 : 500);
    const Lang lang = page_lang(req, &found->subscriber);
    auto form = req.form();
    if (!core::constant_time_equal(csrf_token(app, found->subscriber), form["csrf"])) {
      const SubscriberTexts& t = subscriber_texts(lang);
      return render_page(403, t.invalid_title, kMessagePage,
                         {{"id", "refused"}, {"title", t.invalid_title}, {"lead", t.form_refused}}, lang);
    }
    json::array ids;
    for (const auto& [name, value] : form)
      if (name.starts_with("component_") && value == "on") ids.emplace_back(name.substr(10));
    json::value topic(form["topic"]), component_ids(std::move(ids));
    auto filters = parse_filters(app, found->companyId, record::str(found->subscriber, "pageId"), &topic,
                                 &component_ids);
    if (!filters) return invalid_link(req, lang, 422);
    auto updated = update_filters(app, *found, *filters);
    if (!updated) return invalid_link(req, lang, 500);
    FoundSubscriber now{found->companyId, std::move(*updated)};
    return preferences_page(app, req, now, true);
  });

  r.add("GET", "/p/{slug}/unsubscribe", [&app](Request& req) {
    auto found = subscriber_by_token(app, req.param("slug"), token_of(req));
    if (!found)
      return invalid_link(req, page_lang(req, nullptr),
                          found.error().code == "subscriber_not_found" ? 404 : 500);
    const Lang lang = page_lang(req, &found->subscriber);
    const SubscriberTexts& t = subscriber_texts(lang);
    return render_page(200, t.unsubscribe_title, kUnsubscribePage,
                       {{"title", t.unsubscribe_title},
                        {"lead", t.unsubscribe_lead},
                        {"page", page_name(app, *found)},
                        {"action", self_url(req, req.param("slug"), "unsubscribe")},
                        {"button", t.unsubscribe_button}},
                       lang);
  });
  // RFC 8058 one-click: the mail client POSTs `List-Unsubscribe=One-Click` here with no cookie and no page
  // visit, so no CSRF token can exist; the unguessable token in the URL is the credential.
  r.add("POST", "/p/{slug}/unsubscribe", [&app](Request& req) {
    auto found = subscriber_by_token(app, req.param("slug"), token_of(req));
    if (!found)
      return invalid_link(req, page_lang(req, nullptr),
                          found.error().code == "subscriber_not_found" ? 404 : 500);
    const Lang lang = page_lang(req, &found->subscriber);
    auto st = delete_subscriber(app, found->companyId, record::str(found->subscriber, "pageId"),
                                record::str(found->subscriber, "id"));
    if (!st.ok() && st.error().code != "subscriber_not_found") return invalid_link(req, lang, 500);
    const SubscriberTexts& t = subscriber_texts(lang);
    return render_page(
        200, t.unsubscribed_title, kMessagePage,
        {{"id", "unsubscribed"}, {"title", t.unsubscribed_title}, {"lead", t.unsubscribed_lead}}, lang);
  });
}

}  // namespace edge::status
