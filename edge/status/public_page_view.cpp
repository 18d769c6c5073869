#include "edge/status/public_page_view.h"

#include <map>

#include "edge/status/public_page_markup.h"
#include "edge/status/public_page_texts.h"

namespace edge::status {
namespace {

namespace json = core::json;
using markup::Attrs;
using markup::el;
using markup::fragment;
using markup::Node;
using markup::text;

std::string jstr(const json::object& o, std::string_view key) {
  auto* v = o.if_contains(key);
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

const json::object& jobj(const json::object& o, std::string_view key) {
  static const json::object empty;
  auto* v = o.if_contains(key);
  return v && v->is_object() ? v->get_object() : empty;
}

const json::array& jarr(const json::object& o, std::string_view key) {
  static const json::array empty;
  auto* v = o.if_contains(key);
  return v && v->is_array() ? v->get_array() : empty;
}

// "2026-11-18T14:05:09.000Z" -> "2026-11-18 14:05 UTC" (the page shows UTC, as its day boundaries are UTC).
std::string short_time(std::string_view iso) {
  if (iso.size() < 16) return std::string(iso);
  return std::string(iso.substr(0, 10)) + " " + std::string(iso.substr(11, 5)) + " UTC";
}

Node time_el(std::string_view iso) {
  return el("time", {{"datetime", std::string(iso)}}, {text(short_time(iso))});
}

// Uptime as the snapshot gives it (a number with two decimals, or null): "99.95 %", "–" without data.
std::string uptime_text(const json::object& component, std::string_view key) {
  auto* v = component.if_contains(key);
  if (!v || !(v->is_double() || v->is_int64() || v->is_uint64())) return "–";
  double value = v->to_number<double>();
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f %%", value);
  return buf;
}

std::string status_class(std::string_view status) {
  return "s-" + std::string(status.empty() ? "no-data" : status);
}

// Component names by id, for "Affects: ...".
using Names = std::map<std::string, std::string, std::less<>>;

Node affects(const PublicTexts& t, const Names& names, const json::object& item) {
  std::string list;
  for (auto& id : jarr(item, "affectedComponentIds")) {
    if (!id.is_string()) continue;
    auto it = names.find(std::string_view(id.get_string()));
    if (!list.empty()) list += ", ";
    list += it == names.end() ? std::string(id.get_string()) : it->second;
  }
  if (list.empty()) return fragment({});
  return el("p", {{"class", "sp-affects"}}, {text(std::string(t.affects) + ": " + list)});
}

Node incident(const PublicTexts& t, const Names& names, const json::object& inc) {
  const std::string impact = jstr(inc, "impact");
  Node updates = el("ol", {{"class", "sp-updates"}});
  for (auto& u : jarr(inc, "updates")) {
    if (!u.is_object()) continue;
    const auto& up = u.get_object();
    updates.add(el(
        "li", {{"data-id", jstr(up, "id")}},
        {el("strong", {{"class", "sp-update-status"}}, {text(incident_status_words(t, jstr(up, "status")))}),
         el("p", {}, {text(jstr(up, "body"))}), time_el(jstr(up, "createdAt"))}));
  }
  return el(
      "article", {{"class", "sp-incident impact-" + impact}, {"data-id", jstr(inc, "id")}},
      {el("h3", {},
          {text(jstr(inc, "title")), el("span", {{"class", "sp-impact"}}, {text(impact_words(t, impact))})}),
       el("p", {{"class", "sp-meta"}},
          {text(std::string(incident_status_words(t, jstr(inc, "status"))) + " · " + std::string(t.started) +
                " "),
           time_el(jstr(inc, "startedAt"))}),
       std::move(updates), affects(t, names, inc)});
}

Node maintenance(const PublicTexts& t, const Names& names, const json::object& m) {
  std::string end = jstr(m, "end");
  if (end.empty()) end = jstr(m, "scheduledEnd");
  Node when = el("p", {{"class", "sp-meta"}},
                 {text(std::string(t.scheduled_for) + " "), time_el(jstr(m, "scheduledStart"))});
  if (!end.empty()) {
    when.add(text(" – "));
    when.add(time_el(end));
  }
  Node article = el("article", {{"class", "sp-incident sp-maintenance"}, {"data-id", jstr(m, "id")}},
                    {el("h3", {}, {text(jstr(m, "title"))}), std::move(when)});
  if (auto d = jstr(m, "description"); !d.empty()) article.add(el("p", {}, {text(d)}));
  article.add(affects(t, names, m));
  return article;
}

Node past_incident(const PublicTexts& t, const Names& names, const json::object& inc) {
  const std::string impact = jstr(inc, "impact");
  Node meta =
      el("p", {{"class", "sp-meta"}}, {text(std::string(t.started) + " "), time_el(jstr(inc, "startedAt"))});
  if (auto r = jstr(inc, "resolvedAt"); !r.empty()) {
    meta.add(text(" · " + std::string(t.resolved) + " "));
    meta.add(time_el(r));
  }
  return el("li", {{"class", "sp-past impact-" + impact}, {"data-id", jstr(inc, "id")}},
            {el("strong", {}, {text(jstr(inc, "title"))}),
             el("span", {{"class", "sp-impact"}}, {text(impact_words(t, impact))}), std::move(meta),
             affects(t, names, inc)});
}

Node component(const PublicTexts& t, const json::object& c) {
  const std::string status = jstr(c, "status");
  Node bars = el("div", {{"class", "sp-bars"}, {"role", "img"}});
  int days = 0, counted = 0;
  for (auto& d : jarr(c, "dailyHistory")) {
    if (!d.is_object()) continue;
    const auto& day = d.get_object();
    const std::string s = jstr(day, "status");
    ++days;
    if (s != "no-data") ++counted;
    bars.add(el("span", {{"class", "sp-bar " + status_class(s)},
                         {"data-date", jstr(day, "date")},
                         {"title", jstr(day, "date") + " · " + std::string(status_words(t, s))}}));
  }
  bars.attr("aria-label", std::to_string(days) + " days, " + std::to_string(counted) + " with data");
  return el(
      "div", {{"class", "sp-component"}, {"data-id", jstr(c, "id")}, {"data-status", status}},
      {el("div", {{"class", "sp-row"}},
          {el("span", {{"class", "sp-cname"}}, {text(jstr(c, "name"))}),
           el("span", {{"class", "sp-status " + status_class(status)}}, {text(status_words(t, status))})}),
       std::move(bars),
       el("div", {{"class", "sp-axis"}},
          {el("span", {}, {text(t.days_ago_90)}),
           el("span", {{"class", "sp-uptime"}},
              {text(std::string(t.uptime_24h) + " "),
               el("b", {{"class", "sp-u24"}}, {text(uptime_text(c, "uptime24h"))}),
               text(" · " + std::string(t.uptime_30d) + " "),
               el("b", {{"class", "sp-u30"}}, {text(uptime_text(c, "uptime30d"))})}),
           el("span", {}, {text(t.today)})})});
}

Node section(std::string id, std::string_view title, std::vector<Node> children, bool hidden) {
  Node s = el("section", {{"id", std::move(id)}, {"class", "sp-section"}},
              {el("h2", {}, {text(title)}), fragment(std::move(children))});
  if (hidden) s.attr("hidden", "");
  return s;
}

Node subscribe_form(const PublicTexts& t, const std::string& slug) {
  return el(
      "section", {{"id", "subscribe"}, {"class", "sp-section sp-card"}},
      {el("h2", {}, {text(t.subscribe)}), el("p", {{"class", "sp-muted"}}, {text(t.subscribe_lead)}),
       el("form",
          {{"id", "subscribe-form"}, {"action", "/api/v1/status/" + slug + "/subscribe"}, {"method", "post"}},
          {el("div", {{"class", "sp-channels"}, {"role", "radiogroup"}},
              {el("label", {},
                  {el("input", {{"type", "radio"}, {"name", "type"}, {"value", "email"}, {"checked", ""}}),
                   text(t.channel_email)}),
               el("label", {},
                  {el("input", {{"type", "radio"}, {"name", "type"}, {"value", "webhook"}}),
                   text(t.channel_webhook)})}),
           el("div", {{"class", "sp-subscribe-row"}},
              {el("input", {{"type", "email"},
                            {"name", "address"},
                            {"required", ""},
                            {"autocomplete", "email"},
                            {"aria-label", std::string(t.email_address)},
                            {"placeholder", std::string(t.email_address)}}),
               el("button", {{"type", "submit"}}, {text(t.subscribe_button)})}),
           el("p",
              {{"id", "subscribe-result"}, {"class", "sp-result"}, {"role", "status"}, {"hidden", ""}})})});
}

// The words web/status/page.js needs to re-render a snapshot, as a data attribute.
std::string texts_json(const PublicTexts& t) {
  json::object o{
      {"operational", t.operational},
      {"degraded", t.degraded},
      {"down", t.down},
      {"maintenance", t.maintenance},
      {"no-data", t.no_data},
      {"overall", json::object{{"operational", t.overall_operational},
                               {"degraded", t.overall_degraded},
                               {"down", t.overall_down},
                               {"maintenance", t.overall_maintenance},
                               {"no-data", t.overall_no_data}}},
      {"incident", json::object{{"investigating", t.investigating},
                                {"identified", t.identified},
                                {"monitoring", t.monitoring},
                                {"resolved", t.resolved_status}}},
      {"impact",
       json::object{{"minor", t.impact_minor}, {"major", t.impact_major}, {"critical", t.impact_critical}}},
      {"uptime24h", t.uptime_24h},
      {"uptime30d", t.uptime_30d},
      {"daysAgo90", t.days_ago_90},
      {"today", t.today},
      {"started", t.started},
      {"resolved", t.resolved},
      {"scheduledFor", t.scheduled_for},
      {"affects", t.affects},
      {"noComponents", t.no_components},
      {"noPastIncidents", t.no_past_incidents},
      {"live", t.live},
      {"reconnecting", t.reconnecting},
      {"channelEmail", t.channel_email},
      {"channelWebhook", t.channel_webhook},
      {"emailAddress", t.email_address},
      {"webhookUrl", t.webhook_url},
      {"subscribeDone", t.subscribe_done},
      {"subscribeFailed", t.subscribe_failed}};
  return core::to_json(o);
}

Node document(Lang lang, std::string title, Attrs body_attrs, std::vector<Node> head_extra,
              std::vector<Node> body) {
  std::vector<Node> head{
      el("meta", {{"charset", "utf-8"}}),
      el("meta", {{"name", "viewport"}, {"content", "width=device-width, initial-scale=1"}}),
      el("title", {}, {text(title)}), el("link", {{"rel", "icon"}, {"href", "data:,"}}),
      el("link", {{"rel", "stylesheet"}, {"href", "/web/status/status.css"}})};
  for (auto& n : head_extra) head.push_back(std::move(n));
  return el("html", {{"lang", std::string(lang_code(lang))}},
            {el("head", {}, std::move(head)), el("body", std::move(body_attrs), std::move(body))});
}

}  // namespace

std::string render_public_page(const json::object& snap, Lang lang, const PublicLinks& links) {
  const PublicTexts& t = public_texts(lang);
  const json::object& page = jobj(snap, "page");
  const json::object& branding = jobj(page, "branding");
  std::string name = jstr(branding, "displayName");
  if (name.empty()) name = jstr(page, "name");
  const std::string overall = jstr(snap, "overall");
  const std::string feed = links.base + "/feed.atom" + "?lang=" + std::string(lang_code(lang));

  Names names;
  for (auto& c : jarr(snap, "components"))
    if (c.is_object()) names[jstr(c.get_object(), "id")] = jstr(c.get_object(), "name");

  // Header: the logo (linked when logoLinkUrl is set) or the name.
  Node brand = el("div", {{"class", "sp-brand"}});
  Node identity = fragment({});
  if (auto logo = jstr(branding, "logoUrl"); !logo.empty())
    identity = el("img", {{"class", "sp-logo"}, {"src", logo}, {"alt", name}});
  else
    identity = el("span", {{"class", "sp-name"}}, {text(name)});
  if (auto link = jstr(branding, "logoLinkUrl"); !link.empty())
    brand.add(el("a", {{"href", link}, {"rel", "noopener"}}, {std::move(identity)}));
  else
    brand.add(std::move(identity));
  Node nav = el("nav", {{"class", "sp-nav"}});
  if (page.contains("subscribersEnabled") && page.at("subscribersEnabled") == true)
    nav.add(el("a", {{"class", "sp-button"}, {"href", "#subscribe"}}, {text(t.subscribe_button)}));
  nav.add(el("a", {{"class", "sp-feed"}, {"href", feed}, {"title", std::string(t.feed)}}, {text("Atom")}));
  const std::string other = lang == Lang::tr ? "en" : "tr";
  nav.add(el("a",
             {{"class", "sp-lang"},
              {"href", (links.base.empty() ? "/" : links.base) + "?lang=" + other},
              {"hreflang", other}},
             {text(lang == Lang::tr ? "English" : "Türkçe")}));

  std::vector<Node> active, upcoming, past, components;
  for (auto& i : jarr(snap, "activeIncidents"))
    if (i.is_object()) active.push_back(incident(t, names, i.get_object()));
  for (auto& m : jarr(snap, "upcomingMaintenances"))
    if (m.is_object()) upcoming.push_back(maintenance(t, names, m.get_object()));
  Node past_list = el("ul", {{"class", "sp-past-list"}});
  for (auto& i : jarr(snap, "pastIncidents"))
    if (i.is_object()) past_list.add(past_incident(t, names, i.get_object()));
  const bool no_past = past_list.children.empty();
  if (no_past) past_list.add(el("li", {{"class", "sp-muted sp-empty"}}, {text(t.no_past_incidents)}));
  for (auto& c : jarr(snap, "components"))
    if (c.is_object()) components.push_back(component(t, c.get_object()));
  if (components.empty())
    components.push_back(el("p", {{"class", "sp-muted sp-empty"}}, {text(t.no_components)}));

  std::vector<Node> main{};
  if (auto tagline = jstr(branding, "tagline"); !tagline.empty())
    main.push_back(el("p", {{"class", "sp-tagline"}}, {text(tagline)}));
  main.push_back(
      el("section",
         {{"id", "overall"}, {"class", "sp-banner " + status_class(overall)}, {"data-status", overall}},
         {el("span", {{"class", "sp-dot"}, {"aria-hidden", "true"}}),
          el("h1", {}, {text(overall_words(t, overall))})}));
  const bool no_active = active.empty(), no_upcoming = upcoming.empty();
  main.push_back(section("active-incidents", t.active_incidents,
                         {el("div", {{"class", "sp-list"}}, std::move(active))}, no_active));
  main.push_back(section("maintenance", t.upcoming_maintenance,
                         {el("div", {{"class", "sp-list"}}, std::move(upcoming))}, no_upcoming));
  main.push_back(el(
      "section", {{"id", "components"}, {"class", "sp-section sp-card"}},
      {el("h2", {}, {text(t.components)}), el("div", {{"class", "sp-components"}}, std::move(components))}));
  main.push_back(section("past-incidents", t.past_incidents, {std::move(past_list)}, false));
  if (page.contains("subscribersEnabled") && page.at("subscribersEnabled") == true)
    main.push_back(subscribe_form(t, links.slug));

  const std::string generated = jstr(snap, "generatedAt");
  Node footer =
      el("footer", {{"class", "sp-footer sp-wrap"}},
         {el("span", {},
             {text(std::string(t.last_updated) + " "),
              el("time", {{"id", "generated-at"}, {"datetime", generated}}, {text(short_time(generated))})}),
          el("span", {{"id", "live"}, {"class", "sp-live"}, {"data-state", "connecting"}}, {text(t.live)}),
          el("a", {{"href", feed}}, {text(t.feed)})});

  Attrs body_attrs{
      {"class", "sp-body"},
      {"data-slug", links.slug},
      {"data-lang", std::string(lang_code(lang))},
      {"data-events", "/api/v1/status/" + links.slug + "/events?lang=" + std::string(lang_code(lang))},
      {"data-texts", texts_json(t)}};
  if (auto color = jstr(branding, "primaryColor"); !color.empty())
    body_attrs.emplace_back("style", "--brand: " + color);
  return markup::render_html(
      document(lang, name + " · " + std::string(overall_words(t, overall)), std::move(body_attrs),
               {el("link", {{"rel", "alternate"},
                            {"type", "application/atom+xml"},
                            {"href", feed},
                            {"title", std::string(t.feed)}}),
                el("script", {{"type", "module"}, {"src", "/web/status/page.js"}})},
               {el("header", {{"class", "sp-header"}},
                   {el("div", {{"class", "sp-wrap sp-head"}}, {std::move(brand), std::move(nav)})}),
                el("main", {{"class", "sp-wrap"}}, std::move(main)), std::move(footer)}));
}

std::string render_public_not_found(Lang lang) {
  const PublicTexts& t = public_texts(lang);
  return markup::render_html(document(lang, std::string(t.not_found_title), {{"class", "sp-body"}}, {},
                                      {el("main", {{"class", "sp-wrap sp-notfound"}},
                                          {el("h1", {}, {text(t.not_found_title)}),
                                           el("p", {{"class", "sp-muted"}}, {text(t.not_found_lead)})})}));
}

}  // namespace edge::status
