// The env vault over HTTP (spec document 2, "Env vault"; spec/DECISIONS.md; docs/env-vault.md): projects
// and environments through the management API, env tokens (shown once, hashed, revocable), push / fetch /
// public with prune, baseVersion and public filtering, key validation, encryption at rest (no plaintext in
// the LMDB file), the audit log, and compare-and-set under concurrent pushes.

#include <atomic>
#include <fstream>
#include <iterator>
#include <thread>

#include "core/crypto.h"
#include "edge/app.h"
#include "vault_support.h"

using testing::TestEdge;
using namespace vault_test;

TEST_SUITE_BEGIN("vault");

TEST_CASE("vault projects: create with the default or named environments, read, list, rename, delete") {
  TestEdge edge(unthrottled());
  auto made = edge.post(kProjects, R"({"name":"api"})", edge.acme_token);
  REQUIRE(made.status == 201);
  const std::string id = str(made.data(), "id");
  CHECK(id.rfind("vpr_", 0) == 0);
  CHECK(str(made.data(), "name") == "api");
  CHECK(str(made.data(), "createdAt") == "2026-11-18T11:06:40.000Z");
  const auto& envs = made.data().at("environments").as_array();
  REQUIRE(envs.size() == 3);  // in key order
  CHECK(str(envs[0], "name") == "development");
  CHECK(str(envs[1], "name") == "production");
  CHECK(str(envs[2], "name") == "staging");
  CHECK(num(envs[0], "version") == 0);

  edge.clock.advance_ms(1);  // ids are time-ordered: the list is oldest first
  auto named = edge.post(kProjects, R"({"name":"web","environments":["dev","prod"]})", edge.acme_token);
  REQUIRE(named.status == 201);
  CHECK(named.data().at("environments").as_array().size() == 2);

  auto list = edge.get(kProjects, edge.acme_token);
  REQUIRE(list.status == 200);
  CHECK(list.header("X-Total-Count") == "2");
  CHECK(str(list.data().as_array()[0], "name") == "api");

  auto renamed = edge.patch(kProjects + "/" + id, R"({"name":"backend"})", edge.acme_token);
  REQUIRE(renamed.status == 200);
  CHECK(str(renamed.data(), "name") == "backend");
  CHECK(str(renamed.data(), "updatedAt") == "2026-11-18T11:06:40.001Z");
  CHECK(str(edge.get(kProjects + "/" + id, edge.acme_token).data(), "name") == "backend");

  auto env = edge.post(kProjects + "/" + id + "/environments", R"({"name":"qa"})", edge.acme_token);
  REQUIRE(env.status == 201);
  CHECK(str(env.data(), "name") == "qa");
  CHECK(edge.post(kProjects + "/" + id + "/environments", R"({"name":"qa"})", edge.acme_token).status == 409);
  CHECK(edge.get(kProjects + "/" + id + "/environments/qa", edge.acme_token).status == 200);
  CHECK(edge.del(kProjects + "/" + id + "/environments/qa", edge.acme_token).status == 200);
  CHECK(edge.get(kProjects + "/" + id + "/environments/qa", edge.acme_token).status == 404);

  CHECK(edge.del(kProjects + "/" + id, edge.acme_token).status == 200);
  auto gone = edge.get(kProjects + "/" + id, edge.acme_token);
  CHECK(gone.status == 404);
  CHECK(gone.error() == "vault project not found");
  CHECK(edge.get(kProjects, edge.acme_token).header("X-Total-Count") == "1");
}

TEST_CASE("vault projects: bad input answers 400 and creates nothing") {
  TestEdge edge(unthrottled());
  struct Bad {
    const char* body;
    const char* error;
  };
  for (const Bad& b : {
           Bad{R"({})", "field 'name' is required"},
           Bad{R"({"name":""})", "'name' must be a string of 1 to 100 characters"},
           Bad{R"({"name":"x","environments":[]})", "'environments' must name at least one environment"},
           Bad{R"({"name":"x","environments":["Prod"]})", "environment name must match"},
           Bad{R"({"name":"x","environments":["a","a"]})", "environment 'a' is named twice"},
           Bad{R"(not json)", ""},
       }) {
    CAPTURE(b.body);
    auto r = edge.post(kProjects, b.body, edge.acme_token);
    CHECK(r.status == 400);
    CHECK(r.error().find(b.error) != std::string::npos);
    CHECK(r.json.at("data").is_null());
  }
  CHECK(edge.get(kProjects, edge.acme_token).header("X-Total-Count") == "0");
}

