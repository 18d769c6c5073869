// Every error the platform middleware answers, in the envelope of document 2: {"data": null, "error": "..."}.

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "test_edge.h"

using testing::TestEdge;

TEST_CASE("a request without a token answers 401 with WWW-Authenticate and the envelope") {
  TestEdge edge;
  auto r = edge.get("/api/companies/acme");
  CHECK(r.status == 401);
  CHECK(r.body == R"({"data":null,"error":"missing access token"})");
  CHECK(r.header("WWW-Authenticate") == "Bearer");
  CHECK(r.header("Content-Type") == "application/json");
}

TEST_CASE("malformed Authorization headers and tokens answer 401") {
  TestEdge edge;
  auto scheme = edge.send("GET", "/api/companies/acme", "", {{"Authorization", "Token " + edge.acme_token}});
  CHECK(scheme.status == 401);
  CHECK(scheme.error() == "malformed Authorization header; expected 'Bearer stk_...'");
  auto short_token = edge.get("/api/companies/acme", "stk_abc");
  CHECK(short_token.status == 401);
  CHECK(short_token.error() == "malformed access token");
  std::string upper = edge.acme_token;
  for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  CHECK(edge.get("/api/companies/acme", upper).error() == "malformed access token");
  auto bare = edge.send("GET", "/api/companies/acme", "", {{"Authorization", "Bearer "}});
  CHECK(bare.status == 401);
}

TEST_CASE("an unknown token of the right shape answers 401") {
  TestEdge edge;
  auto r = edge.get("/api/companies/acme", "stk_" + std::string(48, 'a'));
  CHECK(r.status == 401);
  CHECK(r.error() == "unknown access token");
}

TEST_CASE("a revoked token answers 401 from the next request on") {
  TestEdge edge;
  auto created = edge.post("/api/companies/acme/access-tokens",
                           R"({"name":"ci","permissions":["storage.view"]})", edge.acme_token);
  REQUIRE(created.status == 201);
  std::string token(created.data().at("token").as_string());
  std::string id(created.data().at("id").as_string());
  CHECK(edge.get("/api/companies/acme", token).status == 200);
  auto revoked = edge.del("/api/companies/acme/access-tokens/" + id, edge.acme_token);
  CHECK(revoked.status == 200);
  CHECK(revoked.data().at("revokedAt").is_string());
  auto after = edge.get("/api/companies/acme", token);
  CHECK(after.status == 401);
  CHECK(after.error() == "access token has been revoked");
}

TEST_CASE("another company's slug, an unknown slug and another company's ids answer 404") {
  TestEdge edge;
  auto foreign = edge.get("/api/companies/globex", edge.acme_token);
  CHECK(foreign.status == 404);
  CHECK(foreign.error() == "company not found");
  auto unknown = edge.get("/api/companies/nope", edge.acme_token);
  CHECK(unknown.status == 404);
  CHECK(unknown.error() == "company not found");
  // A globex token id revoked through acme's path does not exist there.
  auto globex_tokens = edge.get("/api/companies/globex/access-tokens", edge.globex_token);
  REQUIRE(globex_tokens.status == 200);
  std::string globex_id(globex_tokens.data().as_array().at(0).at("id").as_string());
  auto cross = edge.del("/api/companies/acme/access-tokens/" + globex_id, edge.acme_token);
  CHECK(cross.status == 404);
  CHECK(cross.error() == "access token not found");
  CHECK(edge.get("/api/companies/globex", edge.globex_token).status == 200);  // still live
}

TEST_CASE("a token without the route's permission answers 403") {
  TestEdge edge;
  auto created = edge.post("/api/companies/acme/access-tokens",
                           R"({"name":"viewer","permissions":["storage.view"]})", edge.acme_token);
  REQUIRE(created.status == 201);
  std::string token(created.data().at("token").as_string());
  auto r = edge.get("/api/companies/acme/members", token);
  CHECK(r.status == 403);
  CHECK(r.body == R"({"data":null,"error":"access token lacks permission 'members.manage'"})");
  CHECK(edge.get("/api/companies/acme/access-tokens", token).status == 403);
  CHECK(edge.get("/api/companies/acme", token).status == 200);  // needs no permission
}

