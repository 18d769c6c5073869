#include "test_edge.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>

namespace testing {
namespace json = core::json;

TempDir::TempDir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "edge-test-XXXXXX").string();
  path = ::mkdtemp(tmpl.data());
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path, ec);
}

std::string Reply::header(const std::string& name) const {
  auto it = headers.find(name);
  return it == headers.end() ? std::string() : it->second;
}

std::string Reply::error() const {
  if (!json.is_object()) return {};
  auto* e = json.get_object().if_contains("error");
  return e && e->is_string() ? std::string(e->get_string()) : std::string();
}

const json::value& Reply::data() const {
  static const json::value null;
  if (!json.is_object()) return null;
  auto* d = json.get_object().if_contains("data");
  return d ? *d : null;
}

TestEdge::TestEdge(edge::Config config) {
  config.listen_host = "127.0.0.1";
  config.listen_port = 0;
  config.data_dir = dir.path + "/data";
  config.threads = 16;
  auto started = edge::EdgeServer::start(config, clock, random);
  REQUIRE_MESSAGE(started.ok(), (started.ok() ? "" : started.error().message));
  server = std::move(*started);
  client = std::make_unique<httplib::Client>("127.0.0.1", server->port());
  client->set_keep_alive(true);
  client->set_tcp_nodelay(true);  // else Nagle + delayed ACK hold each POST body for 40 ms

  auto& accounts = *server->app().accounts;
  std::vector<std::string> all = {"members.manage",    "api-keys.manage", "domains.manage",
                                  "storage.view",      "send.execute",    "oauth-clients.manage",
                                  "restaurant.manage", "env-vault.manage"};
  for (auto [slug, token] : {std::pair{"acme", &acme_token}, std::pair{"globex", &globex_token}}) {
    auto company = accounts.create_company(slug, std::string(slug) + " Inc.");
    REQUIRE(company.ok());
    std::string email = std::string("owner@") + slug + ".test";
    auto user = accounts.create_user(email, std::string(slug) + " Owner", "correct horse battery");
    REQUIRE(user.ok());
    if (std::string(slug) == "acme") acme_owner_id = user->id;
    REQUIRE(accounts.add_member(*company, email, core::Role::owner, {}, nullptr).ok());
    auto created = accounts.create_token(*company, "test", all, nullptr);
    REQUIRE(created.ok());
    *token = created->plaintext;
  }
}

std::string TestEdge::token_with(const std::string& slug, const std::vector<std::string>& permissions) {
  auto& accounts = *server->app().accounts;
  auto company = accounts.company_by_slug(slug);
  REQUIRE(company.ok());
  auto created = accounts.create_token(*company, "limited", permissions, nullptr);
  REQUIRE(created.ok());
  return created->plaintext;
}

TestEdge::~TestEdge() {
  // Close the keep-alive connection first: a server worker waits on an idle one until its 5 s timeout.
  client.reset();
  server->stop();
}

Reply TestEdge::send(const std::string& method, const std::string& path, const std::string& body,
                     const httplib::Headers& headers, const std::string& content_type) {
  httplib::Request req;
  req.method = method;
  req.path = path;
  req.headers = headers;
  if (!body.empty() || method == "POST" || method == "PATCH") {
    req.body = body;
    req.set_header("Content-Type", content_type);
  }
  auto res = client->send(req);
  REQUIRE_MESSAGE(res, "no response for " << method << " " << path);
  Reply r;
  r.status = res->status;
  r.body = res->body;
  r.headers = res->headers;
  boost::system::error_code ec;
  r.json = json::parse(r.body, ec);
  if (ec) r.json = nullptr;
  return r;
}

namespace {
httplib::Headers bearer(const std::string& token) {
  if (token.empty()) return {};
  return {{"Authorization", "Bearer " + token}};
}
}  // namespace

Reply TestEdge::get(const std::string& path, const std::string& token) {
  return send("GET", path, "", bearer(token));
}
Reply TestEdge::del(const std::string& path, const std::string& token) {
  return send("DELETE", path, "", bearer(token));
}
Reply TestEdge::post(const std::string& path, const std::string& body, const std::string& token,
                     const std::string& content_type) {
  return send("POST", path, body, bearer(token), content_type);
}
Reply TestEdge::patch(const std::string& path, const std::string& body, const std::string& token) {
  return send("PATCH", path, body, bearer(token));
}

}  // namespace testing
