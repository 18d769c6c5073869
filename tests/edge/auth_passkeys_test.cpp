// Passkeys of auth-project end users (docs/auth-passkeys.md): registration by a signed-in user,
// passwordless sign-in with a discoverable credential, the counter rule, origin and RP ID checks,
// single-use ceremonies that expire, isolation between projects, the method switch, and deletion. The
// browser's part is played by a software authenticator written here: a P-256 key (OpenSSL), CBOR
// authenticatorData and attestationObject (fmt "none"), clientDataJSON and ES256 signatures.

#include <doctest/doctest.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <memory>

#include "auth_support.h"
#include "core/bytes.h"
#include "core/crypto.h"

using testing::Reply;
using testing::TestEdge;
using namespace auth_test;

TEST_SUITE_BEGIN("auth_passkeys");

namespace {

using core::Bytes;

const std::string kOrigin = "https://app.example.com";
const std::string kRpId = "app.example.com";
const std::string kPasskeySettings =
    R"("signInMethods":{"passkey":true},)"
    R"("passkeys":{"rpId":"app.example.com","rpName":"Example App","origins":["https://app.example.com"]})";

edge::Config unthrottled() {
  edge::Config c;
  c.rate_limit = {1'000'000, 1000};
  c.mail.delivery_workers = 0;
  return c;
}

const json::object& obj(const Reply& r) {
  return r.data().as_object();
}

std::string b64(std::span<const std::uint8_t> b) {
  return core::base64url_encode(b);
}
Bytes unb64(std::string_view s) {
  auto d = core::base64url_decode(s);
  REQUIRE(d.ok());
  return *d;
}

// The CBOR the authenticator writes (RFC 8949 §3, definite lengths only).
struct Cbor {
  Bytes out;
  Cbor& head(int major, std::uint64_t n) {
    const std::uint8_t m = static_cast<std::uint8_t>(major << 5);
    if (n < 24) {
      out.push_back(m | static_cast<std::uint8_t>(n));
    } else if (n < 0x100) {
      out.push_back(m | 24);
      out.push_back(static_cast<std::uint8_t>(n));
    } else {
      out.push_back(m | 25);
      out.push_back(static_cast<std::uint8_t>(n >> 8));
      out.push_back(static_cast<std::uint8_t>(n));
    }
    return *this;
  }
  Cbor& integer(std::int64_t v) { return v >= 0 ? head(0, v) : head(1, static_cast<std::uint64_t>(-1 - v)); }
  Cbor& bytes(std::span<const std::uint8_t> b) {
    head(2, b.size());
    out.insert(out.end(), b.begin(), b.end());
    return *this;
  }
  Cbor& text(std::string_view s) {
    head(3, s.size());
    out.insert(out.end(), s.begin(), s.end());
    return *this;
  }
  Cbor& map(std::size_t entries) { return head(5, entries); }
};

void append(Bytes& to, std::span<const std::uint8_t> b) {
  to.insert(to.end(), b.begin(), b.end());
}

// A platform authenticator holding one discoverable ES256 credential, as a browser reports it.
class SoftAuthenticator {
 public:
  SoftAuthenticator() : key_(EVP_EC_gen("P-256"), EVP_PKEY_free) {
    REQUIRE(key_);
    credential_id.resize(32);
    REQUIRE(RAND_bytes(credential_id.data(), static_cast<int>(credential_id.size())) == 1);
  }

  Bytes credential_id;
  Bytes user_handle;          // remembered at registration, returned at sign-in
  std::uint32_t counter = 0;  // incremented before each assertion
  bool has_counter = true;    // false: always 0, as synced passkeys report
  std::uint8_t flags = 0x05;  // UP and UV
  std::string origin = kOrigin;
  std::string rp_id = kRpId;  // what authenticatorData's rpIdHash is made from