TEST_CASE("malformed JSON, non-object bodies, wrong types and missing fields answer 400") {
  TestEdge edge;
  const std::string path = "/api/companies/acme/access-tokens";
  auto bad = edge.post(path, R"({"name": "x", )", edge.acme_token);
  CHECK(bad.status == 400);
  CHECK(bad.body == R"({"data":null,"error":"request body is not valid JSON"})");
  CHECK(edge.post(path, "", edge.acme_token).error() == "request body is not valid JSON");
  auto array = edge.post(path, "[1,2]", edge.acme_token);
  CHECK(array.status == 400);
  CHECK(array.error() == "request body must be a JSON object");
  auto wrong_type = edge.post(path, R"({"name": 5, "permissions": []})", edge.acme_token);
  CHECK(wrong_type.status == 400);
  CHECK(wrong_type.error() == "field 'name' must be a string");
  auto wrong_elem = edge.post(path, R"({"name": "x", "permissions": ["storage.view", 3]})", edge.acme_token);
  CHECK(wrong_elem.status == 400);
  CHECK(wrong_elem.error() == "field 'permissions' must be an array of strings");
  auto missing = edge.post(path, R"({"permissions": []})", edge.acme_token);
  CHECK(missing.status == 400);
  CHECK(missing.error() == "field 'name' is required");
  auto unknown_perm =
      edge.post(path, R"({"name": "x", "permissions": ["root.everything"]})", edge.acme_token);
  CHECK(unknown_perm.status == 400);
  CHECK(unknown_perm.error() == "unknown permission 'root.everything'");
  // Nothing was created by any of these.
  CHECK(edge.get(path, edge.acme_token).data().as_array().size() == 1);
}

TEST_CASE("a body over the configured limit answers 413 in the envelope and changes nothing") {
  edge::Config config;
  config.max_json_body = 256;
  TestEdge edge(config);
  std::string big = R"({"name":")" + std::string(300, 'x') + R"(","permissions":[]})";
  auto r = edge.post("/api/companies/acme/access-tokens", big, edge.acme_token);
  CHECK(r.status == 413);
  CHECK(r.body == R"({"data":null,"error":"request body too large"})");
  CHECK(edge.get("/api/companies/acme/access-tokens", edge.acme_token).data().as_array().size() == 1);
}

TEST_CASE("the per-token rate limit answers 429 with Retry-After and recovers with time") {
  edge::Config config;
  config.rate_limit = {3, 1000};
  TestEdge edge(config);
  for (int i = 0; i < 3; ++i) CHECK(edge.get("/api/companies/acme", edge.acme_token).status == 200);
  auto limited = edge.get("/api/companies/acme", edge.acme_token);
  CHECK(limited.status == 429);
  CHECK(limited.header("Retry-After") == "1");
  CHECK(limited.error() == "rate limit exceeded; retry after 1 s");
  CHECK(edge.get("/api/companies/globex", edge.globex_token).status == 200);  // other tokens unaffected
  edge.clock.advance_ms(334);  // one request regained every 333.3 ms
  CHECK(edge.get("/api/companies/acme", edge.acme_token).status == 200);
  CHECK(edge.get("/api/companies/acme", edge.acme_token).status == 429);
}

TEST_CASE("unknown paths and methods answer in the envelope under /api/ and as pages elsewhere") {
  TestEdge edge;
  auto api = edge.get("/api/nothing-here");
  CHECK(api.status == 404);
  CHECK(api.body == R"({"data":null,"error":"not found"})");
  auto method = edge.send("PUT", "/api/companies/acme/access-tokens", "{}", {});
  CHECK(method.status == 405);
  CHECK(method.header("Allow") == "GET, POST");
  auto page = edge.get("/nothing-here");
  CHECK(page.status == 404);
  CHECK(page.header("Content-Type") == "text/html; charset=utf-8");
}

TEST_CASE("health check and static files without path traversal") {
  TestEdge edge;
  auto health = edge.get("/healthz");
  CHECK(health.status == 200);
  CHECK(health.body == R"({"status":"ok"})");
  CHECK(edge.get("/web/../CMakeLists.txt").status == 404);
  CHECK(edge.get("/web/%2e%2e/CMakeLists.txt").status == 404);
  CHECK(edge.get("/web/.hidden").status == 404);
}

TEST_CASE("a folder's address serves its index.html with the page headers; other files without them") {
  testing::TempDir web;
  std::filesystem::create_directories(web.path + "/till");
  std::ofstream(web.path + "/till/index.html") << "<!doctype html><title>Till</title>";
  std::ofstream(web.path + "/till/app.js") << "export {};";
  edge::Config config;
  config.web_root = web.path;
  TestEdge edge(config);

  auto folder = edge.get("/web/till/");
  CHECK(folder.status == 200);
  CHECK(folder.body == "<!doctype html><title>Till</title>");
  CHECK(folder.header("Content-Type") == "text/html; charset=utf-8");
  CHECK(folder.header("Content-Security-Policy").find("worker-src 'self'") != std::string::npos);
  CHECK(folder.header("X-Frame-Options") == "DENY");
  auto script = edge.get("/web/till/app.js");
  CHECK(script.status == 200);
  CHECK(script.header("Content-Type") == "text/javascript; charset=utf-8");
  CHECK(script.header("Content-Security-Policy").empty());
  // Only a trailing slash names the folder; a folder without index.html is not listed.
  CHECK(edge.get("/web/till").status == 404);
  CHECK(edge.get("/web/").status == 404);
  CHECK(edge.get("/web/.hidden/").status == 404);
}