TEST_CASE("vault projects: another company's project is 404; permissions are env-vault.view / manage") {
  VaultEdge t;
  auto other = t.edge.get(t.project_path(), t.edge.globex_token);
  CHECK(other.status == 404);  // globex's token on acme's slug
  auto cross = t.edge.get("/api/companies/globex/env-vault/projects/" + t.project, t.edge.globex_token);
  CHECK(cross.status == 404);  // globex's slug, acme's project id
  CHECK(cross.error() == "vault project not found");
  CHECK(t.edge
            .post("/api/companies/globex/env-vault/projects/" + t.project + "/tokens",
                  R"({"name":"x","environment":"production"})", t.edge.globex_token)
            .status == 404);

  const std::string viewer = t.edge.token_with("acme", {"env-vault.view"});
  CHECK(t.edge.get(t.project_path(), viewer).status == 200);
  CHECK(t.edge.get(t.project_path() + "/tokens", viewer).status == 200);
  auto denied = t.edge.post(kProjects, R"({"name":"x"})", viewer);
  CHECK(denied.status == 403);
  CHECK(denied.error() == "access token lacks permission 'env-vault.manage'");
  const std::string nothing = t.edge.token_with("acme", {"storage.view"});
  CHECK(t.edge.get(kProjects, nothing).status == 403);
  const std::string manager = t.edge.token_with("acme", {"env-vault.manage"});
  CHECK(t.edge.get(kProjects, manager).status == 200);  // manage grants view
  CHECK(t.edge.get(kProjects).status == 401);
}

TEST_CASE("vault tokens: shown once, stored as SHA-256 only, listed with prefix and last use, revocable") {
  VaultEdge t;
  auto made = t.edge.post(t.project_path() + "/tokens", R"({"name":"ci","environment":"staging"})",
                          t.edge.acme_token);
  REQUIRE(made.status == 201);
  const std::string plaintext = str(made.data(), "token");
  CHECK(plaintext.rfind("stk_env_", 0) == 0);
  CHECK(plaintext.size() == 8 + 48);
  CHECK(str(made.data(), "tokenPrefix") == plaintext.substr(0, 12));
  CHECK(str(made.data(), "environment") == "staging");
  CHECK(str(made.data(), "access") == "full");
  CHECK(made.data().at("lastUsedAt").is_null());
  const std::string id = str(made.data(), "id");

  // Stored: the hash, never the plaintext.
  auto& app = t.edge.server->app();
  bool saw_hash = false, saw_plain = false;
  REQUIRE(app.kv
              ->read([&](const store::ReadTxn& txn) -> core::Status {
                txn.scan(app.vault_table, "", [&](std::string_view k, std::string_view v) {
                  saw_plain = saw_plain || k.find(plaintext) != std::string_view::npos ||
                              v.find(plaintext) != std::string_view::npos;
                  saw_hash = saw_hash || k == "th/" + core::sha256_hex(plaintext);
                  return true;
                });
                return {};
              })
              .ok());
  CHECK(saw_hash);
  CHECK_FALSE(saw_plain);

  t.edge.clock.advance_ms(5000);
  REQUIRE(t.fetch(plaintext).status == 200);
  auto list = t.edge.get(t.project_path() + "/tokens", t.edge.acme_token);
  REQUIRE(list.status == 200);
  REQUIRE(list.data().as_array().size() == 1);
  const auto& listed = list.data().as_array()[0];
  CHECK_FALSE(listed.as_object().contains("token"));
  CHECK_FALSE(listed.as_object().contains("tokenHash"));
  CHECK(str(listed, "tokenPrefix") == plaintext.substr(0, 12));
  CHECK(str(listed, "lastUsedAt") == "2026-11-18T11:06:45.000Z");

  auto revoked = t.edge.del(t.project_path() + "/tokens/" + id, t.edge.acme_token);
  REQUIRE(revoked.status == 200);
  CHECK(str(revoked.data(), "revokedAt") == "2026-11-18T11:06:45.000Z");
  auto refused = t.fetch(plaintext);
  CHECK(refused.status == 401);
  CHECK(refused.error() == "env vault token revoked");
  CHECK(refused.header("WWW-Authenticate") == "Bearer");

  CHECK(t.edge.post(t.project_path() + "/tokens", R"({"name":"x","environment":"nope"})", t.edge.acme_token)
            .status == 400);
  CHECK(t.edge
            .post(t.project_path() + "/tokens", R"({"name":"x","environment":"staging","access":"root"})",
                  t.edge.acme_token)
            .status == 400);
}