  // navigator.credentials.create() answering `options` (the API's creation options).
  json::object create(const json::object& options) {
    user_handle = unb64(str(options.at("user"), "id"));
    Bytes auth_data = header(flags | 0x40, counter);
    append(auth_data, Bytes(16, 0));  // AAGUID: hidden
    auth_data.push_back(static_cast<std::uint8_t>(credential_id.size() >> 8));
    auth_data.push_back(static_cast<std::uint8_t>(credential_id.size()));
    append(auth_data, credential_id);
    append(auth_data, cose_key());
    Cbor att;
    att.map(3).text("fmt").text("none").text("attStmt").map(0).text("authData").bytes(auth_data);
    const std::string client_data = client_data_json("webauthn.create", str(options, "challenge"));
    return json::object{{"id", b64(credential_id)},
                        {"rawId", b64(credential_id)},
                        {"type", "public-key"},
                        {"response", json::object{{"clientDataJSON", b64(core::as_bytes(client_data))},
                                                  {"attestationObject", b64(att.out)},
                                                  {"transports", json::array{"internal"}}}}};
  }

  // navigator.credentials.get() answering `options` (the API's request options).
  json::object get(const json::object& options) {
    if (has_counter) ++counter;
    const Bytes auth_data = header(flags, counter);
    const std::string client_data = client_data_json("webauthn.get", str(options, "challenge"));
    Bytes signed_data = auth_data;
    append(signed_data, core::sha256(client_data));
    return json::object{{"id", b64(credential_id)},
                        {"rawId", b64(credential_id)},
                        {"type", "public-key"},
                        {"response", json::object{{"clientDataJSON", b64(core::as_bytes(client_data))},
                                                  {"authenticatorData", b64(auth_data)},
                                                  {"signature", b64(sign(signed_data))},
                                                  {"userHandle", b64(user_handle)}}}};
  }

 private:
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key_;

  Bytes header(std::uint8_t f, std::uint32_t count) const {
    Bytes out;
    append(out, core::sha256(rp_id));
    out.push_back(f);
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<std::uint8_t>(count >> shift));
    return out;
  }

  std::string client_data_json(std::string_view type, std::string_view challenge) const {
    return core::to_json(
        json::object{{"type", type}, {"challenge", challenge}, {"origin", origin}, {"crossOrigin", false}});
  }

  // COSE_Key: kty EC2, alg ES256, crv P-256, x, y.
  Bytes cose_key() const {
    std::uint8_t point[65];
    std::size_t len = 0;
    REQUIRE(EVP_PKEY_get_octet_string_param(key_.get(), "encoded-pub-key", point, sizeof point, &len) == 1);
    REQUIRE(len == 65);
    Cbor c;
    c.map(5).integer(1).integer(2).integer(3).integer(-7).integer(-1).integer(1);
    c.integer(-2).bytes(std::span<const std::uint8_t>(point + 1, 32));
    c.integer(-3).bytes(std::span<const std::uint8_t>(point + 33, 32));
    return c.out;
  }

  // ES256 as WebAuthn carries it: ECDSA over SHA-256, DER-encoded.
  Bytes sign(std::span<const std::uint8_t> data) const {
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
    REQUIRE(EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key_.get()) == 1);
    std::size_t len = 0;
    REQUIRE(EVP_DigestSign(ctx.get(), nullptr, &len, data.data(), data.size()) == 1);
    Bytes sig(len);
    REQUIRE(EVP_DigestSign(ctx.get(), sig.data(), &len, data.data(), data.size()) == 1);
    sig.resize(len);
    return sig;
  }
};

struct PasskeyTest {
  TestEdge edge{unthrottled()};
  TestProject p;
  std::string user_id, access_token;

  explicit PasskeyTest(const std::string& slug = "pk", const std::string& settings = kPasskeySettings) {
    p = make_project(edge, slug, settings);
  }

  // Signs `email` up with a password and keeps the user's id and access token.
  void sign_up(const std::string& email = "ayse@example.com") {
    auto up = signup(edge, p, email);
    REQUIRE_MESSAGE(up.status == 201, up.body);
    user_id = str(obj(up).at("user"), "id");
    access_token = str(up.data(), "accessToken");
  }

