// The env vault's history (docs/env-vault.md, "History, diff, rollback"): the version list with who, when and
// which key names changed; one version's key names and public flags; the diff between two versions (key
// names only, never values); rollback to a version as a new version, with baseVersion; bad version numbers.

#include "vault_support.h"

using namespace vault_test;

TEST_SUITE_BEGIN("vault");

namespace {
struct HistoryEdge : VaultEdge {
  std::string tok = token();
  std::string env_path = project_path() + "/environments/production";

  HistoryEdge() {
    REQUIRE(push(tok, R"({"variables":{"A":"a1","B":"b1","C":"c1"}})").status == 200);  // v1
    edge.clock.advance_ms(60'000);
    REQUIRE(push(tok, R"({"variables":{"A":"a2","D":{"value":"d","public":true}}})").status == 200);  // v2
    edge.clock.advance_ms(60'000);
    REQUIRE(push(tok, R"({"variables":{"A":"a2","D":{"value":"d","public":true}},"prune":true})").status ==
            200);  // v3
  }
};
}  // namespace

TEST_CASE("vault history: versions list number, time, actor and key names added, removed, changed") {
  HistoryEdge t;
  auto list = t.edge.get(t.env_path + "/versions", t.edge.acme_token);
  REQUIRE(list.status == 200);
  CHECK(list.header("X-Total-Count") == "3");
  const auto& v = list.data().as_array();
  REQUIRE(v.size() == 3);
  CHECK(num(v[0], "version") == 3);  // newest first
  CHECK(str(v[0], "at") == "2026-11-18T11:08:40.000Z");
  CHECK(str(v[0], "kind") == "push");
  CHECK(str(v[0].at("actor"), "kind") == "token");
  CHECK(core::to_json(v[0].at("removed")) == R"(["B","C"])");
  CHECK(core::to_json(v[1].at("added")) == R"(["D"])");
  CHECK(core::to_json(v[1].at("changed")) == R"(["A"])");
  CHECK(core::to_json(v[2].at("added")) == R"(["A","B","C"])");
  CHECK(num(v[2], "keys") == 3);
  CHECK(list.body.find("\"a1\"") == std::string::npos);

  auto one = t.edge.get(t.env_path + "/versions/2", t.edge.acme_token);
  REQUIRE(one.status == 200);
  CHECK(
      core::to_json(one.data().at("variables")) ==
      R"([{"key":"A","public":false},{"key":"B","public":false},{"key":"C","public":false},{"key":"D","public":true}])");
  CHECK(one.body.find("\"a2\"") == std::string::npos);
  CHECK(t.edge.get(t.env_path + "/versions/4", t.edge.acme_token).status == 404);
  CHECK(t.edge.get(t.env_path + "/versions/0", t.edge.acme_token).status == 404);
  CHECK(t.edge.get(t.env_path + "/versions/x", t.edge.acme_token).status == 404);
  CHECK(t.edge.get(t.project_path() + "/environments/nope/versions", t.edge.acme_token).status == 404);
  CHECK(t.edge.get(t.env_path + "/versions", t.edge.globex_token).status == 404);
}

TEST_CASE("vault diff: key names only between any two versions (0 is the empty start)") {
  HistoryEdge t;
  auto d = t.edge.get(t.env_path + "/diff?from=1&to=3", t.edge.acme_token);
  REQUIRE(d.status == 200);
  CHECK(core::to_json(d.data()) == R"({"from":1,"to":3,"added":["D"],"removed":["B","C"],"changed":["A"]})");
  auto back = t.edge.get(t.env_path + "/diff?from=3&to=1", t.edge.acme_token);
  CHECK(core::to_json(back.data()) ==
        R"({"from":3,"to":1,"added":["B","C"],"removed":["D"],"changed":["A"]})");
  auto from_start = t.edge.get(t.env_path + "/diff?from=0&to=1", t.edge.acme_token);
  CHECK(core::to_json(from_start.data()) ==
        R"({"from":0,"to":1,"added":["A","B","C"],"removed":[],"changed":[]})");
  for (std::string body : {std::string("\"a1\""), std::string("\"a2\""), std::string("\"b1\"")})
    CHECK(d.body.find(body) == std::string::npos);
  CHECK(t.edge.get(t.env_path + "/diff?from=1&to=9", t.edge.acme_token).status == 404);
  auto bad = t.edge.get(t.env_path + "/diff?from=1", t.edge.acme_token);
  CHECK(bad.status == 400);
  CHECK(bad.error() == "query parameters 'from' and 'to' must be version numbers (0 is the empty start)");
}

TEST_CASE("vault rollback: a new version with the old contents; baseVersion guards it") {
  HistoryEdge t;
  t.edge.clock.advance_ms(1);  // audit entries of one millisecond list in id order
  auto rb = t.edge.post(t.env_path + "/rollback", R"({"version":1,"baseVersion":3})", t.edge.acme_token);
  REQUIRE(rb.status == 201);
  t.edge.clock.advance_ms(1);
  CHECK(core::to_json(rb.data()) == R"({"version":4,"keys":3,"added":2,"changed":1,"removed":1})");
  CHECK(core::to_json(t.fetch(t.tok).data()) ==
        R"({"version":4,"variables":{"A":{"value":"a1","public":false},"B":{"value":"b1","public":false},)"
        R"("C":{"value":"c1","public":false}}})");
  t.edge.clock.advance_ms(1);
  auto v4 = t.edge.get(t.env_path + "/versions/4", t.edge.acme_token);
  CHECK(str(v4.data(), "kind") == "rollback");
  CHECK(num(v4.data(), "rolledBackTo") == 1);
  CHECK(str(v4.data().at("actor"), "kind") == "token");

  auto stale = t.edge.post(t.env_path + "/rollback", R"({"version":2,"baseVersion":3})", t.edge.acme_token);
  CHECK(stale.status == 409);
  CHECK(stale.error() == "baseVersion 3 is stale: the current version is 4");
  CHECK(stale.header("X-Vault-Version") == "4");
  CHECK(t.edge.post(t.env_path + "/rollback", R"({"version":9})", t.edge.acme_token).status == 404);
  CHECK(t.edge.post(t.env_path + "/rollback", R"({"version":"1"})", t.edge.acme_token).status == 400);
  CHECK(
      t.edge.post(t.env_path + "/rollback", R"({"version":1})", t.edge.token_with("acme", {"env-vault.view"}))
          .status == 403);
  t.edge.clock.advance_ms(1);
  CHECK(num(t.fetch(t.tok).data(), "version") == 4);

  auto audit = t.edge.get("/api/companies/acme/env-vault/audit", t.edge.acme_token);
  CHECK(str(audit.data().as_array()[1], "action") == "env-vault.fetch");
  CHECK(str(audit.data().as_array()[2], "action") == "env-vault.rollback");
}

TEST_SUITE_END();
