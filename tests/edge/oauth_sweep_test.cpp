// The sweep of expired OAuth records by the expiry index, in batches of their own write transactions.

#include <doctest/doctest.h>

#include "edge/app.h"
#include "test_edge.h"

using testing::TestEdge;

namespace {

edge::oauth::StoredCode code_of(const std::string& user) {
  edge::oauth::StoredCode c;
  c.client_id = "cli_sweep";
  c.user_id = user;
  c.redirect_uri = "https://rp.example/cb";
  c.scopes = {"openid"};
  return c;
}

std::size_t keys_with_prefix(edge::App& app, std::string_view prefix) {
  std::size_t n = 0;
  REQUIRE(app.kv
              ->read([&](const store::ReadTxn& tx) -> core::Status {
                tx.scan(app.oauth_table, prefix,
                        [&](std::string_view, std::string_view) { return ++n, true; });
                return {};
              })
              .ok());
  return n;
}

}  // namespace

TEST_CASE(
    "the sweep removes expired codes and login requests past the grace, in batches, and keeps live ones") {
  TestEdge edge;
  auto& app = edge.server->app();
  auto& store = *app.oauth;
  constexpr std::size_t kOld = 2 * edge::oauth::OAuthStore::kSweepBatch + 30;  // three batches
  for (std::size_t i = 0; i < kOld; ++i) REQUIRE(store.issue_code(code_of("usr_old")).ok());
  auto login = store.start_login_request();
  REQUIRE(login.ok());
  // Ten minutes on, a day of grace later, plus one: the codes and the login request are sweepable.
  edge.clock.advance_ms(10 * 60 * 1000 + edge::oauth::OAuthStore::kSweepGraceMs + 1);
  auto live = store.issue_code(code_of("usr_live"));
  REQUIRE(live.ok());
  CHECK(keys_with_prefix(app, "expiry/") == kOld + 2);

  // max_items bounds one pass (a partial batch at the end), the next pass takes the rest.
  CHECK(*store.sweep(150) == 150);
  CHECK(*store.sweep() == kOld + 1 - 150);
  CHECK(*store.sweep() == 0);
  CHECK(keys_with_prefix(app, "code/") == 1);
  CHECK(keys_with_prefix(app, "login-request/") == 0);
  CHECK(keys_with_prefix(app, "expiry/") == 1);  // the live code's
  CHECK_FALSE(store.login_not_before(*login)->has_value());
  // The live code still exchanges its way to the state machine (it is known: wrong client, not unknown).
  auto r = store.exchange_code(*live, {"cli_other", "https://rp.example/cb", std::nullopt});
  REQUIRE(r.ok());
  REQUIRE(std::holds_alternative<edge::oauth::GrantRefusal>(*r));
  CHECK(std::get<edge::oauth::GrantRefusal>(*r).description != "authorization code is unknown");
}