  Reply post(const std::string& path, const json::object& body) {
    return call(edge, p, path, core::to_json(body));
  }
  Reply register_options() { return post("/passkeys/register/options", {{"accessToken", access_token}}); }
  Reply register_verify(const std::string& ceremony, const json::object& credential) {
    return post("/passkeys/register/verify", {{"ceremonyId", ceremony}, {"credential", credential}});
  }
  Reply login_options() { return post("/passkeys/login/options", {}); }
  Reply login_verify(const std::string& ceremony, const json::object& credential) {
    return post("/passkeys/login/verify", {{"ceremonyId", ceremony}, {"credential", credential}});
  }
  Reply list() { return post("/passkeys/list", {{"accessToken", access_token}}); }

  // Registers `auth` for the signed-up user; answers the stored passkey.
  json::object enroll(SoftAuthenticator& auth) {
    auto options = register_options();
    REQUIRE_MESSAGE(options.status == 200, options.body);
    auto done = register_verify(str(options.data(), "ceremonyId"),
                                auth.create(obj(options).at("options").as_object()));
    REQUIRE_MESSAGE(done.status == 201, done.body);
    return obj(done);
  }

  // A whole passwordless sign-in with `auth`.
  Reply sign_in(SoftAuthenticator& auth) {
    auto options = login_options();
    REQUIRE_MESSAGE(options.status == 200, options.body);
    return login_verify(str(options.data(), "ceremonyId"), auth.get(obj(options).at("options").as_object()));
  }

  std::string dashboard_user() const {
    return "/api/companies/acme/auth-projects/" + p.id + "/users/" + user_id;
  }
};

std::int64_t sign_count_of(const Reply& list, std::size_t i = 0) {
  return list.data().as_array().at(i).as_object().at("signCount").as_int64();
}

}  // namespace

