// The executables as an operator runs them: edge-admin against a data directory, and edge started,
// used and stopped with SIGTERM.

#include <doctest/doctest.h>
#include <httplib.h>
#include <signal.h>
#include <sys/wait.h>

#include <fstream>
#include <sstream>

#include "core/json.h"
#include "edge_process.h"
#include "test_edge.h"

namespace {
namespace json = core::json;
using testing::run;

json::value parse(const std::string& text) {
  auto v = core::parse_json(text);
  REQUIRE_MESSAGE(v.ok(), "not JSON: " << text);
  return *v;
}

}  // namespace

TEST_CASE("edge-admin creates and lists companies, users, members and tokens as JSON") {
  testing::TempDir dir;
  std::string admin = std::string(EDGE_ADMIN_BIN) + " --json --data-dir " + dir.path + " ";
  auto company = run(admin + "company create --slug lokanta --name 'Lokanta A.S.'");
  REQUIRE(company.exit_code == 0);
  CHECK(parse(company.out).at("slug").as_string() == "lokanta");
  auto dup = run(admin + "company create --slug lokanta --name Again");
  CHECK(dup.exit_code == 1);
  CHECK(parse(dup.out).at("code").as_string() == "conflict");

  auto user = run("echo 'a good password' | " + admin +
                  "user create --email chef@lokanta.test --name Chef --password-stdin");
  REQUIRE(user.exit_code == 0);
  CHECK(parse(user.out).at("email").as_string() == "chef@lokanta.test");
  auto member = run(admin + "member add --company lokanta --email chef@lokanta.test --role owner");
  REQUIRE(member.exit_code == 0);
  CHECK(parse(member.out).at("role").as_string() == "owner");

  auto token = run(admin + "token create --company lokanta --name pos --permission restaurant.manage");
  REQUIRE(token.exit_code == 0);
  json::value t = parse(token.out);
  std::string plaintext(t.at("token").as_string());
  CHECK(plaintext.size() == 52);
  auto list = run(admin + "token list --company lokanta");
  REQUIRE(list.exit_code == 0);
  json::value tokens = parse(list.out);
  REQUIRE(tokens.as_array().size() == 1);
  CHECK(tokens.as_array()[0].at("tokenPrefix").as_string() == plaintext.substr(0, 12));
  CHECK(list.out.find(plaintext) == std::string::npos);

  auto revoked = run(admin + "token revoke --company lokanta --id " + std::string(t.at("id").as_string()));
  REQUIRE(revoked.exit_code == 0);
  CHECK(parse(revoked.out).at("revokedAt").is_string());
  auto members = run(admin + "member list --company lokanta");
  CHECK(parse(members.out).as_array().size() == 1);
  auto bad = run(admin + "member add --company nowhere --email chef@lokanta.test");
  CHECK(bad.exit_code == 1);
  CHECK(parse(bad.out).at("code").as_string() == "not_found");
}

