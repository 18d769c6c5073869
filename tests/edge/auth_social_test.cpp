// Social sign-in for auth projects (docs/auth-social.md) against the edge's own OpenID provider, in-process
// on loopback in RS256 mode: the dashboard's provider CRUD, /social/{id}/start, the browser's part at the
// provider (OAuthFlow: sign in, consent) with exactly the parameters of the authorizationUrl, and
// /social/callback and /social/link as the app's backend calls them.

#include <doctest/doctest.h>

#include "auth_support.h"
#include "core/jwt.h"
#include "edge/app.h"
#include "edge/auth_projects/end_users.h"
#include "edge/http/message.h"
#include "native/crypto/rsa_key.h"
#include "oauth_flow.h"

using auth_test::call;
using auth_test::make_project;
using auth_test::str;
using auth_test::TestProject;
using testing::OAuthFlow;
using testing::Reply;
using testing::TestEdge;
namespace json = core::json;

namespace {

const std::string kCallback = "https://rp.example/callback";
const std::string kSettings =
    R"("allowedRedirectUrls":["https://rp.example/callback"],"signInMethods":{"password":true,"social":true})";

edge::Config rs256_config() {
  static const std::string pem = native::generate_rsa_pem(2048);
  edge::Config config;
  config.oauth_rsa_private_key = pem;
  return config;
}

std::map<std::string, std::string> query_of(const std::string& url) {
  std::map<std::string, std::string> out;
  auto q = url.find('?');
  REQUIRE(q != std::string::npos);
  for (auto& [k, v] : edge::parse_url_encoded(url.substr(q + 1))) out.emplace(k, v);
  return out;
}

std::string json_text(const std::string& s) {
  return json::serialize(json::value(s));
}

// Every key of the auth table that starts with `prefix`.
std::vector<std::string> stored_keys(TestEdge& edge, const std::string& prefix) {
  std::vector<std::string> keys;
  auto& app = edge.server->app();
  REQUIRE(app.kv
              ->read([&](const store::ReadTxn& txn) -> core::Status {
                txn.scan(app.auth_table, prefix, [&](std::string_view k, std::string_view) {
                  keys.emplace_back(k);
                  return true;
                });
                return {};
              })
              .ok());
  return keys;
}

std::string amr_of(const std::string& access_token) {
  auto jwt = core::decode_jwt(access_token);
  REQUIRE(jwt.ok());
  return json::serialize(jwt->claims.at("amr"));
}

// An edge whose provider has a registered client for the app's callback, an auth project with social
// sign-in on, and that project's provider pointing at the edge itself.
struct Social {
  TestEdge edge{rs256_config()};
  OAuthFlow provider_client{edge};  // the app's OAuth client at the platform
  TestProject project;
  std::string provider_id;

  Social() {
    // The dashboard-only permission of the auth products (document 2, "Authentication" rule 4).
    edge.acme_token = edge.token_with("acme", {"auth-projects.manage", "oauth-clients.manage"});
    provider_client.redirect_uri = kCallback;
    provider_client.register_client();
    project = make_project(edge, "recipes", kSettings);
    provider_id = add_provider(project);
  }

  std::string providers_of(const TestProject& p) {
    return "/api/companies/acme/auth-projects/" + p.id + "/providers";
  }

  Reply create_provider(const TestProject& p, const std::string& issuer, const std::string& extra = "") {
    return edge.post(providers_of(p),
                     R"({"name":"Platform","issuer":)" + json_text(issuer) + R"(,"clientId":)" +
                         json_text(provider_client.client_id) + R"(,"clientSecret":)" +
                         json_text(provider_client.client_secret) + extra + "}",
                     edge.acme_token);
  }

  std::string add_provider(const TestProject& p) {
    auto r = create_provider(p, edge.url());
    REQUIRE_MESSAGE(r.status == 201, r.body);
    return str(r.data(), "id");
  }

  Reply start(const TestProject& p, const std::string& provider, const std::string& redirect = kCallback) {
    return call(edge, p, "/social/" + provider + "/start", R"({"redirectUri":)" + json_text(redirect) + "}");
  }

