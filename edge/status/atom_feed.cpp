#include "edge/status/atom_feed.h"

#include <algorithm>

#include "edge/status/public_page_markup.h"
#include "edge/status/public_page_texts.h"

namespace edge::status {
namespace {

namespace json = core::json;
using markup::el;
using markup::Node;
using markup::text;

std::string jstr(const json::object& o, std::string_view key) {
  auto* v = o.if_contains(key);
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

const json::array& jarr(const json::object& o, std::string_view key) {
  static const json::array empty;
  auto* v = o.if_contains(key);
  return v && v->is_array() ? v->get_array() : empty;
}

struct Entry {
  std::string updated;  // RFC 3339, sorts as time (the snapshot's fixed-width UTC timestamps)
  Node node;
};

Node link(std::string rel, std::string type, std::string href) {
  return el("link", {{"rel", std::move(rel)}, {"type", std::move(type)}, {"href", std::move(href)}});
}

}  // namespace

std::string atom_feed(const json::object& snap, Lang lang, const FeedLinks& links,
                      std::string_view page_updated) {
  const PublicTexts& t = public_texts(lang);
  const json::object* page = nullptr;
  if (auto* p = snap.if_contains("page"); p && p->is_object()) page = &p->get_object();
  std::string name;
  if (page) {
    if (auto* b = page->if_contains("branding"); b && b->is_object())
      name = jstr(b->get_object(), "displayName");
    if (name.empty()) name = jstr(*page, "name");
  }

  std::vector<Entry> entries;
  for (auto& i : jarr(snap, "activeIncidents")) {
    if (!i.is_object()) continue;
    const auto& inc = i.get_object();
    const std::string incident_url = links.page_url + "#incident-" + jstr(inc, "id");
    for (auto& u : jarr(inc, "updates")) {
      if (!u.is_object()) continue;
      const auto& up = u.get_object();
      const std::string at = jstr(up, "createdAt");
      entries.push_back(
          {at, el("entry", {},
                  {el("id", {}, {text(incident_url + "-update-" + jstr(up, "id"))}),
                   el("title", {},
                      {text(jstr(inc, "title") + ": " +
                            std::string(incident_status_words(t, jstr(up, "status"))))}),
                   el("updated", {}, {text(at)}), el("published", {}, {text(at)}),
                   link("alternate", "text/html", incident_url),
                   el("category", {{"term", jstr(up, "status")},
                                   {"label", std::string(incident_status_words(t, jstr(up, "status")))}}),
                   el("content", {{"type", "text"}}, {text(jstr(up, "body"))})})});
    }
  }
  for (auto& i : jarr(snap, "pastIncidents")) {
    if (!i.is_object()) continue;
    const auto& inc = i.get_object();
    std::string at = jstr(inc, "resolvedAt");
    if (at.empty()) at = jstr(inc, "startedAt");
    const std::string incident_url = links.page_url + "#incident-" + jstr(inc, "id");
    entries.push_back(
        {at, el("entry", {},
                {el("id", {}, {text(incident_url + "-resolved")}),
                 el("title", {}, {text(jstr(inc, "title") + ": " + std::string(t.resolved_status))}),
                 el("updated", {}, {text(at)}), el("published", {}, {text(jstr(inc, "startedAt"))}),
                 link("alternate", "text/html", incident_url),
                 el("category", {{"term", "resolved"}, {"label", std::string(t.resolved_status)}}),
                 el("summary", {{"type", "text"}},
                    {text(std::string(impact_words(t, jstr(inc, "impact"))) + " · " + std::string(t.started) +
                          " " + jstr(inc, "startedAt") + " · " + std::string(t.resolved) + " " + at)})})});
  }
  std::stable_sort(entries.begin(), entries.end(),
                   [](const Entry& a, const Entry& b) { return a.updated > b.updated; });

  std::string updated(page_updated);
  if (!entries.empty() && entries.front().updated > updated) updated = entries.front().updated;

  Node feed =
      el("feed", {{"xmlns", "http://www.w3.org/2005/Atom"}, {"xml:lang", std::string(lang_code(lang))}},
         {el("id", {}, {text(links.feed_url)}),
          el("title", {}, {text(name + " · " + std::string(t.incident_history))}),
          el("subtitle", {}, {text(std::string(t.powered_by) + ": " + name)}),
          el("updated", {}, {text(updated)}), link("self", "application/atom+xml", links.feed_url),
          link("alternate", "text/html", links.page_url), el("author", {}, {el("name", {}, {text(name)})})});
  for (auto& e : entries) feed.add(std::move(e.node));
  return markup::render_xml(feed);
}

}  // namespace edge::status