TEST_CASE("vault push/fetch: versions, prune, public filtering, key counts") {
  VaultEdge t;
  const std::string tok = t.token();
  auto empty = t.fetch(tok);
  REQUIRE(empty.status == 200);
  CHECK(core::to_json(empty.data()) == R"({"version":0,"variables":{}})");

  auto first = t.push(
      tok,
      R"({"variables":{"DB_URL":{"value":"postgres://db"},"API_BASE":{"value":"https://api","public":true},"TOKEN":"s3cret"}})");
  REQUIRE(first.status == 200);
  CHECK(core::to_json(first.data()) == R"({"version":1,"keys":3,"added":3,"changed":0,"removed":0})");
  CHECK(first.header("X-Vault-Version") == "1");

  auto fetched = t.fetch(tok);
  REQUIRE(fetched.status == 200);
  CHECK(core::to_json(fetched.data()) ==
        R"({"version":1,"variables":{"API_BASE":{"value":"https://api","public":true},)"
        R"("DB_URL":{"value":"postgres://db","public":false},"TOKEN":{"value":"s3cret","public":false}}})");

  // Without prune, absent keys stay.
  auto second = t.push(tok, R"({"variables":{"TOKEN":"rotated","NEW":"n"}})");
  REQUIRE(second.status == 200);
  CHECK(core::to_json(second.data()) == R"({"version":2,"keys":4,"added":1,"changed":1,"removed":0})");
  // With prune, absent keys go.
  auto third = t.push(
      tok, R"({"variables":{"API_BASE":{"value":"https://api","public":true},"NEW":"n"},"prune":true})");
  REQUIRE(third.status == 200);
  CHECK(core::to_json(third.data()) == R"({"version":3,"keys":2,"added":0,"changed":0,"removed":2})");
  CHECK(
      core::to_json(t.fetch(tok).data()) ==
      R"({"version":3,"variables":{"API_BASE":{"value":"https://api","public":true},"NEW":{"value":"n","public":false}}})");
  // Every push makes a version, even one that changes nothing.
  auto same = t.push(tok, R"({"variables":{}})");
  CHECK(core::to_json(same.data()) == R"({"version":4,"keys":2,"added":0,"changed":0,"removed":0})");

  // public: only the public keys, CORS open.
  auto pub = t.edge.send("GET", "/api/env-vault/public", "",
                         {{"Authorization", "Bearer " + tok}, {"Origin", "https://app.example"}});
  REQUIRE(pub.status == 200);
  CHECK(core::to_json(pub.data()) ==
        R"({"version":4,"variables":{"API_BASE":{"value":"https://api","public":true}}})");
  CHECK(pub.header("Access-Control-Allow-Origin") == "*");
  auto preflight = t.edge.send("OPTIONS", "/api/env-vault/public", "",
                               {{"Origin", "https://app.example"},
                                {"Access-Control-Request-Method", "GET"},
                                {"Access-Control-Request-Headers", "authorization"}});
  CHECK(preflight.status == 204);
  CHECK(preflight.header("Access-Control-Allow-Origin") == "*");
  CHECK(preflight.header("Access-Control-Allow-Headers") == "Authorization");
  CHECK(preflight.header("Access-Control-Allow-Methods") == "GET, OPTIONS");
  auto pub_denied = t.edge.get("/api/env-vault/public", "stk_env_" + std::string(48, '0'));
  CHECK(pub_denied.status == 401);
  CHECK(pub_denied.header("Access-Control-Allow-Origin") == "*");

  // Each token sees its own environment only.
  const std::string staging = t.token("staging");
  CHECK(core::to_json(t.fetch(staging).data()) == R"({"version":0,"variables":{}})");
}

TEST_CASE("vault push: a stale baseVersion answers 409 with the current version and changes nothing") {
  VaultEdge t;
  const std::string tok = t.token();
  REQUIRE(t.push(tok, R"({"variables":{"A":"1"},"baseVersion":0})").status == 200);
  REQUIRE(t.push(tok, R"({"variables":{"A":"2"},"baseVersion":1})").status == 200);
  auto stale = t.push(tok, R"({"variables":{"A":"3"},"baseVersion":1})");
  CHECK(stale.status == 409);
  CHECK(stale.error() == "baseVersion 1 is stale: the current version is 2");
  CHECK(stale.header("X-Vault-Version") == "2");
  CHECK(stale.json.at("data").is_null());
  CHECK(core::to_json(t.fetch(tok).data()) ==
        R"({"version":2,"variables":{"A":{"value":"2","public":false}}})");
}

TEST_CASE("vault push: bad keys, values and bodies answer 400 and change nothing") {
  VaultEdge t;
  const std::string tok = t.token();
  REQUIRE(t.push(tok, R"({"variables":{"A":"1"}})").status == 200);
  struct Bad {
    std::string body;
    std::string error;
  };
  for (const Bad& b : std::vector<Bad>{
           {R"({"variables":{"9A":"x"}})", "variable name '9A' must match [A-Za-z_][A-Za-z0-9_]*"},
           {R"({"variables":{"A-B":"x"}})", "variable name 'A-B' must match"},
           {R"({"variables":{"":"x"}})", "a variable name must not be empty"},
           {R"({"variables":{"A":{"value":7}}})", "variables.A.value must be a string"},
           {R"({"variables":{"A":"x"},"baseVersion":"1"})", "'baseVersion' must be a non-negative integer"},
           {R"({"vars":{}})", "'variables' must be an object"},
           {R"({"variables":{"BIG":")" + std::string(32 * 1024 + 1, 'x') + R"("}})",
            "longer than 32768 bytes"},
           {"[1]", ""},
       }) {
    CAPTURE(b.error);
    auto r = t.push(tok, b.body);
    CHECK(r.status == 400);
    CHECK(r.error().find(b.error) != std::string::npos);
  }
  CHECK(num(t.fetch(tok).data(), "version") == 1);
}

TEST_CASE(
    "vault token API: 401 for missing, malformed and unknown tokens; 403 for a token without the access") {
  VaultEdge t;
  auto none = t.edge.post("/api/env-vault/fetch", "");
  CHECK(none.status == 401);
  CHECK(none.error() == "missing env vault token (Authorization: Bearer stk_env_...)");
  CHECK(t.fetch("stk_" + std::string(48, 'a')).error() == "malformed env vault token");  // an access token
  CHECK(t.fetch(t.edge.acme_token).status == 401);
  auto unknown = t.fetch("stk_env_" + std::string(48, 'a'));
  CHECK(unknown.status == 401);
  CHECK(unknown.error() == "unknown env vault token");

  const std::string reader = t.token("production", "read");
  auto no_push = t.push(reader, R"({"variables":{"A":"1"}})");
  CHECK(no_push.status == 403);
  CHECK(no_push.error() == "this env vault token has access 'read' and cannot push");
  CHECK(t.fetch(reader).status == 200);
  const std::string browser = t.token("production", "public");
  CHECK(t.fetch(browser).status == 403);
  CHECK(t.edge.get("/api/env-vault/public", browser).status == 200);
}

TEST_CASE("vault: values are sealed at rest; the LMDB file holds no plaintext") {
  std::string data_dir;
  const std::string secret = "plaintext-canary-7f3a9c";
  {
    VaultEdge t;
    data_dir = t.edge.dir.path + "/data";
    const std::string tok = t.token();
    REQUIRE(t.push(tok, R"({"variables":{"CANARY":")" + secret + R"(","PUB":{"value":")" + secret +
                            R"(-public","public":true}}})")
                .status == 200);
    REQUIRE(t.push(tok, R"({"variables":{"OTHER":"x"}})").status == 200);
    REQUIRE(t.fetch(tok).status == 200);
    t.edge.server->stop();
    std::ifstream in(data_dir + "/data.mdb", std::ios::binary);
    REQUIRE(in.good());
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(bytes.size() > 0);
    CHECK(bytes.find("CANARY") != std::string::npos);  // key names are not secret
    CHECK(bytes.find(secret) == std::string::npos);
  }
}

TEST_CASE("vault: every push and fetch is audited without plaintext") {
  VaultEdge t;
  // Entries of one millisecond list in id order: the clock moves between the steps.
  t.edge.clock.advance_ms(1);
  const std::string tok = t.token();
  t.edge.clock.advance_ms(1);
  REQUIRE(t.push(tok, R"({"variables":{"A":"value-one","B":{"value":"value-two","public":true}}})").status ==
          200);
  t.edge.clock.advance_ms(1);
  REQUIRE(t.fetch(tok).status == 200);
  t.edge.clock.advance_ms(1);
  REQUIRE(t.edge.get("/api/env-vault/public", tok).status == 200);
  auto audit = t.edge.get("/api/companies/acme/env-vault/audit", t.edge.acme_token);
  REQUIRE(audit.status == 200);
  const auto& entries = audit.data().as_array();
  REQUIRE(entries.size() == 5);  // newest first
  CHECK(str(entries[0], "action") == "env-vault.public");
  CHECK(str(entries[1], "action") == "env-vault.fetch");
  CHECK(str(entries[2], "action") == "env-vault.push");
  CHECK(str(entries[3], "action") == "env-vault.token.create");
  CHECK(str(entries[4], "action") == "env-vault.project.create");
  const auto& push = entries[2].as_object();
  CHECK(str(push.at("actor"), "kind") == "token");
  CHECK(str(push.at("actor"), "id").rfind("vtk_", 0) == 0);
  CHECK(core::to_json(push.at("details")) ==
        R"({"projectId":")" + t.project +
            R"(","environment":"production","version":1,"added":["A","B"],"removed":[],"changed":[]})");
  CHECK(core::to_json(entries[1].at("details")) ==
        R"({"projectId":")" + t.project + R"(","environment":"production","version":1,"keys":["A","B"]})");
  CHECK(core::to_json(entries[0].at("details").at("keys")) == R"(["B"])");
  CHECK(audit.body.find("value-one") == std::string::npos);
  CHECK(audit.body.find("value-two") == std::string::npos);
  CHECK(
      t.edge.get("/api/companies/acme/env-vault/audit", t.edge.token_with("acme", {"storage.view"})).status ==
      403);
}

