// Status pages and components under /api/v1/dashboard/companies/{slug}/pages: CRUD, field validation,
// permissions, company isolation, slug uniqueness, cascade delete and the status error format.

#include <doctest/doctest.h>

#include "edge/status/status_store.h"
#include "status_support.h"

using namespace status_test;
namespace json = core::json;

namespace {
constexpr const char* kNow = "2026-11-18T11:06:40.000Z";  // TestEdge::kStart
}

TEST_SUITE("status_pages") {
  TEST_CASE("creating a page answers 201 with the stored page and its defaults") {
    StatusEdge edge;
    auto r = edge.post(kDash + "/pages", R"({"name":"  Acme Status ","slug":"acme-status"})", edge.token);
    REQUIRE(r.status == 201);
    std::string id = str(r.json, "id");
    CHECK(id.rfind("pg_", 0) == 0);
    json::object expected{{"id", id},
                          {"name", "Acme Status"},
                          {"slug", "acme-status"},
                          {"branding", json::object{{"displayName", nullptr},
                                                    {"primaryColor", nullptr},
                                                    {"logoUrl", nullptr},
                                                    {"logoLinkUrl", nullptr},
                                                    {"tagline", nullptr}}},
                          {"customDomain", nullptr},
                          {"subscribersEnabled", false},
                          {"createdAt", kNow},
                          {"updatedAt", kNow}};
    CHECK(r.json == json::value(expected));
    auto got = edge.get(kDash + "/pages/" + id, edge.token);
    CHECK(got.status == 200);
    CHECK(got.json == json::value(expected));
    auto list = edge.get(kDash + "/pages", edge.token);
    REQUIRE(list.status == 200);
    CHECK(list.json == json::value(json::array{expected}));
    CHECK(list.header("X-Total-Count") == "1");
  }

  TEST_CASE("page fields are validated with exact codes") {
    StatusEdge edge;
    struct Case {
      const char* body;
      int status;
      const char* code;
    };
    const Case cases[] = {
        {R"({"slug":"a-b"})", 422, "missing_field"},
        {R"({"name":"A"})", 422, "missing_field"},
        {R"({"name":null,"slug":"a-b"})", 422, "missing_field"},
        {R"({"name":"   ","slug":"a-b"})", 422, "invalid_field"},
        {R"({"name":5,"slug":"a-b"})", 422, "invalid_field"},
        {R"({"name":"A","slug":"Not A Slug"})", 422, "invalid_slug"},
        {R"({"name":"A","slug":"-ab"})", 422, "invalid_slug"},
        {R"({"name":"A","slug":7})", 422, "invalid_field"},
        {R"({"name":"A","slug":"a-b","branding":"x"})", 422, "invalid_field"},
        {R"({"name":"A","slug":"a-b","branding":{"primaryColor":"red"}})", 422, "invalid_color"},
        {R"({"name":"A","slug":"a-b","branding":{"primaryColor":"#12345g"}})", 422, "invalid_color"},
        {R"({"name":"A","slug":"a-b","branding":{"logoUrl":"ftp://x.test/a.png"}})", 422, "invalid_url"},
        {R"({"name":"A","slug":"a-b","branding":{"logoLinkUrl":"javascript:void"}})", 422, "invalid_url"},
        {R"({"name":"A","slug":"a-b","branding":{"tagline":""}})", 422, "invalid_field"},
        {R"({"name":"A","slug":"a-b","branding":{"displayName":3}})", 422, "invalid_field"},
        {R"({"name":"A","slug":"a-b","customDomain":"not a domain"})", 422, "invalid_domain"},
        {R"({"name":"A","slug":"a-b","subscribersEnabled":"yes"})", 422, "invalid_field"},
        {R"(not json)", 400, "invalid_json"},
        {R"([1])", 400, "invalid_body"},
    };
    for (const Case& c : cases) {
      auto r = edge.post(kDash + "/pages", c.body, edge.token);
      INFO(c.body << " -> " << r.body);
      CHECK(r.status == c.status);
      CHECK(r.error() == c.code);
      CHECK(r.json.as_object().at("message").is_string());
    }
    CHECK(edge.get(kDash + "/pages", edge.token).json.as_array().empty());
  }

  TEST_CASE("patching a page changes only the given members and merges branding") {
    StatusEdge edge;
    std::string id = edge.page();
    edge.clock.advance_ms(1000);
    auto r =
        edge.patch(kDash + "/pages/" + id,
                   R"({"branding":{"displayName":"Acme","primaryColor":"#AABBCC",)"
                   R"("logoUrl":"https://cdn.acme.test/logo.png","logoLinkUrl":"https://acme.test",)"
                   R"("tagline":"All good"},"customDomain":"Status.Acme.test","subscribersEnabled":true})",
                   edge.token);
    REQUIRE(r.status == 200);
    CHECK(r.json.at("name") == "Acme");
    CHECK(r.json.at("branding") == json::value(json::object{{"displayName", "Acme"},
                                                            {"primaryColor", "#aabbcc"},
                                                            {"logoUrl", "https://cdn.acme.test/logo.png"},
                                                            {"logoLinkUrl", "https://acme.test"},
                                                            {"tagline", "All good"}}));
    CHECK(r.json.at("customDomain") == "status.acme.test");
    CHECK(r.json.at("subscribersEnabled") == true);
    CHECK(r.json.at("createdAt") == kNow);
    CHECK(r.json.at("updatedAt") == "2026-11-18T11:06:41.000Z");
    // One branding member cleared, the others kept.
    auto cleared = edge.patch(kDash + "/pages/" + id, R"({"branding":{"tagline":null},"customDomain":null})",
                              edge.token);
    REQUIRE(cleared.status == 200);
    CHECK(cleared.json.at("branding").at("tagline").is_null());
    CHECK(cleared.json.at("branding").at("displayName") == "Acme");
    CHECK(cleared.json.at("customDomain").is_null());
    auto bad = edge.patch(kDash + "/pages/" + id, R"({"branding":{"primaryColor":"#abc"}})", edge.token);
    CHECK(bad.status == 422);
    CHECK(bad.error() == "invalid_color");
    CHECK(edge.get(kDash + "/pages/" + id, edge.token).json.at("branding").at("primaryColor") == "#aabbcc");
  }

  TEST_CASE("page slugs are unique across companies and move with a patch") {
    StatusEdge edge;
    std::string acme = edge.page("shared-slug");
    std::string globex_token = edge.token_with("globex", {"status.manage"});
    auto taken = edge.post("/api/v1/dashboard/companies/globex/pages", R"({"name":"G","slug":"shared-slug"})",
                           globex_token);
    CHECK(taken.status == 409);
    CHECK(taken.error() == "slug_taken");
    std::string other = edge.page("other-slug");
    auto clash = edge.patch(kDash + "/pages/" + other, R"({"slug":"shared-slug"})", edge.token);
    CHECK(clash.status == 409);
    CHECK(clash.error() == "slug_taken");
    // Moving a slug frees the old one and serves the page under the new one.
    REQUIRE(edge.patch(kDash + "/pages/" + acme, R"({"slug":"renamed"})", edge.token).status == 200);
    CHECK(edge.get("/api/v1/status/shared-slug").status == 404);
    CHECK(edge.get("/api/v1/status/renamed").status == 200);
    CHECK(edge.post("/api/v1/dashboard/companies/globex/pages", R"({"name":"G","slug":"shared-slug"})",
                    globex_token)
              .status == 201);
  }

  TEST_CASE("permissions: status.view reads, status.manage writes, sessions need the CSRF token") {
    StatusEdge edge;
    std::string id = edge.page();
    std::string viewer = edge.token_with("acme", {"status.view"});
    std::string other = edge.token_with("acme", {"restaurant.manage"});
    CHECK(edge.get(kDash + "/pages/" + id, viewer).status == 200);
    CHECK(edge.get(kDash + "/pages", viewer).status == 200);
    auto write = edge.post(kDash + "/pages", R"({"name":"X","slug":"x-page"})", viewer);
    CHECK(write.status == 403);
    CHECK(write.error() == "forbidden");
    CHECK(edge.patch(kDash + "/pages/" + id, R"({"name":"X"})", viewer).status == 403);
    CHECK(edge.del(kDash + "/pages/" + id, viewer).status == 403);
    auto unrelated = edge.get(kDash + "/pages", other);
    CHECK(unrelated.status == 403);
    CHECK(unrelated.error() == "forbidden");
    auto anonymous = edge.get(kDash + "/pages");
    CHECK(anonymous.status == 401);
    CHECK(anonymous.error() == "unauthorized");
    CHECK(anonymous.header("WWW-Authenticate") == "Bearer");
    // Another company's token on acme's path: the company is not found for it.
    auto foreign = edge.get(kDash + "/pages", edge.token_with("globex", {"status.manage"}));
    CHECK(foreign.status == 404);
    CHECK(foreign.error() == "company_not_found");

    // The owner's dashboard session: reads freely, writes only with X-CSRF-Token.
    auto& app = edge.server->app();
    auto cookie = app.sessions->start(edge.acme_owner_id);
    REQUIRE(cookie.ok());
    auto session = app.sessions->find(*cookie);
    REQUIRE(session.ok());
    std::string cookie_header = std::string(edge::Sessions::kCookieName) + "=" + *cookie;
    auto read = edge.send("GET", kDash + "/pages", "", {{"Cookie", cookie_header}});
    CHECK(read.status == 200);
    auto no_csrf = edge.send("POST", kDash + "/pages", R"({"name":"S","slug":"session-page"})",
                             {{"Cookie", cookie_header}});
    CHECK(no_csrf.status == 403);
    CHECK(no_csrf.error() == "invalid_csrf_token");
    auto with_csrf = edge.send("POST", kDash + "/pages", R"({"name":"S","slug":"session-page"})",
                               {{"Cookie", cookie_header}, {"X-CSRF-Token", session->csrf_token}});
    CHECK(with_csrf.status == 201);
  }

  TEST_CASE("another company's page, component and check answer 404") {
    StatusEdge edge;
    std::string page = edge.page();
    std::string component = edge.create("/pages/" + page + "/components", R"({"name":"API"})");
    std::string check = edge.create("/pages/" + page + "/components/" + component + "/checks",
                                    R"({"name":"Health","url":"https://api.acme.test/health"})");
    std::string globex = edge.token_with("globex", {"status.manage"});
    const std::string base = "/api/v1/dashboard/companies/globex/pages/" + page;
    auto p = edge.get(base, globex);
    CHECK(p.status == 404);
    CHECK(p.error() == "page_not_found");
    CHECK(edge.patch(base, R"({"name":"x"})", globex).error() == "page_not_found");
    CHECK(edge.del(base, globex).error() == "page_not_found");
    CHECK(edge.get(base + "/components/" + component, globex).error() == "page_not_found");
    CHECK(edge.get(base + "/components/" + component + "/checks/" + check, globex).status == 404);
    // Under one of globex's own pages, acme's ids are still unknown.
    std::string own = str(
        edge.post("/api/v1/dashboard/companies/globex/pages", R"({"name":"G","slug":"globex"})", globex).json,
        "id");
    const std::string own_base = "/api/v1/dashboard/companies/globex/pages/" + own;
    auto c = edge.get(own_base + "/components/" + component, globex);
    CHECK(c.status == 404);
    CHECK(c.error() == "component_not_found");
    // And acme still has everything.
    CHECK(edge.get(kDash + "/pages/" + page + "/components/" + component + "/checks/" + check, edge.token)
              .status == 200);
  }

  TEST_CASE("components: create in order, list, patch, delete") {
    StatusEdge edge;
    std::string page = edge.page();
    const std::string base = kDash + "/pages/" + page + "/components";
    auto first = edge.post(base, R"({"name":"API"})", edge.token);
    REQUIRE(first.status == 201);
    std::string a = str(first.json, "id");
    CHECK(a.rfind("cmp_", 0) == 0);
    CHECK(first.json == json::value(json::object{{"id", a},
                                                 {"pageId", page},
                                                 {"name", "API"},
                                                 {"order", 0},
                                                 {"createdAt", kNow},
                                                 {"updatedAt", kNow}}));
    std::string b = edge.create("/pages/" + page + "/components", R"({"name":"Website"})");
    std::string c = edge.create("/pages/" + page + "/components", R"({"name":"Mail","order":-1})");
    auto list = edge.get(base, edge.token);
    REQUIRE(list.json.as_array().size() == 3);
    CHECK(list.json.as_array()[0].at("id") == json::value(c));
    CHECK(list.json.as_array()[1].at("id") == json::value(a));
    CHECK(list.json.as_array()[2].at("id") == json::value(b));
    CHECK(list.json.as_array()[2].at("order") == 1);
    auto moved = edge.patch(base + "/" + c, R"({"order":5,"name":" Email "})", edge.token);
    REQUIRE(moved.status == 200);
    CHECK(moved.json.at("name") == "Email");
    CHECK(edge.get(base, edge.token).json.as_array()[2].at("id") == json::value(c));
    for (const char* bad : {R"({"name":""})", R"({"order":"1"})", R"({"order":1.5})"}) {
      auto r = edge.patch(base + "/" + c, bad, edge.token);
      INFO(bad);
      CHECK(r.status == 422);
      CHECK(r.error() == "invalid_field");
    }
    CHECK(edge.post(base, R"({})", edge.token).error() == "missing_field");
    CHECK(edge.del(base + "/" + a, edge.token).status == 204);
    auto gone = edge.get(base + "/" + a, edge.token);
    CHECK(gone.status == 404);
    CHECK(gone.error() == "component_not_found");
    CHECK(edge.del(base + "/" + a, edge.token).error() == "component_not_found");
    CHECK(edge.get(base, edge.token).json.as_array().size() == 2);
    CHECK(edge.post(kDash + "/pages/pg_missing/components", R"({"name":"x"})", edge.token).error() ==
          "page_not_found");
  }

  TEST_CASE("deleting a page removes its slug, components, checks and results") {
    StatusEdge edge;
    std::string page = edge.page();
    std::string component = edge.create("/pages/" + page + "/components", R"({"name":"API"})");
    std::string check = edge.create("/pages/" + page + "/components/" + component + "/checks",
                                    R"({"name":"Health","url":"https://api.acme.test/health"})");
    edge.result(check, edge.clock.now_ms(), core::status::ProbeStatus::operational);
    CHECK(edge.del(kDash + "/pages/" + page, edge.token).status == 204);
    CHECK(edge.get(kDash + "/pages/" + page, edge.token).error() == "page_not_found");
    CHECK(edge.get("/api/v1/status/acme-status").error() == "page_not_found");
    auto& app = edge.server->app();
    std::size_t left = 0;
    REQUIRE(app.kv
                ->read([&](const store::ReadTxn& txn) -> core::Status {
                  txn.scan(app.status_table, "", [&](std::string_view, std::string_view) {
                    ++left;
                    return true;
                  });
                  return {};
                })
                .ok());
    CHECK(left == 0);
    // The slug is free again; the probe worker's appends to the deleted check are refused.
    edge.page();
    edge::status::CheckResult late;
    late.atMs = edge.clock.now_ms();
    auto appended = edge::status::append_check_result(app, check, late);
    REQUIRE_FALSE(appended.ok());
    CHECK(appended.error().code == "check_not_found");
  }

  TEST_CASE("deleting a component removes its checks") {
    StatusEdge edge;
    std::string page = edge.page();
    std::string component = edge.create("/pages/" + page + "/components", R"({"name":"API"})");
    const std::string checks = "/pages/" + page + "/components/" + component + "/checks";
    std::string check = edge.create(checks, R"({"name":"Health","url":"https://api.acme.test/health"})");
    edge.result(check, edge.clock.now_ms(), core::status::ProbeStatus::down);
    REQUIRE(edge.del(kDash + "/pages/" + page + "/components/" + component, edge.token).status == 204);
    auto& app = edge.server->app();
    auto summary = edge::status::check_summary(app, check);
    REQUIRE(summary.ok());
    CHECK_FALSE(summary->has_value());
    auto results = edge::status::check_results(app, check, 0);
    REQUIRE(results.ok());
    CHECK(results->empty());
  }

  TEST_CASE("the status error format covers unknown paths, wrong methods and oversize bodies") {
    edge::Config config = unthrottled();
    config.max_json_body = 256;
    StatusEdge edge(config);
    auto unknown = edge.get("/api/v1/dashboard/nothing-here", edge.token);
    CHECK(unknown.status == 404);
    CHECK(unknown.error() == "not_found");
    CHECK(unknown.json.as_object().at("message").is_string());
    auto unknown_status = edge.get("/api/v1/elsewhere");
    CHECK(unknown_status.status == 404);
    CHECK(unknown_status.error() == "not_found");
    auto method = edge.send("PUT", kDash + "/pages", "{}", {{"Authorization", "Bearer " + edge.token}});
    CHECK(method.status == 405);
    CHECK(method.error() == "method_not_allowed");
    CHECK(method.header("Allow") == "POST, GET");
    std::string big = R"({"name":")" + std::string(300, 'a') + R"(","slug":"big"})";
    auto large = edge.post(kDash + "/pages", big, edge.token);
    CHECK(large.status == 413);
    CHECK(large.error() == "payload_too_large");
    // The auth product keeps the platform envelope under /api/v1/auth/.
    auto auth = edge.get("/api/v1/auth/nothing");
    CHECK(auth.status == 404);
    CHECK(auth.json.as_object().contains("data"));
  }
}
