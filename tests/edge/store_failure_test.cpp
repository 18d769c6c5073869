// A disk that fails a flush (issue 10, item 6): the edge stops taking writes instead of acknowledging on a
// disk that lied once, /healthz says so with the reason, clients get a generic 500 without the engine's text,
// reads keep working, and a restart on a healthy disk finds every acknowledged write and none of the failed.

#include <doctest/doctest.h>
#include <httplib.h>
#include <signal.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "core/json.h"
#include "edge_process.h"
#include "test_edge.h"

namespace {
namespace json = core::json;

json::value parse(const std::string& text) {
  auto v = core::parse_json(text);
  REQUIRE_MESSAGE(v.ok(), "not JSON: " << text);
  return *v;
}

std::string demo_token(const std::string& data_dir) {
  std::ifstream creds(data_dir + "/demo-credentials.json");
  std::stringstream buf;
  buf << creds.rdbuf();
  return std::string(parse(buf.str()).at("accessToken").as_string());
}

}  // namespace

TEST_CASE("after a failed flush the edge refuses writes, reports not ready and keeps what it acknowledged") {
  testing::TempDir dir;
  const std::string data = dir.path + "/data", flag = dir.path + "/disk-fails";
  const std::string categories = "/api/restaurant/companies/demo/categories";
  std::string token;
  {
    testing::EdgeProcess edge(dir.path, data, {"--demo"},
                              {std::string("LD_PRELOAD=") + FAILING_FSYNC_LIB, "FAILING_FSYNC_FLAG=" + flag});
    token = demo_token(data);
    httplib::Client client("127.0.0.1", edge.port);
    const httplib::Headers bearer{{"Authorization", "Bearer " + token}};

    auto before = client.Post(categories, bearer, R"({"name":"Kept"})", "application/json");
    REQUIRE(before);
    REQUIRE(before->status == 201);
    auto health = client.Get("/healthz");
    REQUIRE(health);
    CHECK(health->status == 200);

    { std::ofstream(flag) << "x"; }
    auto failed = client.Post(categories, bearer, R"({"name":"Lost"})", "application/json");
    REQUIRE(failed);
    CHECK(failed->status == 500);
    const json::value body = parse(failed->body);
    CHECK(body.at("error").as_string() == "storage_error");
    CHECK(body.at("message").as_string() ==
          "the server could not complete the request; the details are in the server log");
    CHECK(failed->body.find("Input/output") == std::string::npos);

    // The platform API answers in its envelope, with the same generic sentence.
    auto token = client.Post("/api/companies/demo/access-tokens", bearer,
                             R"({"name":"ci","permissions":["storage.view"]})", "application/json");
    REQUIRE(token);
    CHECK(token->status == 500);
    const json::value envelope = parse(token->body);
    CHECK(envelope.at("data").is_null());
    CHECK(envelope.at("error").as_string() ==
          "the server could not complete the request; the details are in the server log");

    health = client.Get("/healthz");
    REQUIRE(health);
    CHECK(health->status == 503);
    const json::value status = parse(health->body);
    CHECK(status.at("status").as_string() == "unavailable");
    CHECK(std::string(status.at("reason").as_string()).find("Input/output error") != std::string::npos);

    // A healthy disk again changes nothing: a flush that failed once may have dropped pages it had taken.
    std::remove(flag.c_str());
    auto after = client.Post(categories, bearer, R"({"name":"Refused"})", "application/json");
    REQUIRE(after);
    CHECK(after->status == 500);
    health = client.Get("/healthz");
    REQUIRE(health);
    CHECK(health->status == 503);
    // Reads still work.
    auto listed = client.Get(categories, bearer);
    REQUIRE(listed);
    CHECK(listed->status == 200);

    const std::string log = edge.log();
    CHECK(log.find("Input/output error") != std::string::npos);  // the detail is for the operator
    edge.stop(SIGTERM);
  }

  testing::EdgeProcess restarted(dir.path, data);
  httplib::Client client("127.0.0.1", restarted.port);
  auto health = client.Get("/healthz");
  REQUIRE(health);
  CHECK(health->status == 200);
  auto listed = client.Get(categories, {{"Authorization", "Bearer " + token}});
  REQUIRE(listed);
  REQUIRE(listed->status == 200);
  std::vector<std::string> names;
  const json::value categories_now = parse(listed->body);
  for (const auto& c : categories_now.at("data").as_array()) names.emplace_back(c.at("name").as_string());
  CHECK(std::count(names.begin(), names.end(), "Kept") == 1);
  CHECK(std::count(names.begin(), names.end(), "Lost") == 0);
  CHECK(std::count(names.begin(), names.end(), "Refused") == 0);
}
