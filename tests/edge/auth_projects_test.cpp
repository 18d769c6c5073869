// Auth projects (document 2, "Auth project API"; DECISIONS.md "Auth projects"): the dashboard API for
// projects, keys and signing keys, and the end-user endpoints with exact statuses and bodies: signup,
// login, refresh with rotation, logout, userinfo, jwks.json; one project's key or token never works on
// another project.

#include <doctest/doctest.h>

#include "auth_support.h"
#include "core/auth/access_token.h"
#include "core/jwk.h"
#include "core/jwt.h"

using testing::TestEdge;
using namespace auth_test;

TEST_SUITE_BEGIN("auth_projects");

namespace {

edge::Config unthrottled() {
  edge::Config c;
  c.rate_limit = {1'000'000, 1000};
  c.mail.delivery_workers = 0;
  return c;
}

const json::object& obj(const testing::Reply& r) {
  return r.data().as_object();
}

}  // namespace

TEST_CASE("projects: create, list, read, update, delete; slug rules and isolation between companies") {
  TestEdge edge(unthrottled());
  const std::string mgr = manager_token(edge), gmgr = manager_token(edge, "globex");
  auto created = edge.post("/api/companies/acme/auth-projects", R"({"name":"Shop","slug":"shop"})", mgr);
  REQUIRE(created.status == 201);
  const auto& p = obj(created);
  CHECK(str(p, "slug") == "shop");
  CHECK(str(p, "issuer") == edge.url() + "/api/v1/auth/shop");
  CHECK(str(p, "jwksUrl") == edge.url() + "/api/v1/auth/shop/jwks.json");
  CHECK(p.at("accessTokenTtlSeconds").as_int64() == 900);
  CHECK(p.at("refreshTokenTtlSeconds").as_int64() == 30 * 86400);
  CHECK(p.at("refreshReuseIntervalSeconds").as_int64() == 10);
  CHECK(p.at("signInMethods").as_object().at("password").as_bool());
  const std::string id = str(p, "id");

  // Slugs are platform-wide: another company cannot take it either.
  auto dup = edge.post("/api/companies/globex/auth-projects", R"({"name":"X","slug":"shop"})", gmgr);
  CHECK(dup.status == 409);
  CHECK(dup.error() == "an auth project with slug 'shop' already exists");
  CHECK(edge.post("/api/companies/acme/auth-projects", R"({"name":"X","slug":"Bad Slug"})", mgr).status ==
        400);
  CHECK(edge.post("/api/companies/acme/auth-projects", R"({"slug":"noname"})", mgr).error() ==
        "field 'name' is required");
  auto bad_ttl = edge.post("/api/companies/acme/auth-projects",
                           R"({"name":"X","slug":"ttl","accessTokenTtlSeconds":5})", mgr);
  CHECK(bad_ttl.status == 400);
  CHECK(bad_ttl.error() == "'accessTokenTtlSeconds' must be between 60 and 86400");
  auto bad_url =
      edge.post("/api/companies/acme/auth-projects",
                R"({"name":"X","slug":"urls","allowedRedirectUrls":["ftp://files.example.com/x"]})", mgr);
  CHECK(bad_url.status == 400);
  auto unknown = edge.post("/api/companies/acme/auth-projects",
                           R"({"name":"X","slug":"pp","passwordPolicy":{"minLenght":12}})", mgr);
  CHECK(unknown.status == 400);
  CHECK(unknown.error() == "'passwordPolicy' has no member 'minLenght'");

  auto list = edge.get("/api/companies/acme/auth-projects", mgr);
  REQUIRE(list.status == 200);
  CHECK(list.data().as_array().size() == 1);
  CHECK(edge.get("/api/companies/globex/auth-projects", gmgr).data().as_array().empty());
  // Another company's project: 404, never 403.
  CHECK(edge.get("/api/companies/globex/auth-projects/" + id, gmgr).status == 404);
  CHECK(edge.del("/api/companies/globex/auth-projects/" + id, gmgr).status == 404);

  auto patched = edge.patch("/api/companies/acme/auth-projects/" + id,
                            R"({"refreshReuseIntervalSeconds":0,"passwordPolicy":{"minLength":12}})", mgr);
  REQUIRE(patched.status == 200);
  CHECK(obj(patched).at("refreshReuseIntervalSeconds").as_int64() == 0);
  CHECK(obj(patched).at("passwordPolicy").as_object().at("minLength").as_int64() == 12);
  // A refused patch changes nothing.
  CHECK(edge.patch("/api/companies/acme/auth-projects/" + id, R"({"name":"New","accessTokenTtlSeconds":1})",
                   mgr)
            .status == 400);
  CHECK(str(edge.get("/api/companies/acme/auth-projects/" + id, mgr).data(), "name") == "Shop");

  // Renaming the slug moves the end-user paths and the issuer: a token verified before no longer passes.
  auto key = edge.post("/api/companies/acme/auth-projects/" + id + "/keys", "{}", mgr);
  const std::string shop_key = str(key.data(), "key");
  const std::string token =
      str(edge.post("/api/v1/auth/shop/signup",
                    R"({"email":"r@example.com","password":"correct horse battery"})", shop_key)
              .data(),
          "accessToken");
  CHECK(edge.get("/api/v1/auth/shop/userinfo", token).status == 200);
  REQUIRE(edge.patch("/api/companies/acme/auth-projects/" + id, R"({"slug":"store"})", mgr).status == 200);
  CHECK(edge.get("/api/v1/auth/store/userinfo", token).status == 401);
  CHECK(edge.get("/api/v1/auth/shop/jwks.json").status == 404);
  CHECK(edge.get("/api/v1/auth/store/jwks.json").status == 200);

  auto deleted = edge.del("/api/companies/acme/auth-projects/" + id, mgr);
  CHECK(deleted.status == 200);
  CHECK(edge.get("/api/companies/acme/auth-projects/" + id, mgr).status == 404);
  CHECK(edge.get("/api/v1/auth/store/jwks.json").status == 404);
  // The slug is free again.
  CHECK(edge.post("/api/companies/globex/auth-projects", R"({"name":"X","slug":"store"})", gmgr).status ==
        201);
}

TEST_CASE("the dashboard API needs auth-projects.manage") {
  TestEdge edge(unthrottled());
  const std::string weak = edge.token_with("acme", {"domains.view"});
  auto r = edge.get("/api/companies/acme/auth-projects", weak);
  CHECK(r.status == 403);
  CHECK(r.error() == "access token lacks permission 'auth-projects.manage'");
  CHECK(edge.get("/api/companies/acme/auth-projects").status == 401);
}

TEST_CASE("aps_ keys: plaintext once, listed by prefix, revoked at once") {
  TestEdge edge(unthrottled());
  TestProject p = make_project(edge, "keys");
  CHECK(p.key.rfind("aps_", 0) == 0);
  CHECK(p.key.size() == 52);
  auto list = edge.get("/api/companies/acme/auth-projects/" + p.id + "/keys", p.manager);
  REQUIRE(list.data().as_array().size() == 1);
  const auto& k = list.data().as_array()[0].as_object();
  CHECK(str(k, "tokenPrefix") == p.key.substr(0, 12));
  CHECK(str(k, "name") == "server");
  CHECK(!k.contains("key"));
  CHECK(list.body.find(p.key) == std::string::npos);

  CHECK(signup(edge, p, "a@example.com").status == 201);
  auto revoked = edge.del("/api/companies/acme/auth-projects/" + p.id + "/keys/" + str(k, "id"), p.manager);
  CHECK(revoked.status == 200);
  CHECK(!revoked.data().as_object().at("revokedAt").is_null());
  auto after = signup(edge, p, "b@example.com");
  CHECK(after.status == 401);
  CHECK(after.error() == "unknown or revoked project key");
  CHECK(after.header("WWW-Authenticate") == "Bearer");
  CHECK(edge.post(p.base + "/login", "{}", "").error() ==
        "Authorization must be 'Bearer aps_...' with a key of this project");
  CHECK(edge.post(p.base + "/login", "{}", "stk_" + std::string(48, 'a')).status == 401);
  CHECK(edge.post("/api/v1/auth/nope/login", "{}", p.key).status == 404);
}

TEST_CASE("signup and login: bodies, statuses, policy, duplicate emails, methods off") {
  TestEdge edge(unthrottled());
  TestProject p = make_project(edge, "app", R"("passwordPolicy":{"minLength":10,"requireDigit":true})");
  auto weak = signup(edge, p, "ayse@example.com", "short");
  CHECK(weak.status == 400);
  CHECK(weak.error() == "the password needs at least 10 characters and a digit");
  CHECK(signup(edge, p, "not-an-email", "long enough 1").status == 400);

  auto up = signup(edge, p, "Ayse@Example.com", "long enough 1");
  REQUIRE(up.status == 201);
  const auto& d = obj(up);
  const auto& user = d.at("user").as_object();
  CHECK(str(user, "email") == "ayse@example.com");
  CHECK(str(user, "name") == "Test User");
  CHECK(user.at("emailVerified").as_bool() == false);
  CHECK(!user.contains("passwordHash"));
  CHECK(str(d, "tokenType") == "Bearer");
  CHECK(d.at("expiresIn").as_int64() == 900);
  CHECK(str(d, "refreshToken").rfind("apr_", 0) == 0);
  CHECK(up.body.find("argon2") == std::string::npos);

  auto again = signup(edge, p, "AYSE@example.com", "long enough 1");
  CHECK(again.status == 409);
  CHECK(again.error() == "a user with this email already exists");

  auto login = call(edge, p, "/login", R"({"email":"ayse@example.com","password":"long enough 1"})");
  REQUIRE(login.status == 200);
  CHECK(str(obj(login).at("user"), "id") == str(user, "id"));
  CHECK(!str(obj(login), "accessToken").empty());
  auto wrong = call(edge, p, "/login", R"({"email":"ayse@example.com","password":"wrong password 1"})");
  CHECK(wrong.status == 401);
  CHECK(wrong.error() == "invalid email or password");
  auto unknown = call(edge, p, "/login", R"({"email":"nobody@example.com","password":"long enough 1"})");
  CHECK(unknown.status == 401);
  CHECK(unknown.error() == "invalid email or password");
  CHECK(call(edge, p, "/login", R"({"email":"ayse@example.com"})").error() == "field 'password' is required");
  CHECK(call(edge, p, "/login", "not json").status == 400);

  REQUIRE(edge.patch("/api/companies/acme/auth-projects/" + p.id, R"({"signInMethods":{"password":false}})",
                     p.manager)
              .status == 200);
  auto off = call(edge, p, "/login", R"({"email":"ayse@example.com","password":"long enough 1"})");
  CHECK(off.status == 403);
  CHECK(off.error() == "password sign-in is turned off for this project");
}

TEST_CASE("access tokens: RS256 with iss, sub, aud, exp, iat, sid, verified against jwks.json") {
  TestEdge edge(unthrottled());
  TestProject p = make_project(edge, "jwt");
  auto up = signup(edge, p, "jwt@example.com");
  REQUIRE(up.status == 201);
  const std::string token = str(up.data(), "accessToken");
  auto jwks = edge.get(p.base + "/jwks.json");
  REQUIRE(jwks.status == 200);
  CHECK(jwks.header("Access-Control-Allow-Origin") == "*");
  CHECK(jwks.json.as_object().contains("keys"));  // a JWK Set, not the envelope
  auto keys = core::parse_jwks(jwks.json.as_object());
  REQUIRE(keys.ok());
  REQUIRE(keys->size() == 1);
  auto decoded = core::decode_jwt(token);
  REQUIRE(decoded.ok());
  CHECK(str(decoded->header, "alg") == "RS256");
  CHECK(str(decoded->header, "kid") == (*keys)[0].kid);
  const auto& c = decoded->claims;
  CHECK(str(c, "iss") == edge.url() + "/api/v1/auth/jwt");
  CHECK(str(c, "aud") == p.id);
  CHECK(str(c, "sub") == str(obj(up).at("user"), "id"));
  CHECK(c.at("exp").as_int64() - c.at("iat").as_int64() == 900);
  CHECK(c.at("iat").as_int64() == TestEdge::kStart / 1000);
  CHECK(str(c, "sid").rfind("eus_", 0) == 0);
  auto verified = core::auth::verify_access_token(token, *keys, edge.url() + "/api/v1/auth/jwt", p.id,
                                                  TestEdge::kStart / 1000);
  CHECK(verified.ok());
}

TEST_CASE("userinfo takes the end user's access token and answers 401 once the session is gone") {
  TestEdge edge(unthrottled());
  TestProject p = make_project(edge, "info");
  auto up = signup(edge, p, "info@example.com");
  const std::string access = str(up.data(), "accessToken"), refresh = str(up.data(), "refreshToken");
  auto info = edge.get(p.base + "/userinfo", access);
  REQUIRE(info.status == 200);
  CHECK(str(info.data(), "email") == "info@example.com");
  CHECK(str(info.data(), "sessionId") == core::decode_jwt(access)->claims.at("sid").as_string());
  // The project key is not an end user's token.
  CHECK(edge.get(p.base + "/userinfo", p.key).status == 401);
  CHECK(edge.get(p.base + "/userinfo").status == 401);

  auto out = call(edge, p, "/logout", R"({"refreshToken":")" + refresh + R"("})");
  REQUIRE(out.status == 200);
  CHECK(out.data().as_object().at("revoked").as_bool());
  auto gone = edge.get(p.base + "/userinfo", access);
  CHECK(gone.status == 401);
  CHECK(gone.error() == "the session of this access token has ended");
  // Logging out again: nothing to revoke, still 200.
  auto twice = call(edge, p, "/logout", R"({"refreshToken":")" + refresh + R"("})");
  CHECK(twice.status == 200);
  CHECK(!twice.data().as_object().at("revoked").as_bool());
  // The refresh token of an ended session does not refresh.
  CHECK(call(edge, p, "/refresh", R"({"refreshToken":")" + refresh + R"("})").status == 401);

  // Expiry: 15 minutes.
  auto fresh = str(signup(edge, p, "later@example.com").data(), "accessToken");
  edge.clock.advance_ms(900'000);
  auto expired = edge.get(p.base + "/userinfo", fresh);
  CHECK(expired.status == 401);
  CHECK(expired.error() == "the access token is invalid or expired");
}

TEST_CASE("one project's key or token never works on another project") {
  TestEdge edge(unthrottled());
  TestProject a = make_project(edge, "proj-a");
  TestProject b = make_project(edge, "proj-b");
  auto up = signup(edge, a, "same@example.com");
  const std::string access = str(up.data(), "accessToken"), refresh = str(up.data(), "refreshToken");
  // A's key on B: unknown there.
  CHECK(edge.post(b.base + "/login", R"({"email":"same@example.com","password":"correct horse battery"})",
                  a.key)
            .status == 401);
  // A's tokens on B.
  CHECK(edge.get(b.base + "/userinfo", access).status == 401);
  CHECK(call(edge, b, "/refresh", R"({"refreshToken":")" + refresh + R"("})").status == 401);
  CHECK(!call(edge, b, "/logout", R"({"refreshToken":")" + refresh + R"("})")
             .data()
             .as_object()
             .at("revoked")
             .as_bool());
  // The same email is a different user in B.
  CHECK(signup(edge, b, "same@example.com").status == 201);
  CHECK(edge.get(a.base + "/userinfo", access).status == 200);
  // A's user id under B's key.
  const std::string uid = str(obj(up).at("user"), "id");
  CHECK(edge.get(b.base + "/users/" + uid + "/sessions", b.key).status == 404);
}

TEST_CASE("signing key rotation: the previous key stays in jwks.json until its tokens expire") {
  TestEdge edge(unthrottled());
  TestProject p = make_project(edge, "rotate");
  const std::string before = str(signup(edge, p, "r1@example.com").data(), "accessToken");
  const std::string old_kid = core::decode_jwt(before)->header.at("kid").as_string().c_str();
  auto rotated =
      edge.post("/api/companies/acme/auth-projects/" + p.id + "/signing-keys/rotate", "", p.manager);
  REQUIRE(rotated.status == 200);
  const std::string new_kid = str(rotated.data(), "kid");
  CHECK(new_kid != old_kid);
  const std::string after = str(signup(edge, p, "r2@example.com").data(), "accessToken");
  CHECK(core::decode_jwt(after)->header.at("kid").as_string() == new_kid);
  auto keys = core::parse_jwks(edge.get(p.base + "/jwks.json").json.as_object());
  REQUIRE(keys->size() == 2);
  CHECK((*keys)[0].kid == new_kid);
  CHECK(edge.get(p.base + "/userinfo", before).status == 200);
  auto listed = edge.get("/api/companies/acme/auth-projects/" + p.id + "/signing-keys", p.manager);
  REQUIRE(listed.data().as_array().size() == 2);
  CHECK(listed.data().as_array()[0].as_object().at("current").as_bool());
  // 15 minutes and a minute of leeway later the old key leaves the set.
  edge.clock.advance_ms(900'000 + 60'000);
  keys = core::parse_jwks(edge.get(p.base + "/jwks.json").json.as_object());
  REQUIRE(keys->size() == 1);
  CHECK((*keys)[0].kid == new_kid);
}

TEST_CASE("refresh rotates; a replay after the reuse interval revokes the whole session") {
  TestEdge edge(unthrottled());
  TestProject p = make_project(edge, "refresh");
  auto up = signup(edge, p, "rot@example.com");
  const std::string r0 = str(up.data(), "refreshToken");
  auto first = call(edge, p, "/refresh", R"({"refreshToken":")" + r0 + R"("})");
  REQUIRE(first.status == 200);
  const std::string r1 = str(first.data(), "refreshToken"), a1 = str(first.data(), "accessToken");
  CHECK(r1 != r0);
  CHECK(str(first.data(), "tokenType") == "Bearer");
  CHECK(first.data().as_object().at("expiresIn").as_int64() == 900);

  // Within the interval (10 s) the old token answers the same pair.
  edge.clock.advance_ms(5'000);
  auto reuse = call(edge, p, "/refresh", R"({"refreshToken":")" + r0 + R"("})");
  REQUIRE(reuse.status == 200);
  CHECK(str(reuse.data(), "refreshToken") == r1);
  CHECK(str(reuse.data(), "accessToken") == a1);

  // After it, the replay revokes the session: r1 dies too.
  edge.clock.advance_ms(5'000);
  auto replay = call(edge, p, "/refresh", R"({"refreshToken":")" + r0 + R"("})");
  CHECK(replay.status == 401);
  CHECK(replay.error() == "this refresh token was already used; the session is revoked");
  CHECK(call(edge, p, "/refresh", R"({"refreshToken":")" + r1 + R"("})").status == 401);
  CHECK(edge.get(p.base + "/userinfo", a1).status == 401);
  CHECK(call(edge, p, "/refresh", R"({"refreshToken":"apr_nonsense"})").error() ==
        "the refresh token is invalid, expired or revoked");
}

TEST_CASE("once the successor is used, the old token is a replay even within the interval") {
  TestEdge edge(unthrottled());
  TestProject p = make_project(edge, "chain");
  const std::string r0 = str(signup(edge, p, "c@example.com").data(), "refreshToken");
  const std::string r1 =
      str(call(edge, p, "/refresh", R"({"refreshToken":")" + r0 + R"("})").data(), "refreshToken");
  auto second = call(edge, p, "/refresh", R"({"refreshToken":")" + r1 + R"("})");
  REQUIRE(second.status == 200);
  CHECK(call(edge, p, "/refresh", R"({"refreshToken":")" + r0 + R"("})").status == 401);
  CHECK(call(edge, p, "/refresh", R"({"refreshToken":")" + str(second.data(), "refreshToken") + R"("})")
            .status == 401);
}

TEST_CASE("refresh tokens expire after the project's lifetime") {
  TestEdge edge(unthrottled());
  TestProject p = make_project(edge, "expiry", R"("refreshTokenTtlSeconds":3600)");
  const std::string r0 = str(signup(edge, p, "e@example.com").data(), "refreshToken");
  edge.clock.advance_ms(3'600'000);
  CHECK(call(edge, p, "/refresh", R"({"refreshToken":")" + r0 + R"("})").status == 401);
}

TEST_CASE(
    "sessions through the key and the dashboard: list, revoke one, revoke all; disable and delete users") {
  TestEdge edge(unthrottled());
  TestProject p = make_project(edge, "sess");
  auto up = signup(edge, p, "s@example.com");
  const std::string uid = str(obj(up).at("user"), "id");
  const std::string a1 = str(up.data(), "accessToken");
  edge.clock.advance_ms(1);
  auto login = call(edge, p, "/login", R"({"email":"s@example.com","password":"correct horse battery"})");
  const std::string a2 = str(login.data(), "accessToken");
  auto list = edge.get(p.base + "/users/" + uid + "/sessions", p.key);
  REQUIRE(list.status == 200);
  REQUIRE(list.data().as_array().size() == 2);
  CHECK(str(list.data().as_array()[0], "amr") == "pwd");
  const std::string sid2 = core::decode_jwt(a2)->claims.at("sid").as_string().c_str();
  CHECK(str(list.data().as_array()[0], "id") == sid2);  // newest first

  CHECK(edge.del(p.base + "/users/" + uid + "/sessions/" + sid2, p.key).status == 200);
  CHECK(edge.get(p.base + "/userinfo", a2).status == 401);
  CHECK(edge.get(p.base + "/userinfo", a1).status == 200);
  CHECK(edge.del(p.base + "/users/" + uid + "/sessions/" + sid2, p.key).status == 404);
  auto all = edge.del(p.base + "/users/" + uid + "/sessions", p.key);
  CHECK(all.data().as_object().at("revoked").as_int64() == 1);
  CHECK(edge.get(p.base + "/userinfo", a1).status == 401);

  // Dashboard: search, disable (ends sessions and refuses login), delete.
  const std::string a3 =
      str(call(edge, p, "/login", R"({"email":"s@example.com","password":"correct horse battery"})").data(),
          "accessToken");
  const std::string base = "/api/companies/acme/auth-projects/" + p.id + "/users";
  auto found = edge.get(base + "?q=S@EXAMPLE", p.manager);
  REQUIRE(found.data().as_array().size() == 1);
  CHECK(found.header("X-Total-Count") == "1");
  CHECK(edge.get(base + "?q=zzz", p.manager).data().as_array().empty());
  auto disabled = edge.patch(base + "/" + uid, R"({"disabled":true})", p.manager);
  CHECK(disabled.data().as_object().at("disabled").as_bool());
  CHECK(edge.get(p.base + "/userinfo", a3).status == 401);
  auto refused = call(edge, p, "/login", R"({"email":"s@example.com","password":"correct horse battery"})");
  CHECK(refused.status == 403);
  CHECK(refused.error() == "this account is disabled");
  CHECK(edge.del(base + "/" + uid, p.manager).status == 200);
  CHECK(edge.get(base + "/" + uid, p.manager).status == 404);
  CHECK(signup(edge, p, "s@example.com").status == 201);
}

TEST_CASE("failed logins lock the account out with Retry-After; a success clears the count") {
  TestEdge edge(unthrottled());
  TestProject p = make_project(edge, "lock");
  REQUIRE(signup(edge, p, "l@example.com").status == 201);
  for (int i = 0; i < 10; ++i)
    CHECK(call(edge, p, "/login", R"({"email":"l@example.com","password":"bad password!"})").status == 401);
  auto locked = call(edge, p, "/login", R"({"email":"l@example.com","password":"correct horse battery"})");
  CHECK(locked.status == 429);
  CHECK(std::stoi(locked.header("Retry-After")) > 0);
  // Another account from the same address is not locked.
  REQUIRE(signup(edge, p, "m@example.com").status == 201);
  CHECK(call(edge, p, "/login", R"({"email":"m@example.com","password":"correct horse battery"})").status ==
        200);
  // The budget refills with time (10 per 15 minutes).
  edge.clock.advance_ms(90'000);
  CHECK(call(edge, p, "/login", R"({"email":"l@example.com","password":"correct horse battery"})").status ==
        200);
}

TEST_SUITE_END();
