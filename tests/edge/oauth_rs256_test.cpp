// RS256 mode (OAUTH_RSA_PRIVATE_KEY) and zero-downtime key rotation (OAUTH_RSA_PRIVATE_KEY_PREVIOUS).

#include <doctest/doctest.h>

#include "core/jwk.h"
#include "core/jwt.h"
#include "core/rsa_verify.h"
#include "native/crypto/rsa_key.h"
#include "oauth_flow.h"

using testing::OAuthFlow;
using testing::TestEdge;
namespace json = core::json;

namespace {

std::vector<core::RsaPublicKey> jwks_keys(TestEdge& edge) {
  auto r = edge.get("/.well-known/jwks.json");
  REQUIRE(r.status == 200);
  std::vector<core::RsaPublicKey> keys;
  for (auto& k : r.json.at("keys").as_array()) {
    auto key = core::parse_rsa_jwk(k.as_object());
    REQUIRE(key.ok());
    keys.push_back(*key);
  }
  return keys;
}

std::string id_token_of(OAuthFlow& rp) {
  auto t = rp.token(
      {{"grant_type", "authorization_code"}, {"code", rp.code_for()}, {"redirect_uri", rp.redirect_uri}});
  REQUIRE(t.status == 200);
  return std::string(t.json.at("id_token").as_string());
}

}  // namespace

TEST_CASE("RS256: discovery has jwks_uri, the JWKS holds the key with its RFC 7638 kid, id_tokens verify") {
  std::string pem = native::generate_rsa_pem(2048);
  auto key = native::RsaSigningKey::from_pem(pem);
  REQUIRE(key.ok());
  edge::Config config;
  config.oauth_rsa_private_key = pem;
  TestEdge edge(config);
  auto d = edge.get("/.well-known/openid-configuration");
  CHECK(d.json.at("jwks_uri").as_string() == edge.url() + "/.well-known/jwks.json");
  CHECK(d.json.at("id_token_signing_alg_values_supported") == json::array{"RS256"});
  auto keys = jwks_keys(edge);
  REQUIRE(keys.size() == 1);
  CHECK(keys[0].kid == core::jwk_thumbprint(key->public_key()));

  OAuthFlow rp(edge);
  rp.register_client();
  std::string id_token = id_token_of(rp);
  auto verified = core::verify_rs256(id_token, keys);
  REQUIRE(verified.ok());
  CHECK(verified->header.at("kid").as_string() == keys[0].kid);
  CHECK(verified->header.at("alg").as_string() == "RS256");
  CHECK(core::check_claims(*verified, {edge.url(), rp.client_id, TestEdge::kStart / 1000, 0, std::nullopt})
            .ok());
}

TEST_CASE("rotation: new tokens carry the new kid, both keys are published, old tokens still verify") {
  std::string old_pem = native::generate_rsa_pem(2048), new_pem = native::generate_rsa_pem(2048);
  std::string old_token, old_kid;
  {
    edge::Config config;
    config.oauth_rsa_private_key = old_pem;
    TestEdge before(config);
    OAuthFlow rp(before);
    rp.register_client();
    old_token = id_token_of(rp);
    old_kid = std::string(core::decode_jwt(old_token)->header.at("kid").as_string());
  }
  edge::Config config;
  config.oauth_rsa_private_key = new_pem;
  config.oauth_rsa_private_key_previous = old_pem;
  TestEdge after(config);
  auto keys = jwks_keys(after);
  REQUIRE(keys.size() == 2);
  OAuthFlow rp(after);
  rp.register_client();
  std::string new_token = id_token_of(rp);
  std::string new_kid(core::decode_jwt(new_token)->header.at("kid").as_string());
  CHECK(new_kid != old_kid);
  CHECK(keys[0].kid == new_kid);
  CHECK(keys[1].kid == old_kid);
  CHECK(core::verify_rs256(new_token, keys).ok());
  CHECK(core::verify_rs256(old_token, keys).ok());
}

TEST_CASE("a malformed signing key stops the server from starting") {
  edge::Config config;
  config.oauth_rsa_private_key = "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n";
  config.listen_port = 0;
  testing::TempDir dir;
  config.data_dir = dir.path;
  core::ManualClock clock(0);
  native::SystemRandom random;
  auto server = edge::EdgeServer::start(config, clock, random);
  REQUIRE_FALSE(server.ok());
  CHECK(server.error().message.rfind("OAUTH_RSA_PRIVATE_KEY: ", 0) == 0);
}