TEST_CASE("vault push: of N concurrent pushes with the same baseVersion exactly one wins") {
  VaultEdge t;
  const std::string tok = t.token();
  REQUIRE(t.push(tok, R"({"variables":{"SEED":"0"}})").status == 200);
  constexpr int kPushers = 12;
  std::atomic<int> won{0}, conflicted{0}, other{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kPushers; ++i)
    threads.emplace_back([&, i] {
      httplib::Client c("127.0.0.1", t.edge.server->port());
      auto res = c.Post("/api/env-vault/push", {{"Authorization", "Bearer " + tok}},
                        R"({"variables":{"WINNER":")" + std::to_string(i) + R"("},"baseVersion":1})",
                        "application/json");
      if (!res) {
        ++other;
      } else if (res->status == 200) {
        ++won;
      } else if (res->status == 409 && res->get_header_value("X-Vault-Version") == "2") {
        ++conflicted;
      } else {
        ++other;
      }
    });
  for (auto& th : threads) th.join();
  CHECK(won == 1);
  CHECK(conflicted == kPushers - 1);
  CHECK(other == 0);
  auto now = t.fetch(tok);
  CHECK(num(now.data(), "version") == 2);
  CHECK(now.data().at("variables").as_object().size() == 2);
}

TEST_SUITE_END();