TEST_CASE("registration: creation options for the browser, then the verified passkey is stored") {
  PasskeyTest t;
  t.sign_up();
  auto options = t.register_options();
  REQUIRE_MESSAGE(options.status == 200, options.body);
  CHECK(str(options.data(), "ceremonyId").rfind("pkc_", 0) == 0);
  CHECK(obj(options).at("expiresIn").as_int64() == 300);
  const auto& o = obj(options).at("options").as_object();
  CHECK(unb64(str(o, "challenge")).size() == 32);
  CHECK(str(o.at("rp"), "id") == kRpId);
  CHECK(str(o.at("rp"), "name") == "Example App");
  const auto& user = o.at("user").as_object();
  const Bytes handle = unb64(str(user, "id"));
  CHECK(handle.size() == 64);
  CHECK(core::to_string(handle).find(t.user_id) == std::string::npos);
  CHECK(str(user, "name") == "ayse@example.com");
  CHECK(str(user, "displayName") == "Test User");
  const auto& params = o.at("pubKeyCredParams").as_array();
  REQUIRE(params.size() == 2);
  CHECK(params[0].as_object().at("alg").as_int64() == -7);
  CHECK(params[1].as_object().at("alg").as_int64() == -257);
  CHECK(str(params[0], "type") == "public-key");
  CHECK(str(o, "attestation") == "none");
  CHECK(str(o.at("authenticatorSelection"), "residentKey") == "required");
  CHECK(str(o.at("authenticatorSelection"), "userVerification") == "preferred");
  CHECK(o.at("excludeCredentials").as_array().empty());
  CHECK(o.at("timeout").as_int64() == 300'000);

  SoftAuthenticator auth;
  auto done = t.register_verify(str(options.data(), "ceremonyId"), auth.create(o));
  REQUIRE_MESSAGE(done.status == 201, done.body);
  const auto& pk = obj(done);
  CHECK(str(pk, "id").rfind("pk_", 0) == 0);
  CHECK(str(pk, "name") == "Passkey");
  CHECK(str(pk, "credentialId") == b64(auth.credential_id));
  CHECK(str(pk, "aaguid") == "00000000-0000-0000-0000-000000000000");
  CHECK(pk.at("alg").as_int64() == -7);
  CHECK(pk.at("signCount").as_int64() == 0);
  CHECK(pk.at("backupEligible").as_bool() == false);
  CHECK(pk.at("backedUp").as_bool() == false);
  CHECK(pk.at("transports").as_array() == json::array{"internal"});
  CHECK(str(pk, "createdAt") == "2026-11-18T11:06:40.000Z");
  CHECK(pk.at("lastUsedAt").is_null());
  CHECK(!pk.contains("userHandle"));
  CHECK(!pk.contains("publicKey"));

  // The user's list, the dashboard's view, and the next options exclude the registered credential.
  auto list = t.list();
  REQUIRE(list.status == 200);
  REQUIRE(list.data().as_array().size() == 1);
  CHECK(str(list.data().as_array()[0], "id") == str(pk, "id"));
  auto dash = t.edge.get(t.dashboard_user() + "/passkeys", t.p.manager);
  REQUIRE(dash.status == 200);
  CHECK(dash.data().as_array().size() == 1);
  auto again = t.register_options();
  const auto& o2 = obj(again).at("options").as_object();
  CHECK(str(o2.at("user"), "id") == str(user, "id"));  // one handle per user
  REQUIRE(o2.at("excludeCredentials").as_array().size() == 1);
  const auto& excluded = o2.at("excludeCredentials").as_array()[0].as_object();
  CHECK(str(excluded, "id") == b64(auth.credential_id));
  CHECK(str(excluded, "type") == "public-key");
  CHECK(excluded.at("transports").as_array() == json::array{"internal"});

  // The same credential again (an authenticator ignoring excludeCredentials): 409.
  auto dup = t.register_verify(str(again.data(), "ceremonyId"), auth.create(o2));
  CHECK(dup.status == 409);
  CHECK(dup.error() == "this passkey is already registered");

  // A name may be given.
  SoftAuthenticator second;
  auto third = t.register_options();
  auto named = t.post("/passkeys/register/verify",
                      {{"ceremonyId", str(third.data(), "ceremonyId")},
                       {"credential", second.create(obj(third).at("options").as_object())},
                       {"name", "Work laptop"}});
  REQUIRE(named.status == 201);
  CHECK(str(named.data(), "name") == "Work laptop");
  CHECK(t.list().data().as_array().size() == 2);
}

TEST_CASE("a user holds at most 20 passkeys") {
  PasskeyTest t;
  t.sign_up();
  for (int i = 0; i < 20; ++i) {
    SoftAuthenticator auth;
    t.enroll(auth);
  }
  SoftAuthenticator one_more;
  auto options = t.register_options();
  auto refused = t.register_verify(str(options.data(), "ceremonyId"),
                                   one_more.create(obj(options).at("options").as_object()));
  CHECK(refused.status == 422);
  CHECK(refused.error() == "a user may hold at most 20 passkeys; delete one first");
  CHECK(t.list().data().as_array().size() == 20);
}

TEST_CASE("registration needs a live session of the user and a well-formed credential") {
  PasskeyTest t;
  t.sign_up();
  CHECK(t.post("/passkeys/register/options", {}).error() == "field 'accessToken' is required");
  auto bad = t.post("/passkeys/register/options", {{"accessToken", "not-a-jwt"}});
  CHECK(bad.status == 401);
  CHECK(bad.error() == "the access token is invalid or expired");
  CHECK(t.post("/passkeys/list", {{"accessToken", "x"}}).status == 401);

  auto options = t.register_options();
  const std::string ceremony = str(options.data(), "ceremonyId");
  SoftAuthenticator auth;
  json::object credential = auth.create(obj(options).at("options").as_object());
  CHECK(t.post("/passkeys/register/verify", {{"ceremonyId", ceremony}}).error() ==
        "field 'credential' is required");
  json::object no_attestation = credential;
  no_attestation["response"].as_object().erase("attestationObject");
  CHECK(t.register_verify(ceremony, no_attestation).error() ==
        "field 'credential.response.attestationObject' is required");
  json::object not_b64 = credential;
  not_b64["response"].as_object()["clientDataJSON"] = "not base64url!";
  CHECK(t.register_verify(ceremony, not_b64).error() ==
        "field 'credential.response.clientDataJSON' must be base64url");
  json::object other_raw = credential;
  other_raw["rawId"] = "AAAA";
  CHECK(t.register_verify(ceremony, other_raw).error() == "'credential.id' and 'credential.rawId' differ");
  // None of those reached the ceremony. The session ends between options and verify: the ceremony does
  // not outlive it.
  REQUIRE(t.edge.del(t.p.base + "/users/" + t.user_id + "/sessions", t.p.key).status == 200);
  auto ended = t.register_verify(ceremony, credential);
  CHECK(ended.status == 401);
  CHECK(ended.error() == "the session that began this registration has ended");
}

TEST_CASE("passwordless sign-in with a discoverable credential; the counter moves forward") {
  PasskeyTest t;
  t.sign_up();
  SoftAuthenticator auth;
  t.enroll(auth);

  auto options = t.login_options();
  REQUIRE_MESSAGE(options.status == 200, options.body);
  const auto& o = obj(options).at("options").as_object();
  CHECK(unb64(str(o, "challenge")).size() == 32);
  CHECK(str(o, "rpId") == kRpId);
  CHECK(str(o, "userVerification") == "preferred");
  CHECK(o.at("allowCredentials").as_array().empty());
  CHECK(o.at("timeout").as_int64() == 300'000);
  CHECK(str(options.data(), "ceremonyId").rfind("pkc_", 0) == 0);

  t.edge.clock.advance_ms(1000);
  auto in = t.login_verify(str(options.data(), "ceremonyId"), auth.get(o));
  REQUIRE_MESSAGE(in.status == 200, in.body);
  CHECK(str(obj(in).at("user"), "id") == t.user_id);
  CHECK(str(obj(in).at("user"), "email") == "ayse@example.com");
  CHECK(str(in.data(), "tokenType") == "Bearer");
  CHECK(str(in.data(), "refreshToken").rfind("apr_", 0) == 0);
  const std::string access = str(in.data(), "accessToken");
  auto info = t.edge.get(t.p.base + "/userinfo", access);
  REQUIRE(info.status == 200);
  CHECK(str(info.data(), "email") == "ayse@example.com");
  auto sessions = t.edge.get(t.p.base + "/users/" + t.user_id + "/sessions", t.p.key);
  CHECK(str(sessions.data().as_array()[0], "amr") == "passkey");

  auto list = t.list();
  CHECK(sign_count_of(list) == 1);
  CHECK(str(list.data().as_array()[0], "lastUsedAt") == "2026-11-18T11:06:41.000Z");
  REQUIRE(t.sign_in(auth).status == 200);
  REQUIRE(t.sign_in(auth).status == 200);
  CHECK(sign_count_of(t.list()) == 3);

  // An authenticator without a counter (synced passkeys) always says 0: that is fine while both are 0.
  SoftAuthenticator synced;
  synced.flags = 0x05 | 0x08 | 0x10;  // backup eligible and backed up
  PasskeyTest s("pk-synced");
  s.sign_up();
  auto stored = s.enroll(synced);
  CHECK(stored.at("backupEligible").as_bool());
  CHECK(stored.at("backedUp").as_bool());
  synced.has_counter = false;
  for (int i = 0; i < 2; ++i) {
    auto zero = s.sign_in(synced);
    CHECK_MESSAGE(zero.status == 200, zero.body);
  }
  CHECK(sign_count_of(s.list()) == 0);
}

TEST_CASE("a counter that does not increase is refused and the stored counter stays") {
  PasskeyTest t;
  t.sign_up();
  SoftAuthenticator auth;
  t.enroll(auth);
  auth.counter = 4;
  REQUIRE(t.sign_in(auth).status == 200);  // 5
  CHECK(sign_count_of(t.list()) == 5);

  auth.counter = 2;  // a clone that lags behind: 3
  auto lagging = t.sign_in(auth);
  CHECK(lagging.status == 401);
  CHECK(lagging.error() ==
        "the authenticator's signature counter did not increase, so the credential may have been cloned");
  auth.counter = 4;  // the same value again: 5
  CHECK(t.sign_in(auth).status == 401);
  CHECK(sign_count_of(t.list()) == 5);
  auth.counter = 0;  // dropping back to 0 after non-zero values: 0 after ++ is 1, still below
  CHECK(t.sign_in(auth).status == 401);
  auth.counter = 9;
  CHECK(t.sign_in(auth).status == 200);
  CHECK(sign_count_of(t.list()) == 10);
}

TEST_CASE("a wrong origin or RP ID is refused at registration and at sign-in") {
  PasskeyTest t;
  t.sign_up();
  SoftAuthenticator evil;
  evil.origin = "https://app.example.com.evil.test";
  auto options = t.register_options();
  auto wrong_origin = t.register_verify(str(options.data(), "ceremonyId"),
                                        evil.create(obj(options).at("options").as_object()));
  CHECK(wrong_origin.status == 400);
  CHECK(wrong_origin.error() == "the ceremony ran on an origin that is not allowed");
  SoftAuthenticator other_rp;
  other_rp.rp_id = "example.com";
  options = t.register_options();
  auto wrong_rp = t.register_verify(str(options.data(), "ceremonyId"),
                                    other_rp.create(obj(options).at("options").as_object()));
  CHECK(wrong_rp.status == 400);
  CHECK(wrong_rp.error() == "the authenticator data was made for another relying party ID");
  CHECK(t.list().data().as_array().empty());

  SoftAuthenticator auth;
  t.enroll(auth);
  auth.origin = "http://app.example.com";  // not the registered https origin
  auto at_login = t.sign_in(auth);
  CHECK(at_login.status == 401);
  CHECK(at_login.error() == "the ceremony ran on an origin that is not allowed");
  CHECK(at_login.header("WWW-Authenticate") == "Bearer");
  auth.origin = kOrigin;
  auth.rp_id = "evil.test";
  auto rp_login = t.sign_in(auth);
  CHECK(rp_login.status == 401);
  CHECK(rp_login.error() == "the authenticator data was made for another relying party ID");
  auth.rp_id = kRpId;
  CHECK(t.sign_in(auth).status == 200);
}

TEST_CASE("ceremonies are single-use, expire after five minutes and keep to their kind") {
  PasskeyTest t;
  t.sign_up();
  SoftAuthenticator auth;
  t.enroll(auth);

  auto options = t.login_options();
  const std::string ceremony = str(options.data(), "ceremonyId");
  const auto& o = obj(options).at("options").as_object();
  REQUIRE(t.login_verify(ceremony, auth.get(o)).status == 200);
  auto replay = t.login_verify(ceremony, auth.get(o));
  CHECK(replay.status == 401);
  CHECK(replay.error() == "the passkey ceremony is unknown, expired or already used");

  // A failed verification uses the ceremony up too.
  options = t.login_options();
  auth.origin = "https://elsewhere.test";
  CHECK(t.login_verify(str(options.data(), "ceremonyId"), auth.get(obj(options).at("options").as_object()))
            .status == 401);
  auth.origin = kOrigin;
  CHECK(t.login_verify(str(options.data(), "ceremonyId"), auth.get(obj(options).at("options").as_object()))
            .error() == "the passkey ceremony is unknown, expired or already used");

  // Expiry: alive for five minutes, not a millisecond longer.
  auto late = t.login_options();
  auto in_time = t.login_options();
  t.edge.clock.advance_ms(300'000 - 1);
  CHECK(t.login_verify(str(in_time.data(), "ceremonyId"), auth.get(obj(in_time).at("options").as_object()))
            .status == 200);
  t.edge.clock.advance_ms(1);
  auto expired =
      t.login_verify(str(late.data(), "ceremonyId"), auth.get(obj(late).at("options").as_object()));
  CHECK(expired.status == 401);
  CHECK(expired.error() == "the passkey ceremony is unknown, expired or already used");
  auto reg = t.register_options();
  t.edge.clock.advance_ms(300'000);
  SoftAuthenticator second;
  CHECK(t.register_verify(str(reg.data(), "ceremonyId"), second.create(obj(reg).at("options").as_object()))
            .status == 401);

  // A registration ceremony is no sign-in ceremony, and junk is no ceremony.
  reg = t.register_options();
  CHECK(t.login_verify(str(reg.data(), "ceremonyId"), auth.get(obj(reg).at("options").as_object())).status ==
        401);
  CHECK(t.login_verify("pkc_nonsense", auth.get(o)).status == 401);
  options = t.login_options();
  CHECK(
      t.register_verify(str(options.data(), "ceremonyId"), second.create(obj(reg).at("options").as_object()))
          .status == 401);
}

TEST_CASE("an unknown credential, a foreign user handle or a bad signature answer 401") {
  PasskeyTest t;
  t.sign_up();
  SoftAuthenticator registered;
  t.enroll(registered);
  SoftAuthenticator stranger;
  stranger.user_handle = registered.user_handle;
  auto unknown = t.sign_in(stranger);
  CHECK(unknown.status == 401);
  CHECK(unknown.error() == "this passkey is not registered");

  registered.user_handle = Bytes(64, 7);
  auto handle = t.sign_in(registered);
  CHECK(handle.status == 401);
  CHECK(handle.error() == "the user handle does not belong to this passkey");

  // Another key under the registered credential ID: the signature does not verify.
  stranger.credential_id = registered.credential_id;
  auto forged = t.sign_in(stranger);
  CHECK(forged.status == 401);
  CHECK(forged.error() == "the assertion's signature does not verify with the credential's key");
}

TEST_CASE("failed passkey sign-ins count toward the lockout") {
  PasskeyTest t;
  t.sign_up();
  SoftAuthenticator auth;
  t.enroll(auth);
  SoftAuthenticator forger;
  forger.credential_id = auth.credential_id;
  forger.user_handle = auth.user_handle;
  for (int i = 0; i < 10; ++i) CHECK(t.sign_in(forger).status == 401);
  auto locked = t.sign_in(auth);
  CHECK(locked.status == 429);
  CHECK(std::stoi(locked.header("Retry-After")) > 0);
  t.edge.clock.advance_ms(90'000);
  CHECK(t.sign_in(auth).status == 200);
}

TEST_CASE("a disabled user cannot sign in with a passkey") {
  PasskeyTest t;
  t.sign_up();
  SoftAuthenticator auth;
  t.enroll(auth);
  REQUIRE(t.edge.patch(t.dashboard_user(), R"({"disabled":true})", t.p.manager).status == 200);
  auto refused = t.sign_in(auth);
  CHECK(refused.status == 403);
  CHECK(refused.error() == "this account is disabled");
  REQUIRE(t.edge.patch(t.dashboard_user(), R"({"disabled":false})", t.p.manager).status == 200);
  CHECK(t.sign_in(auth).status == 200);
}

TEST_CASE("every passkey call answers 403 while the method is off") {
  PasskeyTest t("pk-off", "");
  t.sign_up();
  const std::string ceremony = "pkc_" + std::string(43, 'A');
  for (const char* path : {"/passkeys/register/options", "/passkeys/register/verify", "/passkeys/list",
                           "/passkeys/delete", "/passkeys/login/options", "/passkeys/login/verify"}) {
    auto r = t.post(path, {{"accessToken", t.access_token}, {"ceremonyId", ceremony}});
    CHECK_MESSAGE(r.status == 403, path);
    CHECK(r.error() == "passkey sign-in is turned off for this project");
  }
  // Turned off after registration: sign-in stops, the passkey stays.
  PasskeyTest on("pk-later");
  on.sign_up();
  SoftAuthenticator auth;
  on.enroll(auth);
  auto begun = on.login_options();
  REQUIRE(on.edge
              .patch("/api/companies/acme/auth-projects/" + on.p.id, R"({"signInMethods":{"passkey":false}})",
                     on.p.manager)
              .status == 200);
  CHECK(on.login_options().status == 403);
  CHECK(on.login_verify(str(begun.data(), "ceremonyId"), auth.get(obj(begun).at("options").as_object()))
            .status == 403);
  CHECK(on.edge.get(on.dashboard_user() + "/passkeys", on.p.manager).data().as_array().size() == 1);
  // Without the project key nothing is answered at all.
  CHECK(on.edge.post(on.p.base + "/passkeys/login/options", "{}").status == 401);
}

TEST_CASE("one project's ceremonies and passkeys are unknown in another") {
  PasskeyTest a("pk-a");
  a.sign_up();
  SoftAuthenticator auth;
  a.enroll(auth);
  TestProject b = make_project(a.edge, "pk-b", kPasskeySettings);

  auto options = a.login_options();
  auto assertion = auth.get(obj(options).at("options").as_object());
  auto foreign = call(a.edge, b, "/passkeys/login/verify",
                      core::to_json(json::object{{"ceremonyId", str(options.data(), "ceremonyId")},
                                                 {"credential", assertion}}));
  CHECK(foreign.status == 401);
  CHECK(foreign.error() == "the passkey ceremony is unknown, expired or already used");
  // B's own ceremony with A's credential: not registered in B.
  auto b_options = call(a.edge, b, "/passkeys/login/options", "{}");
  auto b_assertion = auth.get(obj(b_options).at("options").as_object());
  auto unknown = call(a.edge, b, "/passkeys/login/verify",
                      core::to_json(json::object{{"ceremonyId", str(b_options.data(), "ceremonyId")},
                                                 {"credential", b_assertion}}));
  CHECK(unknown.status == 401);
  CHECK(unknown.error() == "this passkey is not registered");
  // A's ceremony was untouched by B's refusal.
  CHECK(a.login_verify(str(options.data(), "ceremonyId"), auth.get(obj(options).at("options").as_object()))
            .status == 200);
  // A's user's access token does not list passkeys through B.
  CHECK(call(a.edge, b, "/passkeys/list", core::to_json(json::object{{"accessToken", a.access_token}}))
            .status == 401);
}

TEST_CASE("passkeys are deleted by the user, by the dashboard, and with their user") {
  PasskeyTest t;
  t.sign_up();
  SoftAuthenticator first, second;
  const std::string first_id = str(t.enroll(first), "id");
  const std::string second_id = str(t.enroll(second), "id");

  auto gone = t.post("/passkeys/delete", {{"accessToken", t.access_token}, {"passkeyId", first_id}});
  REQUIRE(gone.status == 200);
  CHECK(gone.data().as_object().at("deleted").as_bool());
  CHECK(t.post("/passkeys/delete", {{"accessToken", t.access_token}, {"passkeyId", first_id}}).status == 404);
  CHECK(t.sign_in(first).error() == "this passkey is not registered");
  CHECK(t.list().data().as_array().size() == 1);

  // Another user cannot delete this user's passkey.
  auto other = signup(t.edge, t.p, "other@example.com");
  const std::string other_token = str(other.data(), "accessToken");
  CHECK(t.post("/passkeys/delete", {{"accessToken", other_token}, {"passkeyId", second_id}}).status == 404);

  // The dashboard: 404 for an unknown user or passkey, then the delete.
  CHECK(t.edge.get("/api/companies/acme/auth-projects/" + t.p.id + "/users/apu_nobody/passkeys", t.p.manager)
            .status == 404);
  CHECK(t.edge.del(t.dashboard_user() + "/passkeys/pk_nothinghere00000", t.p.manager).status == 404);
  CHECK(t.edge.get(t.dashboard_user() + "/passkeys", t.edge.token_with("acme", {"domains.view"})).status ==
        403);
  auto dash = t.edge.del(t.dashboard_user() + "/passkeys/" + second_id, t.p.manager);
  REQUIRE(dash.status == 200);
  CHECK(t.edge.get(t.dashboard_user() + "/passkeys", t.p.manager).data().as_array().empty());
  CHECK(t.sign_in(second).status == 401);

  // Deleting the user deletes its passkeys and their index: the credential is free to register again.
  SoftAuthenticator third;
  t.enroll(third);
  REQUIRE(t.edge.del(t.dashboard_user(), t.p.manager).status == 200);
  auto after = t.sign_in(third);
  CHECK(after.status == 401);
  CHECK(after.error() == "this passkey is not registered");
  t.sign_up("ayse@example.com");
  CHECK(t.list().data().as_array().empty());
  t.enroll(third);
  CHECK(t.sign_in(third).status == 200);
}

TEST_SUITE_END();
