// 20 concurrent refreshes of one refresh token (a device that lost a response, tabs refreshing at once):
// with the reuse interval every call gets the same successor pair and the session lives; with strict
// rotation (interval 0) exactly one call succeeds and the rest are replays that revoke the session.

#include <doctest/doctest.h>

#include <atomic>
#include <set>
#include <thread>

#include "auth_support.h"

using testing::TestEdge;
using namespace auth_test;

TEST_SUITE_BEGIN("auth_refresh");

namespace {

struct Outcome {
  int status = 0;
  std::string refresh, access;
};

std::vector<Outcome> refresh_at_once(TestEdge& edge, const TestProject& p, const std::string& token, int n) {
  std::vector<Outcome> out(n);
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  const std::string body = R"({"refreshToken":")" + token + R"("})";
  for (int i = 0; i < n; ++i) {
    threads.emplace_back([&, i] {
      httplib::Client c("127.0.0.1", edge.server->port());
      c.set_bearer_token_auth(p.key);
      c.set_tcp_nodelay(true);
      ++ready;
      while (ready < n) std::this_thread::yield();
      auto res = c.Post(p.base + "/refresh", body, "application/json");
      if (!res) return;  // status stays 0: the counts below fail
      out[i].status = res->status;
      auto parsed = core::parse_json(res->body);
      if (parsed && parsed->is_object() && parsed->as_object().at("data").is_object()) {
        out[i].refresh = str(parsed->as_object().at("data"), "refreshToken");
        out[i].access = str(parsed->as_object().at("data"), "accessToken");
      }
    });
  }
  for (auto& t : threads) t.join();
  return out;
}

edge::Config config() {
  edge::Config c;
  c.rate_limit = {1'000'000, 1000};
  c.mail.delivery_workers = 0;
  return c;
}

}  // namespace

TEST_CASE("with the reuse interval, 20 concurrent refreshes of one token get one successor pair") {
  TestEdge edge(config());
  TestProject p = make_project(edge, "race");
  const std::string r0 = str(signup(edge, p, "race@example.com").data(), "refreshToken");
  auto outcomes = refresh_at_once(edge, p, r0, 20);
  std::set<std::string> refreshes, accesses;
  for (const auto& o : outcomes) {
    CHECK(o.status == 200);
    refreshes.insert(o.refresh);
    accesses.insert(o.access);
  }
  CHECK(refreshes.size() == 1);
  CHECK(accesses.size() == 1);
  // The session lives on: the successor refreshes.
  CHECK(call(edge, p, "/refresh", R"({"refreshToken":")" + *refreshes.begin() + R"("})").status == 200);
}

TEST_CASE("with strict rotation, exactly one of 20 concurrent refreshes succeeds and the family is revoked") {
  TestEdge edge(config());
  TestProject p = make_project(edge, "strict", R"("refreshReuseIntervalSeconds":0)");
  auto up = signup(edge, p, "strict@example.com");
  const std::string r0 = str(up.data(), "refreshToken");
  auto outcomes = refresh_at_once(edge, p, r0, 20);
  int ok = 0, refused = 0;
  std::string winner;
  for (const auto& o : outcomes) {
    if (o.status == 200) {
      ++ok;
      winner = o.refresh;
    } else if (o.status == 401) {
      ++refused;
    }
  }
  CHECK(ok == 1);
  CHECK(refused == 19);
  // The replays revoked the session, the winner's pair with it.
  CHECK(call(edge, p, "/refresh", R"({"refreshToken":")" + winner + R"("})").status == 401);
  CHECK(edge.get(p.base + "/userinfo", str(up.data(), "accessToken")).status == 401);
}

TEST_SUITE_END();