  // A browser signed in at the platform as `email`.
  OAuthFlow browser(const std::string& email) {
    OAuthFlow b(edge);
    b.client_id = provider_client.client_id;
    b.redirect_uri = kCallback;
    b.sign_in(email);
    return b;
  }

  // The browser's part: follows the authorizationUrl of a start (its own parameters, nothing added),
  // consents when asked, and answers the query the provider sends to the app's callback.
  std::map<std::string, std::string> at_provider(OAuthFlow& browser, const Reply& started) {
    REQUIRE_MESSAGE(started.status == 200, started.body);
    const std::string url = str(started.data(), "authorizationUrl");
    REQUIRE(url.rfind(edge.url() + "/oauth/authorize?", 0) == 0);
    auto page = browser.authorize(query_of(url));
    if (page.status == 200) page = browser.decide(page, "allow");
    REQUIRE_MESSAGE(page.status == 302, page.body);
    CHECK(page.header("Location").rfind(kCallback + "?", 0) == 0);
    return testing::location_query(page);
  }

  Reply callback(const TestProject& p, const std::string& state, const std::string& code) {
    return call(edge, p, "/social/callback",
                R"({"state":)" + json_text(state) + R"(,"code":)" + json_text(code) + "}");
  }

  // start, the provider, callback.
  Reply sign_in(OAuthFlow& browser, const TestProject& p, const std::string& provider) {
    auto started = start(p, provider);
    auto back = at_provider(browser, started);
    CHECK(back["state"] == str(started.data(), "state"));
    return callback(p, back["state"], back["code"]);
  }
  Reply sign_in(OAuthFlow& browser) { return sign_in(browser, project, provider_id); }

  Reply link(const std::string& ticket, const std::string& member, const std::string& value) {
    return call(edge, project, "/social/link",
                R"({"linkTicket":)" + json_text(ticket) + ",\"" + member + "\":" + json_text(value) + "}");
  }

  int user_count() {
    auto r = edge.get("/api/companies/acme/auth-projects/" + project.id + "/users", edge.acme_token);
    REQUIRE(r.status == 200);
    return static_cast<int>(r.data().as_array().size());
  }
};

}  // namespace