TEST_CASE("edge serves on the port it reports and stops cleanly on SIGTERM") {
  testing::TempDir dir;
  testing::EdgeProcess edge(dir.path, dir.path + "/data", {"--demo"});
  httplib::Client client("127.0.0.1", edge.port);
  auto health = client.Get("/healthz");
  REQUIRE(health);
  CHECK(health->status == 200);

  std::ifstream creds(dir.path + "/data/demo-credentials.json");
  std::stringstream buf;
  buf << creds.rdbuf();
  json::value demo = parse(buf.str());
  std::string token(demo.at("accessToken").as_string());
  auto company = client.Get("/api/companies/demo", {{"Authorization", "Bearer " + token}});
  REQUIRE(company);
  CHECK(company->status == 200);
  CHECK(parse(company->body).at("data").at("name").as_string() == "Demo Bistro");
  // The restaurant demo: two branches, one open tab, the two power bills overdue (412500 each).
  httplib::Headers bearer{{"Authorization", "Bearer " + token}};
  auto branches = client.Get("/api/restaurant/companies/demo/branches", bearer);
  REQUIRE(branches);
  CHECK(parse(branches->body).at("data").as_array().size() == 2);
  auto overview = client.Get("/api/restaurant/companies/demo/overview", bearer);
  REQUIRE(overview);
  REQUIRE(overview->status == 200);
  json::value totals = parse(overview->body).at("data").at("totals");
  CHECK(totals.at("openTabs").at("count").as_int64() == 1);
  CHECK(totals.at("overdue").at("count").as_int64() == 2);
  CHECK(totals.at("overdue").at("totalMinor").as_int64() == 825000);
  // The mail demo: a domain waiting for its records, with the records to publish.
  auto domains = client.Get("/api/mail/domains", bearer);
  REQUIRE(domains);
  REQUIRE(domains->status == 200);
  json::value domain = parse(domains->body).at("data").at(0);
  CHECK(domain.at("domain").as_string() == "demo-bistro.example");
  CHECK(domain.at("status").as_string() == "pending");
  CHECK(domain.at("dns").as_array().size() == 6);
  // The auth-project demo: its end user signs in with the demo key.
  const std::string auth_key(demo.at("authProjectKey").as_string());
  auto login = client.Post("/api/v1/auth/demo-app/login", {{"Authorization", "Bearer " + auth_key}},
                           R"({"email":"ada@demo-app.test","password":"demo-password"})", "application/json");
  REQUIRE(login);
  CHECK(login->status == 200);
  CHECK(parse(login->body).at("data").at("user").at("emailVerified").as_bool());

  // The status demo: a public page whose three components each have a check probing this edge.
  auto snapshot = client.Get("/api/v1/status/demo");
  REQUIRE(snapshot);
  REQUIRE(snapshot->status == 200);
  json::value page = parse(snapshot->body);
  CHECK(page.at("page").at("name").as_string() == "Demo Bistro");
  const auto& components = page.at("components").as_array();
  REQUIRE(components.size() == 3);
  CHECK(components[0].at("name").as_string() == "Platform API");
  CHECK(components[1].at("name").as_string() == "Dashboard");
  CHECK(components[2].at("name").as_string() == "Status page");
  for (const auto& c : components) CHECK(c.at("checks").as_array().size() == 1);

  int status = edge.stop(SIGTERM);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);

  std::string text = edge.log();
  CHECK(text.find("GET /api/companies/demo 200") != std::string::npos);
  CHECK(text.find("SIGTERM received") != std::string::npos);
  CHECK(text.find("edge: stopped") != std::string::npos);
  CHECK(text.find(token.substr(12)) == std::string::npos);  // the log never holds a secret
  CHECK(text.find(auth_key.substr(12)) == std::string::npos);
  CHECK(edge.output().find("Access token:   " + token) != std::string::npos);  // the demo banner does
}

TEST_CASE("edge-admin registers OAuth clients and rotates their secrets") {
  testing::TempDir dir;
  std::string admin = std::string(EDGE_ADMIN_BIN) + " --json --data-dir " + dir.path + " ";
  REQUIRE(run(admin + "company create --slug shop --name Shop").exit_code == 0);
  auto created =
      run(admin +
          "oauth-client create --company shop --name 'Shop App' --redirect-uri https://shop.example/cb "
          "--scope openid --scope offline_access");
  REQUIRE(created.exit_code == 0);
  json::value c = parse(created.out);
  CHECK(c.at("scopes") == json::array{"offline_access", "openid"});
  std::string secret(c.at("clientSecret").as_string());
  CHECK(secret.rfind("ocs_", 0) == 0);
  auto list = run(admin + "oauth-client list --company shop");
  CHECK(list.out.find(secret) == std::string::npos);
  CHECK(parse(list.out).as_array().size() == 1);
  auto rotated = run(admin + "oauth-client rotate-secret --company shop --id " +
                     std::string(c.at("clientId").as_string()));
  REQUIRE(rotated.exit_code == 0);
  CHECK(parse(rotated.out).at("clientSecret").as_string() != secret);
  auto bad = run(admin + "oauth-client create --company shop --name X --redirect-uri not-a-url");
  CHECK(bad.exit_code == 1);
  CHECK(parse(bad.out).at("code").as_string() == "invalid_field");
}

TEST_CASE("edge-admin refuses a plain-http redirect URI except on a loopback host") {
  testing::TempDir dir;
  std::string admin = std::string(EDGE_ADMIN_BIN) + " --json --data-dir " + dir.path + " ";
  REQUIRE(run(admin + "company create --slug shop --name Shop").exit_code == 0);
  auto remote =
      run(admin + "oauth-client create --company shop --name X --redirect-uri http://shop.example/cb");
  CHECK(remote.exit_code == 1);
  CHECK(parse(remote.out).at("code").as_string() == "invalid_field");
  auto logout = run(admin +
                    "oauth-client create --company shop --name X --redirect-uri https://shop.example/cb "
                    "--post-logout-redirect-uri http://shop.example/bye");
  CHECK(logout.exit_code == 1);
  auto loopback =
      run(admin + "oauth-client create --company shop --name X --redirect-uri http://127.0.0.1:9000/cb");
  CHECK(loopback.exit_code == 0);
}
