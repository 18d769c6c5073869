// HTTP checks under .../pages/{pageId}/components/{componentId}/checks: every field of the spec's HTTP
// check with its validation code, the development-only insecureSkipTlsVerify, the latest state from the
// probe summary and the recent results.

#include <doctest/doctest.h>

#include "status_support.h"

using namespace status_test;
namespace json = core::json;
using core::status::ProbeStatus;

namespace {

constexpr const char* kNow = "2026-11-18T11:06:40.000Z";  // TestEdge::kStart

struct Fixture {
  explicit Fixture(edge::Config config = unthrottled()) : edge(std::move(config)) {
    page = edge.page();
    component = edge.create("/pages/" + page + "/components", R"({"name":"API"})");
    base = kDash + "/pages/" + page + "/components/" + component + "/checks";
  }
  StatusEdge edge;
  std::string page, component, base;
};

}  // namespace

TEST_SUITE("status_checks") {
  TEST_CASE("creating a check stores its defaults and shows no-data until probed") {
    Fixture f;
    auto r = f.edge.post(f.base, R"({"name":" Health ","url":"https://api.acme.test/health"})", f.edge.token);
    REQUIRE(r.status == 201);
    std::string id = str(r.json, "id");
    CHECK(id.rfind("chk_", 0) == 0);
    json::object expected{{"id", id},
                          {"pageId", f.page},
                          {"componentId", f.component},
                          {"name", "Health"},
                          {"url", "https://api.acme.test/health"},
                          {"method", "GET"},
                          {"intervalSeconds", 60},
                          {"expectedStatusMin", 200},
                          {"expectedStatusMax", 299},
                          {"expectedBodyContains", nullptr},
                          {"timeoutMs", 10000},
                          {"degradedLatencyMs", 2000},
                          {"insecureSkipTlsVerify", false},
                          {"createdAt", kNow},
                          {"updatedAt", kNow},
                          {"status", "no-data"},
                          {"lastLatencyMs", nullptr},
                          {"lastCheckedAt", nullptr},
                          {"consecutiveFailures", 0}};
    CHECK(r.json == json::value(expected));
    CHECK(f.edge.get(f.base + "/" + id, f.edge.token).json == json::value(expected));
    CHECK(f.edge.get(f.base, f.edge.token).json == json::value(json::array{expected}));

    auto full = f.edge.post(f.base,
                            R"({"name":"Login","url":"http://127.0.0.1:8080/login?x=1","method":"POST",)"
                            R"("intervalSeconds":30,"expectedStatusMin":200,"expectedStatusMax":204,)"
                            R"("expectedBodyContains":"ok","timeoutMs":5000,"degradedLatencyMs":800,)"
                            R"("insecureSkipTlsVerify":false})",
                            f.edge.token);
    REQUIRE(full.status == 201);
    CHECK(full.json.at("method") == "POST");
    CHECK(full.json.at("intervalSeconds") == 30);
    CHECK(full.json.at("expectedStatusMax") == 204);
    CHECK(full.json.at("expectedBodyContains") == "ok");
    CHECK(full.json.at("timeoutMs") == 5000);
    CHECK(full.json.at("degradedLatencyMs") == 800);
  }

  TEST_CASE("every check field is validated with its code") {
    Fixture f;
    struct Case {
      std::string body;
      const char* code;
    };
    const std::string url = R"("url":"https://api.acme.test/health")";
    const std::string name = R"("name":"Health")";
    const Case cases[] = {
        {"{" + url + "}", "missing_field"},
        {"{" + name + "}", "missing_field"},
        {R"({"name":"","url":"https://a.test"})", "invalid_field"},
        {R"({"name":"H","url":"ftp://a.test/x"})", "invalid_url"},
        {R"({"name":"H","url":"https://user:pw@a.test/"})", "invalid_url"},
        {R"({"name":"H","url":"https://a.test/)" + std::string(2100, 'a') + R"("})", "invalid_url"},
        {R"({"name":"H","url":42})", "invalid_field"},
        {"{" + name + "," + url + R"(,"method":"get"})", "invalid_method"},
        {"{" + name + "," + url + R"(,"method":"DELETE"})", "invalid_method"},
        {"{" + name + "," + url + R"(,"method":1})", "invalid_field"},
        {"{" + name + "," + url + R"(,"intervalSeconds":29})", "invalid_interval"},
        {"{" + name + "," + url + R"(,"intervalSeconds":3601})", "invalid_interval"},
        {"{" + name + "," + url + R"(,"intervalSeconds":99999999999})", "invalid_interval"},
        {"{" + name + "," + url + R"(,"intervalSeconds":"60"})", "invalid_field"},
        {"{" + name + "," + url + R"(,"expectedStatusMin":99})", "invalid_status_range"},
        {"{" + name + "," + url + R"(,"expectedStatusMax":600})", "invalid_status_range"},
        {"{" + name + "," + url + R"(,"expectedStatusMin":300,"expectedStatusMax":299})",
         "invalid_status_range"},
        {"{" + name + "," + url + R"(,"expectedStatusMin":2.5})", "invalid_field"},
        {"{" + name + "," + url + R"(,"timeoutMs":0})", "invalid_timeout"},
        {"{" + name + "," + url + R"(,"intervalSeconds":30,"timeoutMs":30001})", "invalid_timeout"},
        {"{" + name + "," + url + R"(,"degradedLatencyMs":0})", "invalid_degraded_latency"},
        {"{" + name + "," + url + R"(,"timeoutMs":1000,"degradedLatencyMs":1001})",
         "invalid_degraded_latency"},
        {"{" + name + "," + url + R"(,"expectedBodyContains":""})", "invalid_expected_body"},
        {"{" + name + "," + url + R"(,"method":"HEAD","expectedBodyContains":"ok"})",
         "invalid_expected_body"},
        {"{" + name + "," + url + R"(,"expectedBodyContains":")" + std::string(1001, 'x') + R"("})",
         "invalid_expected_body"},
        {"{" + name + "," + url + R"(,"expectedBodyContains":5})", "invalid_field"},
        {"{" + name + "," + url + R"(,"insecureSkipTlsVerify":"true"})", "invalid_field"},
        {"{" + name + "," + url + R"(,"insecureSkipTlsVerify":true})", "insecure_tls_not_allowed"},
    };
    for (const Case& c : cases) {
      auto r = f.edge.post(f.base, c.body, f.edge.token);
      INFO(c.body.substr(0, 200) << " -> " << r.body);
      CHECK(r.status == 422);
      CHECK(r.error() == c.code);
    }
    CHECK(f.edge.get(f.base, f.edge.token).json.as_array().empty());
  }

  TEST_CASE("insecureSkipTlsVerify is accepted in development mode") {
    edge::Config config = unthrottled();
    config.status.development_mode = true;
    Fixture f(config);
    auto r =
        f.edge.post(f.base, R"({"name":"Dev","url":"https://self-signed.test","insecureSkipTlsVerify":true})",
                    f.edge.token);
    REQUIRE(r.status == 201);
    CHECK(r.json.at("insecureSkipTlsVerify") == true);
  }

  TEST_CASE("patching a check validates it together with the stored settings") {
    Fixture f;
    std::string id =
        f.edge.create("/pages/" + f.page + "/components/" + f.component + "/checks",
                      R"({"name":"Health","url":"https://api.acme.test/health","timeoutMs":40000})");
    auto r = f.edge.patch(f.base + "/" + id, R"({"intervalSeconds":15})", f.edge.token);
    CHECK(r.error() == "invalid_interval");
    // A 30 s interval is valid alone, but not with the stored 40 s timeout.
    r = f.edge.patch(f.base + "/" + id, R"({"intervalSeconds":30})", f.edge.token);
    CHECK(r.status == 422);
    CHECK(r.error() == "invalid_timeout");
    f.edge.clock.advance_ms(500);
    r = f.edge.patch(f.base + "/" + id,
                     R"({"intervalSeconds":30,"timeoutMs":10000,"method":"HEAD","name":"Head"})",
                     f.edge.token);
    REQUIRE(r.status == 200);
    CHECK(r.json.at("intervalSeconds") == 30);
    CHECK(r.json.at("method") == "HEAD");
    CHECK(r.json.at("name") == "Head");
    CHECK(r.json.at("url") == "https://api.acme.test/health");
    CHECK(r.json.at("updatedAt") == "2026-11-18T11:06:40.500Z");
    CHECK(f.edge.patch(f.base + "/" + id, R"({"expectedBodyContains":"x"})", f.edge.token).error() ==
          "invalid_expected_body");
    CHECK(f.edge.patch(f.base + "/chk_missing", R"({"name":"x"})", f.edge.token).error() ==
          "check_not_found");
    CHECK(f.edge.del(f.base + "/" + id, f.edge.token).status == 204);
    CHECK(f.edge.get(f.base + "/" + id, f.edge.token).error() == "check_not_found");
  }

  TEST_CASE("a check shows its latest probe and its recent results") {
    Fixture f;
    std::string id = f.edge.create("/pages/" + f.page + "/components/" + f.component + "/checks",
                                   R"({"name":"Health","url":"https://api.acme.test/health"})");
    const std::int64_t t0 = f.edge.clock.now_ms();
    f.edge.result(id, t0, ProbeStatus::operational, 120);
    f.edge.result(id, t0 + 60'000, ProbeStatus::down, 10000);
    f.edge.result(id, t0 + 120'000, ProbeStatus::down, 9000);
    // A result arriving late is kept but does not replace the newer state.
    f.edge.result(id, t0 + 30'000, ProbeStatus::degraded, 2500);
    auto got = f.edge.get(f.base + "/" + id, f.edge.token);
    REQUIRE(got.status == 200);
    CHECK(got.json.at("status") == "down");
    CHECK(got.json.at("lastLatencyMs") == 9000);
    CHECK(got.json.at("lastCheckedAt") == "2026-11-18T11:08:40.000Z");
    CHECK(got.json.at("consecutiveFailures") == 2);

    auto results = f.edge.get(f.base + "/" + id + "/results?limit=2", f.edge.token);
    REQUIRE(results.status == 200);
    CHECK(results.json == json::value(json::array{json::object{{"at", "2026-11-18T11:08:40.000Z"},
                                                               {"status", "down"},
                                                               {"reason", "unexpected_status"},
                                                               {"latencyMs", 9000},
                                                               {"httpStatus", 503}},
                                                  json::object{{"at", "2026-11-18T11:07:40.000Z"},
                                                               {"status", "down"},
                                                               {"reason", "unexpected_status"},
                                                               {"latencyMs", 10000},
                                                               {"httpStatus", 503}}}));
    CHECK(f.edge.get(f.base + "/" + id + "/results", f.edge.token).json.as_array().size() == 4);
    for (const char* bad : {"0", "1001", "x", "-1"}) {
      auto r = f.edge.get(f.base + "/" + id + "/results?limit=" + bad, f.edge.token);
      INFO(bad);
      CHECK(r.status == 422);
      CHECK(r.error() == "invalid_field");
    }
    // Recovery resets the failure count.
    f.edge.result(id, t0 + 180'000, ProbeStatus::operational, 80);
    CHECK(f.edge.get(f.base + "/" + id, f.edge.token).json.at("consecutiveFailures") == 0);
  }

  TEST_CASE("a view-only token reads checks but cannot write them") {
    Fixture f;
    std::string id = f.edge.create("/pages/" + f.page + "/components/" + f.component + "/checks",
                                   R"({"name":"Health","url":"https://api.acme.test/health"})");
    std::string viewer = f.edge.token_with("acme", {"status.view"});
    CHECK(f.edge.get(f.base + "/" + id, viewer).status == 200);
    CHECK(f.edge.get(f.base + "/" + id + "/results", viewer).status == 200);
    auto w = f.edge.post(f.base, R"({"name":"x","url":"https://x.test"})", viewer);
    CHECK(w.status == 403);
    CHECK(w.error() == "forbidden");
    CHECK(f.edge.patch(f.base + "/" + id, R"({"name":"x"})", viewer).status == 403);
    CHECK(f.edge.del(f.base + "/" + id, viewer).status == 403);
    CHECK(f.edge.get(f.base + "/" + id).status == 401);
  }
}