TEST_SUITE("auth_social") {
  TEST_CASE(
      "providers: discovery on create, CRUD, and the client secret is stored sealed and never returned") {
    Social s;
    const std::string base = s.providers_of(s.project);
    const std::string& secret = s.provider_client.client_secret;

    auto listed = s.edge.get(base, s.edge.acme_token);
    REQUIRE(listed.status == 200);
    REQUIRE(listed.data().as_array().size() == 1);
    const json::object& p = listed.data().as_array()[0].as_object();
    CHECK(p.at("id").as_string() == s.provider_id);
    CHECK(p.at("name").as_string() == "Platform");
    CHECK(p.at("issuer").as_string() == s.edge.url());
    CHECK(p.at("clientId").as_string() == s.provider_client.client_id);
    CHECK(p.at("scopes") == json::array{"openid", "email", "profile"});
    CHECK_FALSE(p.contains("clientSecret"));
    CHECK(listed.body.find(secret) == std::string::npos);

    // Sealed at rest: the record does not hold the plaintext.
    auto record_keys = stored_keys(s.edge, "p/" + s.project.id + "/idp/");
    REQUIRE(record_keys.size() == 1);
    auto& app = s.edge.server->app();
    std::string raw;
    REQUIRE(app.kv
                ->read([&](const store::ReadTxn& txn) -> core::Status {
                  raw = txn.get(app.auth_table, record_keys[0]).value_or("");
                  return {};
                })
                .ok());
    CHECK(raw.find("clientSecret") != std::string::npos);
    CHECK(raw.find(secret) == std::string::npos);

    auto one = s.edge.get(base + "/" + s.provider_id, s.edge.acme_token);
    REQUIRE(one.status == 200);
    CHECK(one.body.find(secret) == std::string::npos);

    auto patched = s.edge.patch(base + "/" + s.provider_id,
                                R"({"name":"Platform Login","clientSecret":"ocs_other","scopes":["email"]})",
                                s.edge.acme_token);
    REQUIRE_MESSAGE(patched.status == 200, patched.body);
    CHECK(str(patched.data(), "name") == "Platform Login");
    CHECK(patched.data().at("scopes") == json::array{"openid", "email"});
    CHECK(patched.body.find("ocs_other") == std::string::npos);
    CHECK(s.edge.patch(base + "/" + s.provider_id, "{}", s.edge.acme_token).status == 400);

    auto created = s.create_provider(s.project, s.edge.url(), R"(,"scopes":["profile","openid","profile"])");
    REQUIRE_MESSAGE(created.status == 201, created.body);
    CHECK(created.data().at("scopes") == json::array{"openid", "profile"});
    CHECK(created.body.find(secret) == std::string::npos);

    auto removed = s.edge.del(base + "/" + s.provider_id, s.edge.acme_token);
    CHECK(removed.status == 200);
    CHECK(s.edge.get(base + "/" + s.provider_id, s.edge.acme_token).status == 404);
    CHECK(s.edge.del(base + "/" + s.provider_id, s.edge.acme_token).status == 404);
    CHECK(s.edge.get(base, s.edge.acme_token).data().as_array().size() == 1);
  }

  TEST_CASE("providers: an issuer that cannot be discovered is 422, an unreachable one 502, a bad one 400") {
    Social s;
    // No discovery document there.
    auto missing = s.create_provider(s.project, s.edge.url() + "/nowhere");
    CHECK(missing.status == 422);
    CHECK(missing.error().find("cannot be discovered") != std::string::npos);
    // The document names another issuer (OpenID Connect Discovery §4.3: compared byte for byte).
    auto port = s.edge.url().substr(s.edge.url().rfind(':'));
    auto other = s.create_provider(s.project, "http://localhost" + port);
    CHECK(other.status == 422);
    // Nothing listens on port 1.
    auto down = s.create_provider(s.project, "http://127.0.0.1:1");
    CHECK(down.status == 502);
    CHECK(down.error().find("cannot be reached") != std::string::npos);
    // Plain http to a remote host, and no URL at all.
    CHECK(s.create_provider(s.project, "http://id.example.com").status == 400);
    CHECK(s.create_provider(s.project, "not a url").status == 400);
    // The secret is required, and never echoed in an error.
    auto no_secret = s.edge.post(s.providers_of(s.project),
                                 R"({"name":"P","issuer":)" + json_text(s.edge.url()) + R"(,"clientId":"x"})",
                                 s.edge.acme_token);
    CHECK(no_secret.status == 400);
    auto bad_scope = s.create_provider(s.project, s.edge.url(), R"(,"scopes":["email profile"])");
    CHECK(bad_scope.status == 400);
    CHECK(bad_scope.body.find(s.provider_client.client_secret) == std::string::npos);
    // A PATCH to an undiscoverable issuer keeps the old one.
    auto moved =
        s.edge.patch(s.providers_of(s.project) + "/" + s.provider_id,
                     R"({"issuer":)" + json_text(s.edge.url() + "/nowhere") + "}", s.edge.acme_token);
    CHECK(moved.status == 422);
    CHECK(str(s.edge.get(s.providers_of(s.project) + "/" + s.provider_id, s.edge.acme_token).data(),
              "issuer") == s.edge.url());
    // Another company cannot see the project.
    auto foreign = s.edge.token_with("globex", {"auth-projects.manage"});
    CHECK(s.edge.get("/api/companies/globex/auth-projects/" + s.project.id + "/providers", foreign).status ==
          404);
    // Only with the dashboard permission.
    auto weak = s.edge.token_with("acme", {"domains.view"});
    CHECK(s.edge.get(s.providers_of(s.project), weak).status == 403);
  }

  TEST_CASE("start: an authorizationUrl with PKCE, state and nonce; the checks before it") {
    Social s;
    auto started = s.start(s.project, s.provider_id);
    REQUIRE_MESSAGE(started.status == 200, started.body);
    CHECK(started.data().at("expiresIn").as_int64() == 600);
    auto q = query_of(str(started.data(), "authorizationUrl"));
    CHECK(q["response_type"] == "code");
    CHECK(q["client_id"] == s.provider_client.client_id);
    CHECK(q["redirect_uri"] == kCallback);
    CHECK(q["scope"] == "openid email profile");
    CHECK(q["state"] == str(started.data(), "state"));
    CHECK(q["state"].size() == 43);
    CHECK(q["nonce"].size() == 43);
    CHECK(q["code_challenge"].size() == 43);
    CHECK(q["code_challenge_method"] == "S256");
    // The state is stored as its hash, the nonce and verifier sealed.
    auto pending = stored_keys(s.edge, "p/" + s.project.id + "/sst/");
    REQUIRE(pending.size() == 1);
    CHECK(pending[0].find(q["state"]) == std::string::npos);

    // Only an allowed redirect URL, exactly.
    auto elsewhere = s.start(s.project, s.provider_id, "https://rp.example/callback/");
    CHECK(elsewhere.status == 400);
    CHECK(elsewhere.error() == "redirectUri is not one of the project's allowed redirect URLs");
    CHECK(s.start(s.project, s.provider_id, "https://evil.example/callback").status == 400);
    CHECK(call(s.edge, s.project, "/social/" + s.provider_id + "/start", "{}").status == 400);
    CHECK(s.start(s.project, "idp_unknown").status == 404);
    CHECK(s.edge
              .post(s.project.base + "/social/" + s.provider_id + "/start",
                    R"({"redirectUri":"https://rp.example/callback"})")
              .status == 401);

    // Social sign-in switched off: 403 on every social route.
    auto off = s.edge.patch("/api/companies/acme/auth-projects/" + s.project.id,
                            R"({"signInMethods":{"social":false}})", s.edge.acme_token);
    REQUIRE_MESSAGE(off.status == 200, off.body);
    auto refused = s.start(s.project, s.provider_id);
    CHECK(refused.status == 403);
    CHECK(refused.error() == "social sign-in is turned off for this project");
    CHECK(s.callback(s.project, q["state"], "oac_x").status == 403);
    CHECK(call(s.edge, s.project, "/social/link", R"({"linkTicket":"apt_x","password":"p"})").status == 403);
  }

  TEST_CASE("callback: a new user is created and signed in; the next sign-in reuses the identity") {
    Social s;
    OAuthFlow ada = s.browser("owner@acme.test");
    auto first = s.sign_in(ada);
    REQUIRE_MESSAGE(first.status == 200, first.body);
    const json::object& data = first.data().as_object();
    const json::object& user = data.at("user").as_object();
    CHECK(user.at("email").as_string() == "owner@acme.test");
    CHECK(user.at("name").as_string() == "acme Owner");
    CHECK(user.at("hasPassword").as_bool() == false);
    // The platform account's address is not verified, and the id_token says so.
    CHECK(user.at("emailVerified").as_bool() == false);
    CHECK(data.at("newUser").as_bool() == true);
    CHECK(data.at("tokenType").as_string() == "Bearer");
    const std::string access = std::string(data.at("accessToken").as_string());
    CHECK(amr_of(access) == R"(["social"])");
    CHECK(std::string(data.at("refreshToken").as_string()).rfind("apr_", 0) == 0);
    const std::string uid(user.at("id").as_string());

    auto info = s.edge.get(s.project.base + "/userinfo", access);
    REQUIRE(info.status == 200);
    CHECK(str(info.data(), "id") == uid);
    auto sessions = s.edge.get(s.project.base + "/users/" + uid + "/sessions", s.project.key);
    REQUIRE(sessions.status == 200);
    CHECK(str(sessions.data().as_array()[0], "amr") == "social");

    auto second = s.sign_in(ada);
    REQUIRE_MESSAGE(second.status == 200, second.body);
    CHECK(str(second.data().at("user"), "id") == uid);
    CHECK(second.data().at("newUser").as_bool() == false);
    CHECK(s.user_count() == 1);
    CHECK(stored_keys(s.edge, "p/" + s.project.id + "/idn/").size() == 1);
    CHECK(stored_keys(s.edge, "p/" + s.project.id + "/ux/" + uid + "/social/").size() == 1);
    // Each start's record went with its callback.
    CHECK(stored_keys(s.edge, "p/" + s.project.id + "/sst/").empty());
    CHECK(stored_keys(s.edge, "p/" + s.project.id + "/sst-exp/").empty());
  }

  TEST_CASE("callback: a verified address at the provider makes a verified user") {
    Social s;
    // Mark the platform account's address verified, as the platform's own flows would.
    auto& app = s.edge.server->app();
    REQUIRE(app.kv
                ->write([&](store::WriteTxn& txn) -> core::Status {
                  const std::string key = "user/" + s.edge.acme_owner_id;
                  auto rec = core::parse_json_object(txn.get(app.accounts_table, key).value_or(""));
                  REQUIRE(rec.ok());
                  (*rec)["emailVerified"] = true;
                  txn.put(app.accounts_table, key, core::to_json(*rec));
                  return {};
                })
                .ok());
    OAuthFlow ada = s.browser("owner@acme.test");
    auto r = s.sign_in(ada);
    REQUIRE_MESSAGE(r.status == 200, r.body);
    CHECK(r.data().at("user").at("emailVerified").as_bool() == true);
  }

  TEST_CASE("callback: a state answers once, expires after 10 minutes, and belongs to its project") {
    Social s;
    OAuthFlow ada = s.browser("owner@acme.test");

    // Replay: the same state and code again.
    auto started = s.start(s.project, s.provider_id);
    auto back = s.at_provider(ada, started);
    auto first = s.callback(s.project, back["state"], back["code"]);
    REQUIRE_MESSAGE(first.status == 200, first.body);
    auto replay = s.callback(s.project, back["state"], back["code"]);
    CHECK(replay.status == 401);
    CHECK(replay.error() == "the state is unknown, expired or already used");
    CHECK(replay.header("WWW-Authenticate") == "Bearer");
    CHECK(s.callback(s.project, "made-up", back["code"]).status == 401);

    // Project A's state on project B: unknown there, and still good on A afterwards.
    TestProject other = make_project(s.edge, "notes", kSettings);
    s.add_provider(other);
    started = s.start(s.project, s.provider_id);
    back = s.at_provider(ada, started);
    auto crossed = s.callback(other, back["state"], back["code"]);
    CHECK(crossed.status == 401);
    CHECK(crossed.error() == "the state is unknown, expired or already used");
    auto home = s.callback(s.project, back["state"], back["code"]);
    CHECK_MESSAGE(home.status == 200, home.body);

    // Expired: more than 10 minutes between start and callback.
    started = s.start(s.project, s.provider_id);
    s.edge.clock.advance_ms(601'000);
    back = s.at_provider(ada, started);
    CHECK(s.callback(s.project, back["state"], back["code"]).status == 401);

    // RFC 9207: the response's iss, when the app passes it, must be the provider's.
    started = s.start(s.project, s.provider_id);
    back = s.at_provider(ada, started);
    CHECK(back["iss"] == s.edge.url());
    auto mixed_up = call(s.edge, s.project, "/social/callback",
                         R"({"state":)" + json_text(back["state"]) + R"(,"code":)" + json_text(back["code"]) +
                             R"(,"iss":"https://other.example"})");
    CHECK(mixed_up.status == 401);
    CHECK(mixed_up.error() == "the authorization response comes from another issuer than this sign-in's");
    started = s.start(s.project, s.provider_id);
    back = s.at_provider(ada, started);
    auto named = call(s.edge, s.project, "/social/callback",
                      R"({"state":)" + json_text(back["state"]) + R"(,"code":)" + json_text(back["code"]) +
                          R"(,"iss":)" + json_text(back["iss"]) + "}");
    CHECK_MESSAGE(named.status == 200, named.body);

    // A code the provider refuses: the state is spent all the same.
    started = s.start(s.project, s.provider_id);
    back = s.at_provider(ada, started);
    auto refused = s.callback(s.project, back["state"], "oac_not-a-code");
    CHECK(refused.status == 401);
    CHECK(refused.error().find("the provider refused the code") != std::string::npos);
    CHECK(s.callback(s.project, back["state"], back["code"]).status == 401);
  }

  TEST_CASE("an email with an account: 409 linkRequired; /social/link with its password links and signs in") {
    Social s;
    auto signed_up = auth_test::signup(s.edge, s.project, "owner@acme.test", "correct horse battery");
    REQUIRE(signed_up.status == 201);
    const std::string uid = str(signed_up.data().at("user"), "id");
    OAuthFlow ada = s.browser("owner@acme.test");

    auto conflict = s.sign_in(ada);
    REQUIRE_MESSAGE(conflict.status == 409, conflict.body);
    CHECK(conflict.error() ==
          "an account with this email already exists; it must confirm before the provider is linked");
    const json::value& facts = conflict.data();
    CHECK(facts.at("linkRequired").as_bool() == true);
    CHECK(str(facts, "email") == "owner@acme.test");
    CHECK(str(facts, "providerId") == s.provider_id);
    const std::string ticket = str(facts, "linkTicket");
    CHECK(ticket.rfind("apt_", 0) == 0);
    // Nothing was linked, no user was added.
    CHECK(stored_keys(s.edge, "p/" + s.project.id + "/idn/").empty());
    CHECK(s.user_count() == 1);

    auto wrong = s.link(ticket, "password", "not the password");
    CHECK(wrong.status == 401);
    CHECK(wrong.error() == "wrong password for the existing account");
    CHECK(call(s.edge, s.project, "/social/link", R"({"linkTicket":)" + json_text(ticket) + "}").status ==
          400);

    auto linked = s.link(ticket, "password", "correct horse battery");
    REQUIRE_MESSAGE(linked.status == 200, linked.body);
    CHECK(str(linked.data().at("user"), "id") == uid);
    CHECK(amr_of(str(linked.data(), "accessToken")) == R"(["social"])");
    // The ticket is spent.
    CHECK(s.link(ticket, "password", "correct horse battery").status == 401);

    // From now on the provider signs in to that account directly.
    auto again = s.sign_in(ada);
    REQUIRE_MESSAGE(again.status == 200, again.body);
    CHECK(str(again.data().at("user"), "id") == uid);
    CHECK(again.data().at("newUser").as_bool() == false);
    CHECK(s.user_count() == 1);
  }

  TEST_CASE("link: wrong passwords kill the ticket and spend the account's login budget") {
    Social s;
    REQUIRE(auth_test::signup(s.edge, s.project, "owner@acme.test", "correct horse battery").status == 201);
    OAuthFlow ada = s.browser("owner@acme.test");
    auto conflict = s.sign_in(ada);
    REQUIRE(conflict.status == 409);
    const std::string ticket = str(conflict.data(), "linkTicket");
    for (int i = 0; i < 5; ++i) CHECK(s.link(ticket, "password", "guess " + std::to_string(i)).status == 401);
    auto dead = s.link(ticket, "password", "correct horse battery");
    CHECK(dead.status == 401);
    CHECK(dead.error() == "the link ticket is invalid, expired or already used");
    // Five failures at /social/link and five at /login: the account's ten per 15 minutes are spent.
    for (int i = 0; i < 5; ++i)
      CHECK(call(s.edge, s.project, "/login", R"({"email":"owner@acme.test","password":"nope"})").status ==
            401);
    auto limited = call(s.edge, s.project, "/login",
                        R"({"email":"owner@acme.test","password":"correct horse battery"})");
    CHECK(limited.status == 429);
    CHECK_FALSE(limited.header("Retry-After").empty());
  }

  TEST_CASE("link: a password-less account confirms with its access token instead") {
    Social s;
    // A second provider record for the same platform client: another identity of the same person.
    const std::string second = s.add_provider(s.project);
    OAuthFlow ada = s.browser("owner@acme.test");
    auto first = s.sign_in(ada);
    REQUIRE(first.status == 200);
    const std::string uid = str(first.data().at("user"), "id");
    const std::string access = str(first.data(), "accessToken");

    auto conflict = s.sign_in(ada, s.project, second);
    REQUIRE_MESSAGE(conflict.status == 409, conflict.body);
    const std::string ticket = str(conflict.data(), "linkTicket");
    CHECK(s.link(ticket, "password", "anything at all").status == 401);
    // Another user's token does not confirm this account.
    auto other = auth_test::signup(s.edge, s.project, "someone@else.test");
    REQUIRE(other.status == 201);
    auto foreign = s.link(ticket, "accessToken", str(other.data(), "accessToken"));
    CHECK(foreign.status == 401);
    CHECK(foreign.error() == "the access token belongs to another account than the link ticket's");
    CHECK(s.link(ticket, "accessToken", "not-a-jwt").status == 401);

    auto linked = s.link(ticket, "accessToken", access);
    REQUIRE_MESSAGE(linked.status == 200, linked.body);
    CHECK(str(linked.data().at("user"), "id") == uid);
    CHECK(stored_keys(s.edge, "p/" + s.project.id + "/ux/" + uid + "/social/").size() == 2);
    auto via_second = s.sign_in(ada, s.project, second);
    REQUIRE_MESSAGE(via_second.status == 200, via_second.body);
    CHECK(str(via_second.data().at("user"), "id") == uid);
  }

  TEST_CASE("a second factor is not skipped: mfaRequired after the provider, no link by password alone") {
    Social s;
    auto& app = s.edge.server->app();
    auto on = s.edge.patch("/api/companies/acme/auth-projects/" + s.project.id,
                           R"({"signInMethods":{"totp":true}})", s.edge.acme_token);
    REQUIRE_MESSAGE(on.status == 200, on.body);
    auto with_totp = [&](const std::string& uid) {
      auto changed =
          edge::auth_projects::update_user(app, s.project.id, uid, [](edge::auth_projects::EndUser& u) {
            u.mfa = json::object{{"totp", json::object{{"enabled", true}}}};
            return core::Status{};
          });
      REQUIRE(changed.ok());
    };

    OAuthFlow ada = s.browser("owner@acme.test");
    auto first = s.sign_in(ada);
    REQUIRE(first.status == 200);
    with_totp(str(first.data().at("user"), "id"));
    auto second = s.sign_in(ada);
    REQUIRE_MESSAGE(second.status == 200, second.body);
    CHECK(second.data().at("mfaRequired").as_bool() == true);
    CHECK(str(second.data(), "mfaTicket").rfind("apt_", 0) == 0);
    CHECK_FALSE(second.data().as_object().contains("accessToken"));

    auto signed_up = auth_test::signup(s.edge, s.project, "owner@globex.test", "correct horse battery");
    REQUIRE(signed_up.status == 201);
    with_totp(str(signed_up.data().at("user"), "id"));
    OAuthFlow bob = s.browser("owner@globex.test");
    auto conflict = s.sign_in(bob);
    REQUIRE(conflict.status == 409);
    auto refused = s.link(str(conflict.data(), "linkTicket"), "password", "correct horse battery");
    CHECK(refused.status == 403);
    CHECK(refused.error() ==
          "this account has a second factor: sign in to it fully, then link with its accessToken");
  }

  TEST_CASE("deleting a user removes its identities; deleting a provider removes the identities through it") {
    Social s;
    OAuthFlow ada = s.browser("owner@acme.test");
    auto first = s.sign_in(ada);
    REQUIRE(first.status == 200);
    const std::string uid = str(first.data().at("user"), "id");
    REQUIRE(
        s.edge.del("/api/companies/acme/auth-projects/" + s.project.id + "/users/" + uid, s.edge.acme_token)
            .status == 200);
    CHECK(stored_keys(s.edge, "p/" + s.project.id + "/idn/").empty());
    CHECK(stored_keys(s.edge, "p/" + s.project.id + "/ux/").empty());

    auto fresh = s.sign_in(ada);
    REQUIRE(fresh.status == 200);
    CHECK(fresh.data().at("newUser").as_bool() == true);
    const std::string new_uid = str(fresh.data().at("user"), "id");
    CHECK(new_uid != uid);

    REQUIRE(s.edge.del(s.providers_of(s.project) + "/" + s.provider_id, s.edge.acme_token).status == 200);
    CHECK(stored_keys(s.edge, "p/" + s.project.id + "/idn/").empty());
    CHECK(stored_keys(s.edge, "p/" + s.project.id + "/ux/").empty());
    CHECK(s.user_count() == 1);
  }
}
