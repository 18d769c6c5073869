// The Atom feed of a page's incidents (RFC 4287), GET /p/{slug}/feed.atom: parsed as XML, with the
// required feed and entry elements (id, title, updated, author, self and alternate links), one entry per
// update of each active incident and one per past incident, newest first, in the requested locale.

#include <doctest/doctest.h>

#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <set>
#include <sstream>

#include "edge/status/atom_feed.h"
#include "status_support.h"

using namespace status_test;
namespace json = core::json;
namespace pt = boost::property_tree;

namespace {

pt::ptree parse_xml(const std::string& text) {
  std::istringstream in(text);
  pt::ptree tree;
  pt::read_xml(in, tree);  // throws on malformed XML
  return tree;
}

// The children of `parent` named `name`.
std::vector<const pt::ptree*> children(const pt::ptree& parent, const std::string& name) {
  std::vector<const pt::ptree*> out;
  for (auto& [key, child] : parent)
    if (key == name) out.push_back(&child);
  return out;
}

std::string link_href(const pt::ptree& parent, const std::string& rel) {
  for (auto* link : children(parent, "link"))
    if (link->get<std::string>("<xmlattr>.rel", "") == rel) return link->get<std::string>("<xmlattr>.href");
  return "";
}

json::object incidents() {
  auto parsed = core::parse_json_object(R"({
    "page": {"name": "Acme", "slug": "acme-status", "branding": {"displayName": "Acme & Co"}},
    "overall": "degraded", "components": [],
    "activeIncidents": [{"id": "inc_1", "title": "Slow <API>", "status": "identified", "impact": "major",
                         "affectedComponentIds": [], "startedAt": "2026-11-18T10:00:00.000Z",
                         "updates": [{"id": "upd_2", "status": "identified", "body": "Rollback & retry",
                                      "createdAt": "2026-11-18T10:30:00.000Z"},
                                     {"id": "upd_1", "status": "investigating", "body": "Looking",
                                      "createdAt": "2026-11-18T10:00:00.000Z"}]}],
    "upcomingMaintenances": [],
    "pastIncidents": [{"id": "inc_0", "title": "Mail delays", "impact": "minor",
                       "startedAt": "2026-11-10T08:00:00.000Z", "resolvedAt": "2026-11-10T09:15:00.000Z",
                       "affectedComponentIds": []}],
    "generatedAt": "2026-11-18T11:06:40.000Z", "windowHours": 24})");
  REQUIRE(parsed);
  return *parsed;
}

const edge::status::FeedLinks kLinks{"https://status.example.com/p/acme-status",
                                     "https://status.example.com/p/acme-status/feed.atom?lang=en"};

}  // namespace

TEST_SUITE("status_atom") {
  TEST_CASE("one entry per incident update and per past incident, newest first, valid Atom") {
    const std::string xml =
        edge::status::atom_feed(incidents(), edge::Lang::en, kLinks, "2026-11-01T00:00:00.000Z");
    CHECK(xml.rfind("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\" "
                    "xml:lang=\"en\">",
                    0) == 0);
    pt::ptree doc = parse_xml(xml);
    const pt::ptree& feed = doc.get_child("feed");
    CHECK(feed.get<std::string>("id") == kLinks.feed_url);
    CHECK(feed.get<std::string>("title") == "Acme & Co · Incident history");
    CHECK(feed.get<std::string>("updated") == "2026-11-18T10:30:00.000Z");  // the newest entry
    CHECK(feed.get<std::string>("author.name") == "Acme & Co");
    CHECK(link_href(feed, "self") == kLinks.feed_url);
    CHECK(link_href(feed, "alternate") == kLinks.page_url);
    auto entries = children(feed, "entry");
    REQUIRE(entries.size() == 3);
    std::set<std::string> ids;
    for (auto* e : entries) {
      // RFC 4287 4.1.2: id, title, updated are required; an entry without content has an alternate link.
      ids.insert(e->get<std::string>("id"));
      CHECK_FALSE(e->get<std::string>("title").empty());
      CHECK(e->get<std::string>("updated").size() == 24);
      CHECK(link_href(*e, "alternate").rfind(kLinks.page_url + "#incident-", 0) == 0);
    }
    CHECK(ids.size() == 3);
    CHECK(entries[0]->get<std::string>("id") == kLinks.page_url + "#incident-inc_1-update-upd_2");
    CHECK(entries[0]->get<std::string>("title") == "Slow <API>: Identified");
    CHECK(entries[0]->get<std::string>("content") == "Rollback & retry");
    CHECK(entries[0]->get<std::string>("content.<xmlattr>.type") == "text");
    CHECK(entries[0]->get<std::string>("category.<xmlattr>.term") == "identified");
    CHECK(entries[1]->get<std::string>("title") == "Slow <API>: Investigating");
    CHECK(entries[1]->get<std::string>("updated") == "2026-11-18T10:00:00.000Z");
    CHECK(entries[2]->get<std::string>("id") == kLinks.page_url + "#incident-inc_0-resolved");
    CHECK(entries[2]->get<std::string>("title") == "Mail delays: Resolved");
    CHECK(entries[2]->get<std::string>("updated") == "2026-11-10T09:15:00.000Z");
    CHECK(entries[2]->get<std::string>("published") == "2026-11-10T08:00:00.000Z");
  }

  TEST_CASE("Turkish feed") {
    const std::string xml = edge::status::atom_feed(incidents(), edge::Lang::tr, kLinks, "");
    pt::ptree doc = parse_xml(xml);
    const pt::ptree& feed = doc.get_child("feed");
    CHECK(feed.get<std::string>("<xmlattr>.xml:lang") == "tr");
    CHECK(feed.get<std::string>("title") == "Acme & Co · Olay geçmişi");
    CHECK(children(feed, "entry")[0]->get<std::string>("title") == "Slow <API>: Neden bulundu");
    CHECK(children(feed, "entry")[2]->get<std::string>("title") == "Mail delays: Çözüldü");
  }

  TEST_CASE("the route serves the page's feed; without incidents its updated is the page's") {
    StatusEdge edge;
    std::string page = edge.page();
    auto stored = edge.get(kDash + "/pages/" + page, edge.token);
    REQUIRE(stored.status == 200);
    auto r = edge.get("/p/acme-status/feed.atom");
    REQUIRE(r.status == 200);
    CHECK(r.header("Content-Type") == "application/atom+xml; charset=utf-8");
    CHECK(r.header("Access-Control-Allow-Origin") == "*");
    CHECK(r.header("Content-Language") == "en");
    pt::ptree doc = parse_xml(r.body);
    const pt::ptree& feed = doc.get_child("feed");
    const std::string page_url = edge.server->app().config.status_url + "/p/acme-status";
    CHECK(feed.get<std::string>("id") == page_url + "/feed.atom?lang=en");
    CHECK(feed.get<std::string>("updated") == str(stored.json, "updatedAt"));
    CHECK(feed.get<std::string>("author.name") == "Acme");
    CHECK(link_href(feed, "alternate") == page_url);
    CHECK(children(feed, "entry").empty());

    auto tr = edge.get("/p/acme-status/feed.atom?lang=tr");
    REQUIRE(tr.status == 200);
    CHECK(parse_xml(tr.body).get<std::string>("feed.<xmlattr>.xml:lang") == "tr");
    CHECK(parse_xml(tr.body).get<std::string>("feed.id") == page_url + "/feed.atom?lang=tr");
  }

  TEST_CASE("an unknown slug answers 404") {
    StatusEdge edge;
    CHECK(edge.get("/p/nobody-here/feed.atom").status == 404);
  }
}
