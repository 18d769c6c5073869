// The OpenID Connect relying party (native/oidc/, docs/oidc-client.md) against this platform's own provider
// running in-process on loopback: discovery, JWKS, the authorization code flow with PKCE, id_token
// validation and its refusals, token endpoint errors; plus the transport rules against a stub server and
// the JWKS cache with a stand-in fetch and a manual clock.

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "core/jwt.h"
#include "core/pkce.h"
#include "edge/http/message.h"
#include "native/crypto/rsa_key.h"
#include "native/oidc/form_encoding.h"
#include "native/oidc/relying_party.h"
#include "oauth_flow.h"

using testing::OAuthFlow;
using testing::TestEdge;
namespace json = core::json;
namespace oidc = native::oidc;

namespace {

constexpr std::int64_t kLeeway = 60;

// The error message of a failed result, for REQUIRE_MESSAGE (whose message is built even on success).
std::string why(const auto& result) {
  return result.ok() ? std::string() : result.error().message;
}

std::string error_code(const auto& result) {
  return result.ok() ? std::string("ok") : result.error().code;
}

// RSA keys take a noticeable time to generate: one per role for the whole suite.
const std::string& provider_pem() {
  static const std::string pem = native::generate_rsa_pem(2048);
  return pem;
}
const native::RsaSigningKey& signing_key(int which) {
  static const native::RsaSigningKey a = *native::RsaSigningKey::from_pem(native::generate_rsa_pem(2048));
  static const native::RsaSigningKey b = *native::RsaSigningKey::from_pem(native::generate_rsa_pem(2048));
  return which == 0 ? a : b;
}

edge::Config rs256_config() {
  edge::Config config;
  config.oauth_rsa_private_key = provider_pem();
  return config;
}

std::int64_t now_s(TestEdge& edge) {
  return edge.clock.now_ms() / 1000;
}

std::map<std::string, std::string> query_of(const std::string& url) {
  std::map<std::string, std::string> out;
  auto q = url.find('?');
  REQUIRE(q != std::string::npos);
  for (auto& [k, v] : edge::parse_url_encoded(url.substr(q + 1))) out.emplace(k, v);
  return out;
}

// A provider, a registered client and one completed login: the relying party's request, the tokens it
// got for the code, and the key set it fetched.
struct Login {
  TestEdge edge{rs256_config()};
  OAuthFlow browser{edge};
  oidc::ProviderMetadata provider;
  oidc::AuthorizationRequest request;
  std::string callback_state;
  oidc::TokenResponse tokens;
  std::vector<core::RsaPublicKey> keys;

  Login() {
    auto discovered = oidc::discover(edge.url());
    REQUIRE_MESSAGE(discovered.ok(), why(discovered));
    provider = *discovered;
    browser.register_client();
    auto built = oidc::authorization_request(provider, browser.client_id, browser.redirect_uri,
                                             {"profile", "email"}, edge.random);
    REQUIRE(built.ok());
    request = *built;
    // The browser follows the request's URL: sign in, authorize with exactly its parameters, consent.
    browser.sign_in();
    auto page = browser.authorize(query_of(request.url));
    REQUIRE_MESSAGE(page.status == 200, page.body);
    auto redirect = browser.decide(page, "allow");
    REQUIRE(redirect.status == 302);
    auto callback = testing::location_query(redirect);
    callback_state = callback["state"];
    auto exchanged = oidc::exchange_code(provider, browser.client_id, browser.client_secret,
                                         browser.redirect_uri, callback["code"], request.code_verifier);
    REQUIRE_MESSAGE(exchanged.ok(), why(exchanged));
    tokens = *exchanged;
    auto fetched = oidc::fetch_jwks(provider.jwks_uri);
    REQUIRE_MESSAGE(fetched.ok(), why(fetched));
    keys = *fetched;
  }

