// The public status page GET /p/{slug} (docs/status-public.md): branding, the overall banner, components
// with their 90 daily bars and uptimes as the snapshot computes them, incidents and maintenance from the
// snapshot's shape, the subscribe form, TR/EN, 404, the security headers; the embed /p/{slug}/embed; and a
// page's custom domain through the host map.

#include <doctest/doctest.h>

#include "edge/platform/host_map.h"
#include "edge/status/custom_domain.h"
#include "edge/status/public_page_view.h"
#include "status_support.h"

using namespace status_test;
namespace json = core::json;
using core::status::ProbeStatus;

namespace {

constexpr std::int64_t kMinute = 60'000;
constexpr std::int64_t kDay = 24 * 60 * kMinute;

std::size_t count(std::string_view haystack, std::string_view needle) {
  std::size_t n = 0;
  for (auto at = haystack.find(needle); at != std::string_view::npos; at = haystack.find(needle, at + 1)) ++n;
  return n;
}

bool has(std::string_view haystack, std::string_view needle) {
  return haystack.find(needle) != std::string_view::npos;
}

// acme-status, branded, taking subscribers: API (operational now, degraded two days ago) and Mail (down).
struct Page {
  Page() {
    page = edge.page();
    auto r = edge.patch(kDash + "/pages/" + page,
                        R"({"branding":{"displayName":"Acme <Cloud>","primaryColor":"#112233",)"
                        R"("logoUrl":"https://cdn.acme.test/logo.png","logoLinkUrl":"https://acme.test/",)"
                        R"("tagline":"Live status of Acme & friends"},"subscribersEnabled":true})",
                        edge.token);
    REQUIRE(r.status == 200);
    api = edge.create("/pages/" + page + "/components", R"({"name":"API"})");
    mail = edge.create("/pages/" + page + "/components", R"({"name":"Mail"})");
    health = check(api, "Health");
    smtp = check(mail, "SMTP");
    const std::int64_t now = edge.clock.now_ms();
    edge.result(health, now - 2 * kDay, ProbeStatus::degraded, 2500);
    edge.result(health, now, ProbeStatus::operational, 120);
    edge.result(smtp, now - kMinute, ProbeStatus::down, 5000);
  }
  std::string check(const std::string& component, const std::string& name) {
    return edge.create("/pages/" + page + "/components/" + component + "/checks",
                       R"({"name":")" + name + R"(","url":"https://acme.test/)" + name + R"("})");
  }
  testing::Reply get(const std::string& path, const httplib::Headers& headers = {}) {
    return edge.send("GET", path, "", headers);
  }
  StatusEdge edge;
  std::string page, api, mail, health, smtp;
};

// A snapshot in the spec's shape ("Snapshot response fields") with incidents and maintenance, which the
// incident and maintenance slices fill: the page renders whatever the snapshot carries.
json::object incident_snapshot() {
  auto parsed = core::parse_json_object(R"({
    "page": {"name": "Acme", "slug": "acme-status", "branding": {"displayName": "Acme", "primaryColor": null,
             "logoUrl": null, "logoLinkUrl": null, "tagline": null}, "customDomain": null,
             "subscribersEnabled": false},
    "overall": "degraded",
    "components": [{"id": "cmp_a", "name": "API", "status": "degraded", "uptime24h": 99.5, "uptime30d": null,
                    "lastCheckedAt": null, "dailyHistory": [{"date": "2026-11-18", "status": "degraded"}],
                    "checks": []},
                   {"id": "cmp_b", "name": "Mail", "status": "operational", "uptime24h": 100, "uptime30d": 100,
                    "lastCheckedAt": null, "dailyHistory": [], "checks": []}],
    "activeIncidents": [{"id": "inc_1", "title": "Slow <API>", "status": "identified", "impact": "major",
                         "affectedComponentIds": ["cmp_a", "cmp_b"], "startedAt": "2026-11-18T10:00:00.000Z",
                         "updates": [{"id": "upd_2", "status": "identified", "body": "A bad deploy & rollback",
                                      "createdAt": "2026-11-18T10:30:00.000Z"},
                                     {"id": "upd_1", "status": "investigating", "body": "Looking into it",
                                      "createdAt": "2026-11-18T10:00:00.000Z"}]}],
    "upcomingMaintenances": [{"id": "mnt_1", "title": "Database upgrade", "description": "Ten minutes",
                              "status": "scheduled", "scheduledStart": "2026-11-20T02:00:00.000Z",
                              "end": "2026-11-20T02:10:00.000Z", "affectedComponentIds": ["cmp_b"]}],
    "pastIncidents": [{"id": "inc_0", "title": "Mail delays", "impact": "minor",
                       "startedAt": "2026-11-10T08:00:00.000Z", "resolvedAt": "2026-11-10T09:15:00.000Z",
                       "affectedComponentIds": ["cmp_b"]}],
    "generatedAt": "2026-11-18T11:06:40.000Z",
    "windowHours": 24
  })");
  REQUIRE(parsed);
  return *parsed;
}

}  // namespace

