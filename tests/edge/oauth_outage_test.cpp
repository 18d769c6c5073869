// Storage failures are not answers: during an outage userinfo and introspection say 503
// temporarily_unavailable (retry), never 401 or "inactive" (throw the token away).

#include <doctest/doctest.h>

#include "edge/app.h"
#include "failing_kv_store.h"
#include "oauth_flow.h"

using testing::OAuthFlow;
using testing::Reply;
using testing::str_of;
using testing::TestEdge;

TEST_CASE("the grant store reports a storage failure from consent() and token() instead of 'none'") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client();
  auto t = rp.token(
      {{"grant_type", "authorization_code"}, {"code", rp.code_for()}, {"redirect_uri", rp.redirect_uri}});
  auto& app = edge.server->app();
  testing::FailingKvStore failing(*app.kv);
  edge::oauth::OAuthStore store(failing, app.oauth_table, edge.clock, edge.random);
  REQUIRE(store.token(str_of(t, "access_token"))->has_value());
  REQUIRE(store.consent(edge.acme_owner_id, rp.client_id)->has_value());
  failing.failing = true;
  auto token = store.token(str_of(t, "access_token"));
  REQUIRE_FALSE(token.ok());
  CHECK(token.error().code == "storage_error");
  auto consent = store.consent(edge.acme_owner_id, rp.client_id);
  REQUIRE_FALSE(consent.ok());
  CHECK(consent.error().code == "storage_error");
}

TEST_CASE("userinfo and introspection answer 503 temporarily_unavailable while the store fails") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client();
  auto t = rp.token(
      {{"grant_type", "authorization_code"}, {"code", rp.code_for()}, {"redirect_uri", rp.redirect_uri}});
  std::string access = str_of(t, "access_token");
  auto& app = edge.server->app();
  testing::FailingKvStore failing(*app.kv);
  // The OAuth store of the running edge, over the switchable store (no request is in flight while it is
  // swapped).
  auto real = std::move(app.oauth);
  app.oauth = std::make_unique<edge::oauth::OAuthStore>(failing, app.oauth_table, edge.clock, edge.random);
  failing.failing = true;
  auto info = edge.send("GET", "/oauth/userinfo", "", {{"Authorization", "Bearer " + access}});
  CHECK(info.status == 503);
  CHECK(str_of(info, "error") == "temporarily_unavailable");
  // Introspection reads the client first: spare that read, fail the token's.
  failing.spared = 1;
  auto intro = rp.post_form("/oauth/introspect", {{"token", access}});
  CHECK(intro.status == 503);
  CHECK(str_of(intro, "error") == "temporarily_unavailable");
  failing.failing = false;
  auto after = edge.send("GET", "/oauth/userinfo", "", {{"Authorization", "Bearer " + access}});
  CHECK(after.status == 200);
  app.oauth = std::move(real);
}