  core::Result<oidc::IdTokenIdentity> validate(const std::string& id_token, std::int64_t at_s) {
    return oidc::validate_id_token(id_token, keys, provider.issuer, browser.client_id, request.nonce, at_s,
                                   kLeeway);
  }
  core::Result<oidc::IdTokenIdentity> validate(const std::string& id_token) {
    return validate(id_token, now_s(edge));
  }
};

// Claims as a provider at `issuer` issues them for `client_id` at `now`.
json::object claims_for(const std::string& issuer, const std::string& client_id, std::int64_t now) {
  return json::object{
      {"iss", issuer}, {"sub", "usr_42"},         {"aud", client_id},      {"exp", now + 3600},
      {"iat", now},    {"nonce", "n-0S6_WzA2Mj"}, {"email", "ada@x.test"}, {"email_verified", true},
      {"name", "Ada"}};
}

// A stub provider on 127.0.0.1 for what the real one never does: answer too much, redirect, stall.
class StubProvider {
 public:
  StubProvider() {
    server_.Get("/big/.well-known/openid-configuration", [](const httplib::Request&, httplib::Response& res) {
      res.set_content(std::string(2 * 1024 * 1024, ' ') + "{}", "application/json");
    });
    server_.Get("/moved/.well-known/openid-configuration",
                [](const httplib::Request&, httplib::Response& res) {
                  res.status = 302;
                  res.set_header("Location", "/big/.well-known/openid-configuration");
                });
    server_.Get("/slow/.well-known/openid-configuration",
                [](const httplib::Request&, httplib::Response& res) {
                  std::this_thread::sleep_for(std::chrono::milliseconds(800));
                  res.set_content("{}", "application/json");
                });
    port_ = server_.bind_to_any_port("127.0.0.1");
    REQUIRE(port_ > 0);
    thread_ = std::thread([this] { server_.listen_after_bind(); });
  }
  ~StubProvider() {
    server_.stop();
    thread_.join();
  }
  std::string url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }

 private:
  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
};

}  // namespace

TEST_SUITE_BEGIN("oidc_rp");

TEST_CASE("discovery: the provider's metadata for its exact issuer, and its JWK Set") {
  TestEdge edge(rs256_config());
  auto provider = oidc::discover(edge.url());
  REQUIRE_MESSAGE(provider.ok(), why(provider));
  CHECK(provider->issuer == edge.url());
  CHECK(provider->authorization_endpoint == edge.url() + "/oauth/authorize");
  CHECK(provider->token_endpoint == edge.url() + "/oauth/token");
  CHECK(provider->jwks_uri == edge.url() + "/.well-known/jwks.json");
  CHECK(provider->userinfo_endpoint == edge.url() + "/oauth/userinfo");
  CHECK(provider->end_session_endpoint == edge.url() + "/oauth/end-session");
  CHECK(provider->pkce_s256_advertised);
  CHECK(provider->token_auth == oidc::TokenAuthMethod::client_secret_basic);
  CHECK(provider->document.at("issuer").as_string() == edge.url());

  auto keys = oidc::fetch_jwks(provider->jwks_uri);
  REQUIRE_MESSAGE(keys.ok(), why(keys));
  REQUIRE(keys->size() == 1);
  CHECK((*keys)[0].kid == native::RsaSigningKey::from_pem(provider_pem())->public_key().kid);

  SUBCASE("the issuer must match byte for byte: a trailing slash or another host name is another issuer") {
    // Same discovery URL (Discovery §4 drops the trailing slash), but the document names the other spelling.
    auto slash = oidc::discover(edge.url() + "/");
    CHECK(error_code(slash) == "oidc_issuer_mismatch");
    std::string localhost = "http://localhost:" + std::to_string(edge.server->port());
    auto renamed = oidc::discover(localhost);
    CHECK(error_code(renamed) == "oidc_issuer_mismatch");
    CHECK(renamed.error().message.find(edge.url()) != std::string::npos);
  }
  SUBCASE("a provider issuing HS256 id_tokens publishes no jwks_uri: no relying party can verify them") {
    TestEdge hs256;
    auto refused = oidc::discover(hs256.url());
    CHECK(error_code(refused) == "oidc_bad_metadata");
    CHECK(refused.error().message.find("jwks_uri") != std::string::npos);
  }
}

