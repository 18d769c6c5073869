// The env vault's change webhooks (docs/env-vault.md, "Webhooks"): registered per project (optionally per
// environment) with a secret shown once; every push and rollback is POSTed with `X-Webhook-Signature:
// sha256=<hex>`, checked here with OpenSSL's HMAC; the body carries the project, environment, version and key
// names, never values; a failed delivery is retried after the backoff (on the manual clock) with the same
// event id; a deleted webhook gets nothing more.

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <chrono>
#include <deque>
#include <mutex>
#include <thread>

#include "core/bytes.h"
#include "vault_support.h"

using namespace vault_test;

TEST_SUITE_BEGIN("vault");

namespace {

std::string openssl_signature(const std::string& secret, const std::string& body) {
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
       reinterpret_cast<const unsigned char*>(body.data()), body.size(), mac, &n);
  return "sha256=" + core::hex_encode(std::span<const std::uint8_t>(mac, n));
}

struct Hit {
  std::string path, body, signature, id;
  json::object json;
};

// Records each POST and answers the next scripted status (200 once the script is spent).
class Receiver {
 public:
  Receiver() {
    server_.Post(R"(/.*)", [this](const httplib::Request& req, httplib::Response& res) {
      std::lock_guard lock(mutex_);
      Hit h{req.path,
            req.body,
            req.get_header_value("X-Webhook-Signature"),
            req.get_header_value("X-Webhook-Id"),
            {}};
      if (auto o = core::parse_json_object(req.body)) h.json = *o;
      hits_.push_back(std::move(h));
      res.status = 200;
      if (!script_.empty()) {
        res.status = script_.front();
        script_.pop_front();
      }
      res.set_content("ok", "text/plain");
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    REQUIRE(port_ > 0);
    thread_ = std::thread([this] { server_.listen_after_bind(); });
  }
  ~Receiver() {
    server_.stop();
    thread_.join();
  }
  std::string url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }
  void script(std::deque<int> statuses) {
    std::lock_guard lock(mutex_);
    script_ = std::move(statuses);
  }
  // The requests to `path` once there are at least `n`, or those there are after 10 s.
  std::vector<Hit> wait_for(const std::string& path, std::size_t n) {
    for (int i = 0; i < 400; ++i) {
      auto got = hits(path);
      if (got.size() >= n) return got;
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    return hits(path);
  }
  std::vector<Hit> hits(const std::string& path) {
    std::lock_guard lock(mutex_);
    std::vector<Hit> out;
    for (const auto& h : hits_)
      if (h.path == path) out.push_back(h);
    return out;
  }

 private:
  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
  std::mutex mutex_;
  std::vector<Hit> hits_;
  std::deque<int> script_;
};

}  // namespace

TEST_CASE("vault webhooks: signed change notifications with key names and the new version") {
  VaultEdge t;
  Receiver rx;
  auto all = t.edge.post(t.project_path() + "/webhooks", R"({"url":")" + rx.url("/all") + R"("})",
                         t.edge.acme_token);
  REQUIRE(all.status == 201);
  const std::string secret = str(all.data(), "secret");
  CHECK(secret.rfind("whsec_", 0) == 0);
  CHECK(all.data().at("environment").is_null());
  auto staging_only =
      t.edge.post(t.project_path() + "/webhooks",
                  R"({"url":")" + rx.url("/staging") + R"(","environment":"staging"})", t.edge.acme_token);
  REQUIRE(staging_only.status == 201);
  const std::string staging_secret = str(staging_only.data(), "secret");

  auto listed = t.edge.get(t.project_path() + "/webhooks", t.edge.acme_token);
  REQUIRE(listed.status == 200);
  CHECK(listed.data().as_array().size() == 2);
  CHECK(listed.body.find(secret) == std::string::npos);

  const std::string tok = t.token();
  REQUIRE(t.push(tok, R"({"variables":{"DB_PASSWORD":"hunter2-value","PORT":"80"}})").status == 200);
  auto hits = rx.wait_for("/all", 1);
  REQUIRE(hits.size() == 1);
  const Hit& h = hits[0];
  CHECK(h.signature == openssl_signature(secret, h.body));
  CHECK(h.signature != openssl_signature(staging_secret, h.body));
  CHECK(h.body.find("hunter2") == std::string::npos);
  CHECK(str(h.json, "type") == "env-vault.version");
  CHECK(str(h.json, "projectId") == t.project);
  CHECK(str(h.json, "environment") == "production");
  CHECK(num(h.json, "version") == 1);
  CHECK(str(h.json, "kind") == "push");
  CHECK(core::to_json(h.json.at("added")) == R"(["DB_PASSWORD","PORT"])");
  CHECK(str(h.json, "id") == h.id);
  CHECK(h.id.rfind("evt_", 0) == 0);

  const std::string staging = t.token("staging");
  REQUIRE(t.push(staging, R"({"variables":{"S":"1"}})").status == 200);
  auto staged = rx.wait_for("/staging", 1);
  REQUIRE(staged.size() == 1);
  CHECK(staged[0].signature == openssl_signature(staging_secret, staged[0].body));
  CHECK(str(staged[0].json, "environment") == "staging");
  CHECK(rx.wait_for("/all", 2).size() == 2);  // the all-environments hook hears staging too

  // The production push reached /all only: still one hit for /staging after /all got the staging one.
  CHECK(rx.hits("/staging").size() == 1);

  // Delete: nothing more.
  REQUIRE(t.edge.del(t.project_path() + "/webhooks/" + str(staging_only.data(), "id"), t.edge.acme_token)
              .status == 200);
  REQUIRE(t.push(staging, R"({"variables":{"S":"2"}})").status == 200);
  CHECK(rx.wait_for("/all", 3).size() == 3);
  CHECK(rx.hits("/staging").size() == 1);
}

TEST_CASE("vault webhooks: a failed delivery is retried after the backoff with the same event id") {
  VaultEdge t;
  Receiver rx;
  rx.script({500});
  auto hook =
      t.edge.post(t.project_path() + "/webhooks", R"({"url":")" + rx.url("/h") + R"("})", t.edge.acme_token);
  REQUIRE(hook.status == 201);
  const std::string secret = str(hook.data(), "secret");
  const std::string tok = t.token();
  REQUIRE(t.push(tok, R"({"variables":{"A":"1"}})").status == 200);
  auto first = rx.wait_for("/h", 1);
  REQUIRE(first.size() == 1);
  // Recorded on the webhook.
  for (int i = 0; i < 200; ++i) {
    auto l = t.edge.get(t.project_path() + "/webhooks", t.edge.acme_token);
    if (num(l.data().as_array()[0], "lastStatus") == 500) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  auto listed = t.edge.get(t.project_path() + "/webhooks", t.edge.acme_token);
  CHECK(num(listed.data().as_array()[0], "lastStatus") == 500);
  CHECK(str(listed.data().as_array()[0], "lastError") == "HTTP 500");
  CHECK(rx.hits("/h").size() == 1);  // the retry waits for the clock
  t.edge.clock.advance_ms(31'000);   // past the first backoff (15 to 30 s)
  auto both = rx.wait_for("/h", 2);
  REQUIRE(both.size() == 2);
  CHECK(both[1].id == both[0].id);
  CHECK(both[1].body == both[0].body);
  CHECK(both[1].signature == openssl_signature(secret, both[1].body));
}

TEST_CASE("vault webhooks: bad URLs and environments answer 400; other companies 404") {
  VaultEdge t;
  CHECK(t.edge.post(t.project_path() + "/webhooks", R"({"url":"ftp://x"})", t.edge.acme_token).status == 400);
  CHECK(t.edge
            .post(t.project_path() + "/webhooks", R"({"url":"https://h.example","environment":"nope"})",
                  t.edge.acme_token)
            .status == 400);
  CHECK(t.edge.post(t.project_path() + "/webhooks", R"({})", t.edge.acme_token).status == 400);
  CHECK(t.edge.get("/api/companies/globex/env-vault/projects/" + t.project + "/webhooks", t.edge.globex_token)
            .status == 404);
}

TEST_SUITE_END();
