// Access tokens under /api/companies/{slug}/access-tokens (permission api-keys.manage).

#include <doctest/doctest.h>

#include "core/crypto.h"
#include "test_edge.h"

using testing::TestEdge;

TEST_CASE("creating a token shows the plaintext once; listings show only the 12-character prefix") {
  TestEdge edge;
  auto created =
      edge.post("/api/companies/acme/access-tokens",
                R"({"name":"deploy bot","permissions":["storage.view","send.execute"]})", edge.acme_token);
  REQUIRE(created.status == 201);
  const auto& d = created.data().as_object();
  std::string token(d.at("token").as_string());
  CHECK(token.size() == 52);
  CHECK(token.rfind("stk_", 0) == 0);
  CHECK(d.at("tokenPrefix").as_string() == token.substr(0, 12));
  CHECK(d.at("name").as_string() == "deploy bot");
  CHECK(d.at("permissions") == core::json::array{"storage.view", "send.execute"});
  CHECK(d.at("createdAt").as_string() == "2026-11-18T11:06:40.000Z");
  CHECK(d.at("lastUsedAt").is_null());

  auto list = edge.get("/api/companies/acme/access-tokens", edge.acme_token);
  REQUIRE(list.status == 200);
  CHECK(list.data().as_array().size() == 2);
  CHECK(list.body.find(token) == std::string::npos);                    // never the plaintext again
  CHECK(list.body.find(core::sha256_hex(token)) == std::string::npos);  // nor its hash
  CHECK(list.body.find("\"token\"") == std::string::npos);
}

TEST_CASE("lastUsedAt records use without a write per request") {
  TestEdge edge;
  auto created =
      edge.post("/api/companies/acme/access-tokens", R"({"name":"t","permissions":[]})", edge.acme_token);
  std::string token(created.data().at("token").as_string());
  std::string id(created.data().at("id").as_string());
  edge.clock.advance_ms(5000);
  CHECK(edge.get("/api/companies/acme", token).status == 200);
  REQUIRE(edge.server->app().token_usage.flush(*edge.server->app().accounts).ok());
  auto list = edge.get("/api/companies/acme/access-tokens", edge.acme_token);
  bool found = false;
  for (auto& t : list.data().as_array()) {
    if (t.at("id").as_string() != id) continue;
    found = true;
    CHECK(t.at("lastUsedAt").as_string() == "2026-11-18T11:06:45.000Z");
  }
  CHECK(found);
}

TEST_CASE("a member token cannot hand out permissions it does not hold") {
  TestEdge edge;
  auto limited = edge.post("/api/companies/acme/access-tokens",
                           R"({"name":"keys","permissions":["api-keys.manage"]})", edge.acme_token);
  std::string token(limited.data().at("token").as_string());
  auto escalate = edge.post("/api/companies/acme/access-tokens",
                            R"({"name":"more","permissions":["api-keys.manage","members.manage"]})", token);
  CHECK(escalate.status == 403);
  CHECK(escalate.error() == "cannot grant permission 'members.manage' that the caller does not hold");
  auto same = edge.post("/api/companies/acme/access-tokens",
                        R"({"name":"same","permissions":["api-keys.manage"]})", token);
  CHECK(same.status == 201);
}

TEST_CASE("revoking is idempotent and keeps the first revocation time") {
  TestEdge edge;
  auto created =
      edge.post("/api/companies/acme/access-tokens", R"({"name":"t","permissions":[]})", edge.acme_token);
  std::string id(created.data().at("id").as_string());
  auto first = edge.del("/api/companies/acme/access-tokens/" + id, edge.acme_token);
  edge.clock.advance_ms(1000);
  auto second = edge.del("/api/companies/acme/access-tokens/" + id, edge.acme_token);
  CHECK(second.status == 200);
  CHECK(second.data().at("revokedAt") == first.data().at("revokedAt"));
  CHECK(edge.del("/api/companies/acme/access-tokens/tok_doesnotexist0000", edge.acme_token).status == 404);
}

TEST_CASE("lists page with limit and skip") {
  TestEdge edge;
  for (int i = 0; i < 3; ++i) {
    edge.clock.advance_ms(1);
    edge.post("/api/companies/acme/access-tokens",
              R"({"name":"t)" + std::to_string(i) + R"(","permissions":[]})", edge.acme_token);
  }
  auto page = edge.get("/api/companies/acme/access-tokens?limit=2&skip=1", edge.acme_token);
  REQUIRE(page.status == 200);
  CHECK(page.header("X-Total-Count") == "4");
  REQUIRE(page.data().as_array().size() == 2);
  CHECK(page.data().as_array()[0].at("name").as_string() == "t0");
  CHECK(page.data().as_array()[1].at("name").as_string() == "t1");
  auto bad = edge.get("/api/companies/acme/access-tokens?limit=0", edge.acme_token);
  CHECK(bad.status == 400);
  CHECK(bad.error() == "query parameter 'limit' must be an integer from 1 to 200");
  CHECK(edge.get("/api/companies/acme/access-tokens?limit=201", edge.acme_token).status == 400);
  CHECK(edge.get("/api/companies/acme/access-tokens?skip=-1", edge.acme_token).status == 400);
}