TEST_CASE("discovery document checks") {
  const std::string iss = "https://id.example";
  auto doc = [&](const std::string& extra) {
    return R"({"issuer":")" + iss +
           R"(","authorization_endpoint":"https://id.example/authorize","token_endpoint":"https://id.example/token",)"
           R"("jwks_uri":"https://id.example/jwks")" +
           extra + "}";
  };
  auto ok = oidc::parse_provider_metadata(doc(""), iss);
  REQUIRE(ok.ok());
  CHECK_FALSE(ok->pkce_s256_advertised);
  CHECK(ok->userinfo_endpoint.empty());
  CHECK(oidc::discovery_url("https://id.example/tenant/") ==
        "https://id.example/tenant/.well-known/openid-configuration");
  CHECK(oidc::discovery_url(iss) == "https://id.example/.well-known/openid-configuration");

  CHECK(error_code(oidc::parse_provider_metadata("[]", iss)) == "oidc_bad_metadata");
  CHECK(error_code(oidc::parse_provider_metadata(doc(""), "https://id.example/")) == "oidc_issuer_mismatch");
  CHECK(error_code(oidc::parse_provider_metadata(R"({"issuer":"https://id.example"})", iss)) ==
        "oidc_bad_metadata");
  CHECK(error_code(oidc::parse_provider_metadata(
            R"({"issuer":"https://id.example","authorization_endpoint":"https://id.example/a",)"
            R"("token_endpoint":"http://id.example/token","jwks_uri":"https://id.example/jwks"})",
            iss)) == "oidc_insecure_url");
  CHECK(error_code(oidc::parse_provider_metadata(doc(R"(,"response_types_supported":["id_token"])"), iss)) ==
        "oidc_unsupported_provider");
  CHECK(error_code(oidc::parse_provider_metadata(doc(R"(,"id_token_signing_alg_values_supported":["HS256"])"),
                                                 iss)) == "oidc_unsupported_provider");
  CHECK(error_code(oidc::parse_provider_metadata(doc(R"(,"code_challenge_methods_supported":["plain"])"),
                                                 iss)) == "oidc_unsupported_provider");
  CHECK(error_code(oidc::parse_provider_metadata(doc(R"(,"code_challenge_methods_supported":"S256")"),
                                                 iss)) == "oidc_bad_metadata");
  auto post = oidc::parse_provider_metadata(
      doc(R"(,"token_endpoint_auth_methods_supported":["client_secret_post"])"), iss);
  REQUIRE(post.ok());
  CHECK(post->token_auth == oidc::TokenAuthMethod::client_secret_post);
  CHECK(error_code(oidc::parse_provider_metadata(
            doc(R"(,"token_endpoint_auth_methods_supported":["private_key_jwt"])"), iss)) ==
        "oidc_unsupported_provider");
}

TEST_CASE("transport: https only (http on loopback), no redirects, a size cap, timeouts") {
  CHECK(error_code(oidc::discover("http://id.example")) == "oidc_insecure_url");
  CHECK(error_code(oidc::discover("http://10.0.0.1:8080")) == "oidc_insecure_url");
  CHECK(error_code(oidc::discover("ftp://id.example")) == "oidc_invalid_url");
  CHECK(error_code(oidc::discover("id.example")) == "oidc_invalid_url");
  CHECK(error_code(oidc::discover("https://user:pw@id.example")) == "oidc_invalid_url");
  CHECK(error_code(oidc::discover("https://id.example?tenant=1")) == "oidc_invalid_url");
  CHECK(oidc::check_fetch_url("http://localhost:9/x").ok());
  CHECK(oidc::check_fetch_url("http://[::1]:9/x").ok());
  CHECK(oidc::check_fetch_url("https://id.example/x").ok());
  // Port 1 on loopback: nothing listens, the connection is refused at once.
  CHECK(error_code(oidc::discover("http://127.0.0.1:1")) == "oidc_unreachable");

  StubProvider stub;
  auto big = oidc::discover(stub.url("/big"));
  CHECK(error_code(big) == "oidc_bad_response");
  CHECK(big.error().message.find("larger than 1048576 bytes") != std::string::npos);
  auto moved = oidc::discover(stub.url("/moved"));
  CHECK(error_code(moved) == "oidc_bad_response");
  CHECK(moved.error().message.find("status 302") != std::string::npos);
  oidc::FetchOptions quick;
  quick.total_timeout = std::chrono::milliseconds(200);
  CHECK(error_code(oidc::discover(stub.url("/slow"), quick)) == "oidc_unreachable");
}

TEST_CASE("authorization request: code flow, PKCE S256, fresh state and nonce") {
  oidc::ProviderMetadata provider;
  provider.authorization_endpoint = "https://id.example/authorize?tenant=a";
  native::SystemRandom random;
  auto request = oidc::authorization_request(provider, "cli_1", "https://rp.example/cb?x=1",
                                             {"email", "profile", "email"}, random);
  REQUIRE(request.ok());
  CHECK(request->url.rfind("https://id.example/authorize?tenant=a&response_type=code&", 0) == 0);
  auto q = query_of(request->url);
  CHECK(q["client_id"] == "cli_1");
  CHECK(q["redirect_uri"] == "https://rp.example/cb?x=1");
  CHECK(q["scope"] == "openid email profile");
  CHECK(q["state"] == request->state);
  CHECK(q["nonce"] == request->nonce);
  CHECK(q["code_challenge_method"] == "S256");
  CHECK(q["code_challenge"] == core::pkce_s256_challenge(request->code_verifier));
  CHECK(core::validate_code_verifier(request->code_verifier).ok());
  for (const auto* value : {&request->state, &request->nonce, &request->code_verifier})
    CHECK(value->size() == 43);  // 256 bits, base64url
  auto again = oidc::authorization_request(provider, "cli_1", "https://rp.example/cb", {}, random);
  REQUIRE(again.ok());
  CHECK(query_of(again->url)["scope"] == "openid");
  CHECK(again->state != request->state);
  CHECK(again->nonce != request->nonce);
  CHECK(again->code_verifier != request->code_verifier);

  CHECK(error_code(oidc::authorization_request(provider, "", "https://rp.example/cb", {}, random)) ==
        "oidc_invalid_request");
  CHECK(error_code(oidc::authorization_request(provider, "cli_1", "https://rp.example/cb", {"email profile"},
                                               random)) == "oidc_invalid_request");
  CHECK(oidc::form_url_encode(oidc::FormFields{{"a b", "x&y=z~é"}}) == "a+b=x%26y%3Dz~%C3%A9");
}

TEST_CASE("a full login against the platform's provider: discovery, authorize, code exchange, id_token") {
  Login login;
  CHECK(login.callback_state == login.request.state);
  CHECK(login.tokens.token_type == "Bearer");
  CHECK(login.tokens.access_token.rfind("oat_", 0) == 0);
  CHECK(login.tokens.refresh_token.empty());  // offline_access was not requested
  CHECK(login.tokens.scope == "email openid profile");
  CHECK(login.tokens.expires_in == 3600);

  auto identity = login.validate(login.tokens.id_token);
  REQUIRE_MESSAGE(identity.ok(), why(identity));
  CHECK(identity->sub == login.edge.acme_owner_id);
  CHECK(identity->email == "owner@acme.test");
  CHECK(identity->name == "acme Owner");
  CHECK(identity->claims.at("nonce").as_string() == login.request.nonce);
  CHECK(identity->claims.at("aud").as_string() == login.browser.client_id);

  // The same through the key cache, and the userinfo endpoint names the same user.
  oidc::JwksCache cache(login.edge.clock);
  auto cached = oidc::validate_id_token(login.tokens.id_token, cache, login.provider, login.browser.client_id,
                                        login.request.nonce, now_s(login.edge), kLeeway);
  REQUIRE_MESSAGE(cached.ok(), why(cached));
  CHECK(cached->sub == identity->sub);
  auto info = oidc::userinfo(login.provider, login.tokens.access_token, identity->sub);
  REQUIRE_MESSAGE(info.ok(), why(info));
  CHECK(info->at("email").as_string() == "owner@acme.test");
  CHECK(error_code(oidc::userinfo(login.provider, login.tokens.access_token, "usr_other")) ==
        "oidc_sub_mismatch");
  CHECK(error_code(oidc::userinfo(login.provider, "oat_not-a-token", identity->sub)) ==
        "oidc_userinfo_refused");
}

TEST_CASE("id_token refusals, each with its code") {
  Login login;
  const std::string& token = login.tokens.id_token;
  REQUIRE(login.validate(token).ok());
  const std::string client = login.browser.client_id, iss = login.provider.issuer;
  const std::int64_t now = now_s(login.edge);

  CHECK(error_code(oidc::validate_id_token(token, login.keys, iss, client, "another-nonce", now, kLeeway)) ==
        "nonce_mismatch");
  CHECK(error_code(oidc::validate_id_token(token, login.keys, iss, client, "", now, kLeeway)) ==
        "nonce_mismatch");
  CHECK(error_code(oidc::validate_id_token(token, login.keys, iss, "cli_someone_else", login.request.nonce,
                                           now, kLeeway)) == "invalid_audience");
  CHECK(error_code(oidc::validate_id_token(token, login.keys, "http://localhost:1", client,
                                           login.request.nonce, now, kLeeway)) == "invalid_issuer");
  // id_tokens live 3600 s; the leeway is the last grace.
  CHECK(login.validate(token, now + 3600 + kLeeway - 1).ok());
  CHECK(error_code(login.validate(token, now + 3600 + kLeeway)) == "token_expired");
  CHECK(error_code(login.validate(token, now - kLeeway - 10)) == "token_issued_in_future");

  SUBCASE("tampered signature or payload") {
    const std::size_t sig = token.rfind('.') + 1;
    std::string bad_sig = token;
    bad_sig[sig + 10] = bad_sig[sig + 10] == 'A' ? 'B' : 'A';
    CHECK(error_code(login.validate(bad_sig)) == "invalid_signature");

    auto decoded = core::decode_jwt(token);
    REQUIRE(decoded.ok());
    json::object claims = decoded->claims;
    claims["sub"] = "usr_attacker";
    const std::string forged_payload = core::base64url_encode(core::as_bytes(json::serialize(claims)));
    const std::size_t dot = token.find('.');
    std::string forged = token.substr(0, dot + 1) + forged_payload + token.substr(token.rfind('.'));
    CHECK(error_code(login.validate(forged)) == "invalid_signature");
  }
  SUBCASE("a key the provider's set lacks, or another algorithm") {
    const auto& stranger = signing_key(0);
    std::string other = stranger.sign_jwt(claims_for(iss, client, now));
    CHECK(error_code(login.validate(other)) == "unknown_kid");
    // A token signed with the set's own public key as an HMAC secret (alg confusion), and alg none.
    std::string hs = core::sign_hs256(claims_for(iss, client, now), core::to_string(login.keys[0].n));
    CHECK(error_code(login.validate(hs)) == "unsupported_alg");
    std::string none = core::encode_jwt(json::object{{"alg", "none"}}, claims_for(iss, client, now),
                                        [](std::string_view) { return core::Bytes{}; });
    CHECK(error_code(login.validate(none)) == "unsupported_alg");
  }
}

TEST_CASE("id_token claim rules beyond check_claims: iat, azp, sub") {
  const auto& key = signing_key(0);
  std::vector<core::RsaPublicKey> keys = {key.public_key()};
  const std::string iss = "https://id.example", client = "cli_rp";
  const std::int64_t now = 1'795'000'000;
  auto check = [&](json::object claims) {
    return oidc::validate_id_token(key.sign_jwt(claims), keys, iss, client, "n-0S6_WzA2Mj", now, kLeeway);
  };
  auto good = check(claims_for(iss, client, now));
  REQUIRE(good.ok());
  CHECK(good->sub == "usr_42");
  CHECK(good->email == "ada@x.test");
  CHECK(good->email_verified);
  CHECK(good->name == "Ada");

  json::object c = claims_for(iss, client, now);
  c.erase("iat");
  CHECK(error_code(check(c)) == "invalid_claims");

  c = claims_for(iss, client, now);
  c["aud"] = json::array{client, "cli_other"};
  CHECK(error_code(check(c)) == "invalid_authorized_party");
  c["azp"] = "cli_other";
  CHECK(error_code(check(c)) == "invalid_authorized_party");
  c["azp"] = client;
  CHECK(check(c).ok());

  c = claims_for(iss, client, now);
  c["azp"] = "cli_other";  // azp must name this client even with one audience
  CHECK(error_code(check(c)) == "invalid_authorized_party");

  c = claims_for(iss, client, now);
  c["sub"] = std::string(256, 'x');
  CHECK(error_code(check(c)) == "invalid_claims");
  c.erase("sub");
  CHECK(error_code(check(c)) == "invalid_claims");

  c = claims_for(iss, client, now);
  c["email_verified"] = "true";  // only the JSON value true counts
  auto stringly = check(c);
  REQUIRE(stringly.ok());
  CHECK_FALSE(stringly->email_verified);
}

TEST_CASE("token endpoint errors are reported with the provider's OAuth error, never with the secret") {
  TestEdge edge(rs256_config());
  auto provider = oidc::discover(edge.url());
  REQUIRE(provider.ok());
  OAuthFlow browser(edge);
  browser.register_client();
  auto request =
      oidc::authorization_request(*provider, browser.client_id, browser.redirect_uri, {}, edge.random);
  REQUIRE(request.ok());
  std::string code = browser.code_for(query_of(request->url));
  auto exchange = [&](const std::string& secret, const std::string& c, const std::string& verifier) {
    return oidc::exchange_code(*provider, browser.client_id, secret, browser.redirect_uri, c, verifier);
  };

  auto unknown = exchange(browser.client_secret, "oac_" + std::string(43, 'A'), request->code_verifier);
  CHECK(error_code(unknown) == "oidc_token_refused");
  CHECK(unknown.error().message ==
        "the token endpoint answered 400 invalid_grant: authorization code is unknown");

  auto wrong_secret = exchange(browser.client_secret + "x", code, request->code_verifier);
  CHECK(error_code(wrong_secret) == "oidc_token_refused");
  CHECK(wrong_secret.error().message.rfind("the token endpoint answered 401 invalid_client", 0) == 0);
  CHECK(wrong_secret.error().message.find(browser.client_secret) == std::string::npos);

  auto wrong_verifier = exchange(browser.client_secret, code, std::string(43, 'v'));
  CHECK(error_code(wrong_verifier) == "oidc_token_refused");
  CHECK(wrong_verifier.error().message.find("invalid_grant") != std::string::npos);
  CHECK(wrong_verifier.error().message.find(code) == std::string::npos);

  // A code is good for one exchange (RFC 6749 §4.1.2).
  std::string used = browser.code_for(query_of(request->url));
  REQUIRE(exchange(browser.client_secret, used, request->code_verifier).ok());
  auto replay = exchange(browser.client_secret, used, request->code_verifier);
  CHECK(error_code(replay) == "oidc_token_refused");
  CHECK(replay.error().message.find("invalid_grant") != std::string::npos);
}

TEST_CASE("JWKS cache: one fetch per max age, a refetch for an unknown kid at most once a minute") {
  const auto& old_key = signing_key(0);
  const auto& new_key = signing_key(1);
  core::ManualClock clock(1'795'000'000'000);
  std::atomic<int> fetches{0};
  std::vector<core::RsaPublicKey> published = {old_key.public_key()};
  bool failing = false;
  oidc::JwksCache cache(
      clock,
      [&](const std::string& uri) -> core::Result<std::vector<core::RsaPublicKey>> {
        CHECK(uri == "https://id.example/jwks");
        ++fetches;
        if (failing) return core::make_error("oidc_unreachable", "cannot reach https://id.example/jwks");
        return published;
      },
      oidc::JwksCache::Settings{});
  oidc::ProviderMetadata provider;
  provider.issuer = "https://id.example";
  provider.jwks_uri = "https://id.example/jwks";
  const std::string client = "cli_rp", nonce = "n-0S6_WzA2Mj";
  auto validate = [&](const native::RsaSigningKey& key) {
    json::object claims = claims_for(provider.issuer, client, clock.now_ms() / 1000);
    return oidc::validate_id_token(key.sign_jwt(claims), cache, provider, client, nonce,
                                   clock.now_ms() / 1000, kLeeway);
  };

  CHECK(validate(old_key).ok());
  CHECK(validate(old_key).ok());
  CHECK(fetches == 1);

  // The provider rotates. Within a minute of the last fetch the cache does not ask again.
  published = {new_key.public_key(), old_key.public_key()};
  clock.advance_ms(30'000);
  CHECK(error_code(validate(new_key)) == "unknown_kid");
  CHECK(fetches == 1);
  clock.advance_ms(30'000);
  CHECK(validate(new_key).ok());
  CHECK(fetches == 2);
  CHECK(validate(old_key).ok());  // both generations in the set
  CHECK(fetches == 2);

  SUBCASE("made-up kids cost at most one fetch a minute") {
    clock.advance_ms(60'000);
    const native::RsaSigningKey stranger = *native::RsaSigningKey::from_pem(provider_pem());
    CHECK(error_code(validate(stranger)) == "unknown_kid");
    CHECK(error_code(validate(stranger)) == "unknown_kid");
    CHECK(error_code(validate(stranger)) == "unknown_kid");
    CHECK(fetches == 3);
  }
  SUBCASE("a set older than max age is fetched again; when that fails it is not used") {
    clock.advance_ms(oidc::JwksCache::Settings{}.max_age_ms);
    failing = true;
    CHECK(error_code(validate(old_key)) == "oidc_unreachable");
    CHECK(fetches == 3);
    failing = false;
    CHECK(validate(old_key).ok());
    CHECK(fetches == 4);
  }
  SUBCASE("a failed refetch for an unknown kid says why") {
    clock.advance_ms(60'000);
    failing = true;
    auto stranger = validate(*native::RsaSigningKey::from_pem(provider_pem()));
    CHECK(error_code(stranger) == "unknown_kid");
    CHECK(stranger.error().message.find("cannot reach") != std::string::npos);
    CHECK(validate(old_key).ok());  // the stored set is still within its max age
  }
}

TEST_SUITE_END();