TEST_SUITE("status_public_page") {
  TEST_CASE("the page shows the branding, the overall status, every component with 90 bars and uptimes") {
    Page p;
    auto r = p.get("/p/acme-status");
    REQUIRE(r.status == 200);
    CHECK(r.header("Content-Type") == "text/html; charset=utf-8");
    CHECK(r.header("Content-Language") == "en");
    const std::string& html = r.body;
    CHECK(html.rfind("<!doctype html>\n<html lang=\"en\">", 0) == 0);
    // Branding, escaped.
    CHECK(has(html, "<title>Acme &lt;Cloud&gt; · Service disruption</title>"));
    CHECK(has(html, "style=\"--brand: #112233\""));
    CHECK(has(html,
              "<a href=\"https://acme.test/\" rel=\"noopener\"><img class=\"sp-logo\" "
              "src=\"https://cdn.acme.test/logo.png\" alt=\"Acme &lt;Cloud&gt;\"></a>"));
    CHECK(has(html, "<p class=\"sp-tagline\">Live status of Acme &amp; friends</p>"));
    CHECK_FALSE(has(html, "Acme <Cloud>"));
    // The same overall and component statuses as the JSON snapshot.
    auto snap = p.get("/api/v1/status/acme-status");
    REQUIRE(snap.status == 200);
    CHECK(str(snap.json, "overall") == "down");
    CHECK(has(html, "<section id=\"overall\" class=\"sp-banner s-down\" data-status=\"down\">"));
    CHECK(has(html, "<h1>Service disruption</h1>"));
    CHECK(has(html, "<div class=\"sp-component\" data-id=\"" + p.api + "\" data-status=\"operational\">"));
    CHECK(has(html, "<div class=\"sp-component\" data-id=\"" + p.mail + "\" data-status=\"down\">"));
    CHECK(
        has(html,
            "<span class=\"sp-cname\">API</span><span class=\"sp-status s-operational\">Operational</span>"));
    CHECK(has(html, "<span class=\"sp-cname\">Mail</span><span class=\"sp-status s-down\">Down</span>"));
    // 90 bars per component, one per day of the snapshot's dailyHistory.
    CHECK(count(html, "class=\"sp-bar ") == 180);
    CHECK(has(html,
              "<span class=\"sp-bar s-degraded\" data-date=\"2026-11-16\" title=\"2026-11-16 · Degraded\">"));
    CHECK(has(html, "<span class=\"sp-bar s-down\" data-date=\"2026-11-18\" title=\"2026-11-18 · Down\">"));
    CHECK(has(html,
              "<span class=\"sp-bar s-no-data\" data-date=\"2026-08-21\" title=\"2026-08-21 · No data\">"));
    // Uptimes as the snapshot computes them (honest uptime, docs/status-rules.md): API's result at `now`
    // covers no time of the last 24 h yet (null, shown as a dash); Mail's down minute is 0 %.
    const auto& components = snap.json.as_object().at("components").as_array();
    CHECK(components[0].as_object().at("uptime24h").is_null());
    CHECK(has(html, "<b class=\"sp-u24\">–</b>"));
    CHECK(has(html, "<b class=\"sp-u24\">0.00 %</b>"));
    // No incidents yet: the active and maintenance sections are hidden, the past list says so.
    CHECK(has(html, "<section id=\"active-incidents\" class=\"sp-section\" hidden=\"\">"));
    CHECK(has(html, "<section id=\"maintenance\" class=\"sp-section\" hidden=\"\">"));
    CHECK(has(html, "<li class=\"sp-muted sp-empty\">No incidents reported.</li>"));
    // Subscribers enabled: the form posts to the subscribe endpoint.
    CHECK(
        has(html,
            "<form id=\"subscribe-form\" action=\"/api/v1/status/acme-status/subscribe\" method=\"post\">"));
    CHECK(has(html, "href=\"#subscribe\""));
    // The live script, the events URL and the feed.
    CHECK(has(html, "<script type=\"module\" src=\"/web/status/page.js\"></script>"));
    CHECK(has(html, "data-events=\"/api/v1/status/acme-status/events?lang=en\""));
    CHECK(has(
        html,
        "<link rel=\"alternate\" type=\"application/atom+xml\" href=\"/p/acme-status/feed.atom?lang=en\""));
    CHECK(has(html,
              "<time id=\"generated-at\" datetime=\"2026-11-18T11:06:40.000Z\">2026-11-18 11:06 UTC</time>"));
  }

  TEST_CASE("the page is not framable and runs scripts of its own origin only") {
    Page p;
    auto r = p.get("/p/acme-status");
    REQUIRE(r.status == 200);
    CHECK(has(r.header("Content-Security-Policy"), "frame-ancestors 'none'"));
    CHECK(has(r.header("Content-Security-Policy"), "script-src 'self' 'wasm-unsafe-eval';"));
    CHECK(r.header("X-Frame-Options") == "DENY");
    CHECK(r.header("X-Content-Type-Options") == "nosniff");
    CHECK(r.header("Cache-Control") == "public, max-age=30");
    CHECK(r.header("Vary") == "Accept-Language");
  }

  TEST_CASE("without subscribers there is no subscribe form") {
    StatusEdge edge;
    edge.page();
    auto r = edge.get("/p/acme-status");
    REQUIRE(r.status == 200);
    CHECK_FALSE(has(r.body, "subscribe-form"));
    CHECK(has(r.body, "<span class=\"sp-name\">Acme</span>"));  // no logo: the name
    CHECK(has(r.body, "This page has no components yet."));
    CHECK(has(r.body, "data-status=\"no-data\""));
  }

  TEST_CASE("an unknown slug answers 404 in HTML") {
    StatusEdge edge;
    auto r = edge.get("/p/nobody-here");
    CHECK(r.status == 404);
    CHECK(r.header("Content-Type") == "text/html; charset=utf-8");
    CHECK(has(r.body, "Status page not found"));
    CHECK(r.header("Cache-Control") == "no-store");
    auto tr = edge.send("GET", "/p/nobody-here?lang=tr", "", {});
    CHECK(tr.status == 404);
    CHECK(has(tr.body, "Durum sayfası bulunamadı"));
    CHECK(edge.get("/p/nobody-here/embed").status == 404);
    CHECK(edge.get("/p/nobody-here/feed.atom").status == 404);
  }

  TEST_CASE("?lang= picks the language, then Accept-Language, English by default") {
    Page p;
    auto tr = p.get("/p/acme-status?lang=tr");
    REQUIRE(tr.status == 200);
    CHECK(tr.header("Content-Language") == "tr");
    CHECK(has(tr.body, "<html lang=\"tr\">"));
    CHECK(has(tr.body, "<h1>Hizmet kesintisi</h1>"));
    CHECK(has(tr.body, "<span class=\"sp-status s-down\">Kesinti</span>"));
    CHECK(has(tr.body, "data-events=\"/api/v1/status/acme-status/events?lang=tr\""));
    auto by_header = p.get("/p/acme-status", {{"Accept-Language", "tr-TR,tr;q=0.9,en;q=0.5"}});
    CHECK(by_header.header("Content-Language") == "tr");
    CHECK(has(by_header.body, "Bileşenler"));
    auto query_wins = p.get("/p/acme-status?lang=en", {{"Accept-Language", "tr"}});
    CHECK(query_wins.header("Content-Language") == "en");
    CHECK(has(query_wins.body, "<h1>Service disruption</h1>"));
    auto other = p.get("/p/acme-status?lang=de");
    CHECK(other.header("Content-Language") == "en");
  }

  TEST_CASE("active incidents with their updates, maintenance and past incidents render from the snapshot") {
    const std::string html = edge::status::render_public_page(incident_snapshot(), edge::Lang::en,
                                                              {"acme-status", "/p/acme-status"});
    CHECK(has(html, "<section id=\"active-incidents\" class=\"sp-section\"><h2>Active incidents</h2>"));
    CHECK(has(html,
              "<article class=\"sp-incident impact-major\" data-id=\"inc_1\"><h3>Slow &lt;API&gt;"
              "<span class=\"sp-impact\">Major</span></h3>"));
    CHECK(has(html,
              "<p class=\"sp-meta\">Identified · Started <time datetime=\"2026-11-18T10:00:00.000Z\">"
              "2026-11-18 10:00 UTC</time></p>"));
    // Updates in the snapshot's order (newest first), bodies escaped.
    auto second = html.find("A bad deploy &amp; rollback");
    auto first = html.find("Looking into it");
    CHECK(second != std::string::npos);
    CHECK(first != std::string::npos);
    CHECK(second < first);
    CHECK(has(html, "<li data-id=\"upd_1\"><strong class=\"sp-update-status\">Investigating</strong>"));
    CHECK(has(html, "<p class=\"sp-affects\">Affects: API, Mail</p>"));
    CHECK(has(html, "<section id=\"maintenance\" class=\"sp-section\"><h2>Scheduled maintenance</h2>"));
    CHECK(has(html,
              "<h3>Database upgrade</h3><p class=\"sp-meta\">Scheduled <time "
              "datetime=\"2026-11-20T02:00:00.000Z\">2026-11-20 02:00 UTC</time> – <time "
              "datetime=\"2026-11-20T02:10:00.000Z\">2026-11-20 02:10 UTC</time></p><p>Ten minutes</p>"));
    CHECK(has(html, "<li class=\"sp-past impact-minor\" data-id=\"inc_0\"><strong>Mail delays</strong>"));
    CHECK(has(html, "Resolved <time datetime=\"2026-11-10T09:15:00.000Z\">"));
    CHECK_FALSE(has(html, "<li class=\"sp-muted sp-empty\">"));
    CHECK(has(html, "<b class=\"sp-u24\">99.50 %</b>"));
    CHECK(has(html, "<b class=\"sp-u30\">–</b>"));
    CHECK_FALSE(has(html, "<script>"));

    const std::string tr = edge::status::render_public_page(incident_snapshot(), edge::Lang::tr,
                                                            {"acme-status", "/p/acme-status"});
    CHECK(has(tr, "<h2>Süren olaylar</h2>"));
    CHECK(has(tr, "<span class=\"sp-impact\">Yüksek</span>"));
    CHECK(has(tr, "<strong class=\"sp-update-status\">İnceleniyor</strong>"));
    CHECK(has(tr, "Etkilenen: API, Mail"));
  }

  TEST_CASE("the embed is a framable badge that derives its status in the browser") {
    Page p;
    auto r = p.get("/p/acme-status/embed?lang=tr");
    REQUIRE(r.status == 200);
    CHECK(r.header("Content-Type") == "text/html; charset=utf-8");
    const std::string csp = r.header("Content-Security-Policy");
    CHECK(has(csp, "frame-ancestors *"));
    CHECK(has(csp, "script-src 'self' 'wasm-unsafe-eval'"));
    CHECK(r.header("X-Frame-Options").empty());
    CHECK(has(r.body, "<html lang=\"tr\">"));
    CHECK(has(r.body, "data-snapshot=\"/api/v1/status/acme-status?lang=tr\""));
    CHECK(has(r.body, "<strong class=\"em-name\">Acme &lt;Cloud&gt;</strong>"));
    CHECK(has(r.body, "href=\"/p/acme-status?lang=tr\" target=\"_blank\" rel=\"noopener\""));
    CHECK(has(r.body, "data-status=\"loading\""));
    CHECK(has(r.body, "<script type=\"module\" src=\"/web/status/embed.js\"></script>"));
    CHECK(has(r.body, "Durum kontrol ediliyor…"));
  }

  TEST_CASE("a page's custom domain serves the page at its root, its embed and feed under it") {
    Page p;
    auto set =
        p.edge.patch(kDash + "/pages/" + p.page, R"({"customDomain":"Status.Acme.test"})", p.edge.token);
    REQUIRE(set.status == 200);
    const httplib::Headers host{{"Host", "status.acme.test"}};
    auto root = p.get("/", host);
    REQUIRE(root.status == 200);
    CHECK(has(root.body, "<h1>Service disruption</h1>"));
    // Links from the domain's root.
    CHECK(has(root.body, "href=\"/feed.atom?lang=en\""));
    CHECK(has(root.body, "data-events=\"/api/v1/status/acme-status/events?lang=en\""));
    CHECK(has(p.get("/?lang=tr", host).body, "<html lang=\"tr\">"));
    auto embed = p.get("/embed", host);
    CHECK(embed.status == 200);
    CHECK(has(embed.body, "href=\"/\""));
    CHECK(has(embed.header("Content-Security-Policy"), "frame-ancestors *"));
    auto feed = p.get("/feed.atom", host);
    CHECK(feed.status == 200);
    CHECK(feed.header("Content-Type") == "application/atom+xml; charset=utf-8");
    // The public API and the assets keep their paths.
    CHECK(p.get("/api/v1/status/acme-status", host).status == 200);
    CHECK(p.get("/healthz", host).status == 200);
    // Nothing else of the platform, and no other page, is reachable on it.
    CHECK(p.get("/login", host).status == 404);
    CHECK(p.get("/api/companies/acme", host).status == 404);
    CHECK(p.get("/api/v1/dashboard/companies/acme/pages", host).status == 404);
    CHECK(p.get("/p/acme-status", host).status == 404);
    // The status host itself still serves the page under /p/.
    CHECK(p.get("/p/acme-status").status == 200);

    // Cleared: the domain is an ordinary unknown host again.
    auto cleared = p.edge.patch(kDash + "/pages/" + p.page, R"({"customDomain":null})", p.edge.token);
    REQUIRE(cleared.status == 200);
    CHECK(p.get("/p/acme-status", host).status == 200);
    CHECK(p.get("/embed", host).status == 404);
  }

  TEST_CASE("a custom domain is kept by the first page that claims it, and registered again at start") {
    Page p;
    REQUIRE(p.edge.patch(kDash + "/pages/" + p.page, R"({"customDomain":"status.acme.test"})", p.edge.token)
                .status == 200);
    std::string other = p.edge.page("other-status");
    REQUIRE(p.edge.patch(kDash + "/pages/" + other, R"({"customDomain":"status.acme.test"})", p.edge.token)
                .status == 200);
    const httplib::Headers host{{"Host", "status.acme.test"}};
    CHECK(has(p.get("/", host).body, "Acme &lt;Cloud&gt;"));
    // The first page lets it go: the next change of the other page claims it.
    REQUIRE(p.edge.del(kDash + "/pages/" + p.page, p.edge.token).status == 204);
    CHECK(p.get("/embed", host).status == 404);
    REQUIRE(
        p.edge.patch(kDash + "/pages/" + other, R"({"branding":{"tagline":"Other"}})", p.edge.token).status ==
        200);
    auto now = p.get("/", host);
    CHECK(now.status == 200);
    CHECK(has(now.body, "<p class=\"sp-tagline\">Other</p>"));

    // At start every stored page's domain is registered again.
    edge::App& app = p.edge.server->app();
    app.hosts->unmap_custom_host(other);
    CHECK(p.get("/embed", host).status == 404);
    REQUIRE(edge::status::load_custom_domains(app).ok());
    CHECK(p.get("/embed", host).status == 200);
  }

  TEST_CASE("the host map refuses a product's own host as a custom domain") {
    edge::Config config;
    config.base_url = "https://platform.example.com";
    config.status_url = "https://status.example.com";
    edge::HostMap hosts(config);
    CHECK_FALSE(hosts.map_custom_host("pg_1", "status.example.com", "/p/a"));
    CHECK_FALSE(hosts.map_custom_host("pg_1", "platform.example.com", "/p/a"));
    CHECK(hosts.map_custom_host("pg_1", "status.acme.test", "/p/a"));
    CHECK(hosts.custom_path("status.acme.test", "/") == "/p/a");
    CHECK(hosts.custom_path("status.acme.test", "/embed") == "/p/a/embed");
    CHECK(hosts.custom_path("status.acme.test", "/web/status/page.js") == "/web/status/page.js");
    CHECK(hosts.custom_path("status.acme.test", "/api/v1/status/a") == "/api/v1/status/a");
    CHECK_FALSE(hosts.custom_path("platform.example.com", "/"));
    CHECK_FALSE(hosts.map_custom_host("pg_2", "status.acme.test", "/p/b"));
    // Moving pg_1 to another host frees the first.
    CHECK(hosts.map_custom_host("pg_1", "www.acme.test", "/p/a"));
    CHECK_FALSE(hosts.custom_root("status.acme.test"));
    CHECK(hosts.map_custom_host("pg_2", "status.acme.test", "/p/b"));
    hosts.unmap_custom_host("pg_2");
    CHECK_FALSE(hosts.custom_root("status.acme.test"));
  }
}
