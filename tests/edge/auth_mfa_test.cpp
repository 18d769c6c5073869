// TOTP second factors of auth-project end users (docs/auth-mfa.md): enrolment, the second login step with
// its ticket, the replay rule and the window, recovery codes, disable, regeneration, and the dashboard's
// reset. Codes are computed from the enrolment secret at the edge's manual clock.

#include <doctest/doctest.h>

#include <cctype>
#include <string>
#include <vector>

#include "auth_support.h"
#include "core/auth/base32.h"
#include "core/auth/recovery_code.h"
#include "core/auth/totp.h"
#include "core/crypto.h"
#include "edge/platform/record_json.h"

using namespace auth_test;
using testing::Reply;
using testing::TestEdge;

namespace {

constexpr const char* kPassword = "correct horse battery";
constexpr const char* kTotpOn = R"("signInMethods":{"password":true,"totp":true})";
constexpr const char* kInvalidCode = "the code is not valid";
constexpr const char* kReused = "this code was already used: wait for the next one";
constexpr const char* kTicketRefused = "the MFA ticket is invalid, expired or already used; sign in again";
constexpr const char* kUnknownRecovery = "the recovery code is not valid or was already used";

const json::object& obj(const json::value& v) {
  return v.get_object();
}

// The code the authenticator shows `offset_s` seconds from the edge's clock.
std::string code_at(TestEdge& edge, const std::string& secret_b32, std::int64_t offset_s = 0) {
  auto secret = core::auth::base32_decode(secret_b32);
  REQUIRE(secret.ok());
  return core::auth::totp_code(*secret, edge.clock.now_ms() / 1000 + offset_s, core::auth::TotpParams{});
}

// A well-formed code that no step of the window (nor the next ones) shows now.
std::string wrong_code(TestEdge& edge, const std::string& secret_b32) {
  for (char d = '0'; d <= '9'; ++d) {
    std::string candidate(6, d);
    bool shown = false;
    for (int step = -3; step <= 3; ++step) shown = shown || candidate == code_at(edge, secret_b32, step * 30);
    if (!shown) return candidate;
  }
  FAIL("every candidate is a current code");
  return {};
}

struct User {
  std::string id, email, access_token, secret;
  std::vector<std::string> recovery_codes;
};

Reply enroll(TestEdge& edge, const TestProject& p, const std::string& access_token) {
  return call(edge, p, "/mfa/totp/enroll", R"({"accessToken":")" + access_token + "\"}");
}

Reply with_code(TestEdge& edge, const TestProject& p, const std::string& path,
                const std::string& access_token, const std::string& member, const std::string& code) {
  return call(edge, p, path,
              R"({"accessToken":")" + access_token + R"(",")" + member + R"(":")" + code + "\"}");
}

// A signed-up user of `p` (without TOTP).
User signed_up(TestEdge& edge, const TestProject& p, const std::string& email) {
  Reply r = signup(edge, p, email, kPassword);
  REQUIRE_MESSAGE(r.status == 201, r.body);
  User u;
  u.email = email;
  u.id = str(obj(r.data()).at("user"), "id");
  u.access_token = str(r.data(), "accessToken");
  return u;
}

// A user of `p` with TOTP enabled; the clock then moves on one period, so the confirming code is not the
// current one any more.
User with_totp(TestEdge& edge, const TestProject& p, const std::string& email) {
  User u = signed_up(edge, p, email);
  Reply e = enroll(edge, p, u.access_token);
  REQUIRE_MESSAGE(e.status == 200, e.body);
  u.secret = str(e.data(), "secret");
  Reply c = with_code(edge, p, "/mfa/totp/confirm", u.access_token, "code", code_at(edge, u.secret));
  REQUIRE_MESSAGE(c.status == 200, c.body);
  for (const auto& code : obj(c.data()).at("recoveryCodes").get_array())
    u.recovery_codes.emplace_back(code.get_string());
  edge.clock.advance_ms(30'000);
  return u;
}

Reply login(TestEdge& edge, const TestProject& p, const std::string& email) {
  return call(edge, p, "/login", R"({"email":")" + email + R"(","password":")" + kPassword + "\"}");
}

// The first step's ticket (checked to be the MFA answer).
std::string ticket_for(TestEdge& edge, const TestProject& p, const std::string& email) {
  Reply r = login(edge, p, email);
  REQUIRE_MESSAGE(r.status == 200, r.body);
  REQUIRE(obj(r.data()).contains("mfaTicket"));
  return str(r.data(), "mfaTicket");
}

Reply second_step(TestEdge& edge, const TestProject& p, const std::string& ticket, const std::string& member,
                  const std::string& value) {
  return call(edge, p, "/login/mfa",
              R"({"mfaTicket":")" + ticket + R"(",")" + member + R"(":")" + value + "\"}");
}

void check_signed_in(const Reply& r, const User& u) {
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(r.error().empty());
  const json::object& d = obj(r.data());
  CHECK(d.size() == 5);
  CHECK(str(d.at("user"), "id") == u.id);
  CHECK(d.at("user").at("mfa") == json::value(json::object{{"totp", true}}));
  CHECK(str(d, "accessToken").size() > 0);
  CHECK(str(d, "refreshToken").rfind("apr_", 0) == 0);
  CHECK(str(d, "tokenType") == "Bearer");
  CHECK(d.at("expiresIn") == json::value(900));
}

void check_error(const Reply& r, int status, const std::string& message) {
  CHECK_MESSAGE(r.status == status, r.body);
  CHECK(r.data().is_null());
  CHECK(r.error() == message);
}

// The stored user record, read from the store.
json::object stored_user(TestEdge& edge, const TestProject& p, const std::string& uid) {
  edge::App& app = edge.server->app();
  json::object rec;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    auto got = edge::record::get_object(txn, app.auth_table, "p/" + p.id + "/u/" + uid);
    REQUIRE(got);
    rec = std::move(*got);
    return {};
  });
  REQUIRE(st.ok());
  return rec;
}

}  // namespace

TEST_SUITE("auth_mfa") {
  TEST_CASE(
      "enroll answers a fresh secret and its otpauth URI; confirm enables TOTP with ten recovery codes") {
    TestEdge edge;
    TestProject p = make_project(edge, "mfa-app", kTotpOn);
    User u = signed_up(edge, p, "ada@example.com");

    Reply e = enroll(edge, p, u.access_token);
    REQUIRE_MESSAGE(e.status == 200, e.body);
    CHECK(e.error().empty());
    CHECK(obj(e.data()).size() == 2);
    const std::string secret = str(e.data(), "secret");
    CHECK(secret.size() == 32);  // 20 bytes in base32
    CHECK(str(e.data(), "otpauthUri") == "otpauth://totp/App%20mfa-app:ada@example.com?secret=" + secret +
                                             "&issuer=App%20mfa-app&algorithm=SHA1&digits=6&period=30");

    // Pending: not enabled yet, and the secret is stored sealed, never in clear.
    Reply info = edge.get(p.base + "/userinfo", u.access_token);
    REQUIRE(info.status == 200);
    CHECK(info.data().at("mfa") == json::value(json::object{{"totp", false}}));
    json::object rec = stored_user(edge, p, u.id);
    const json::object& totp = rec.at("mfa").at("totp").get_object();
    CHECK(totp.at("enabled") == json::value(false));
    CHECK(str(totp, "secret").find(secret) == std::string::npos);

    check_error(with_code(edge, p, "/mfa/totp/confirm", u.access_token, "code", wrong_code(edge, secret)),
                400, kInvalidCode);
    check_error(with_code(edge, p, "/mfa/totp/confirm", u.access_token, "code", "12ab56"), 400, kInvalidCode);
    check_error(call(edge, p, "/mfa/totp/confirm", R"({"accessToken":")" + u.access_token + "\"}"), 400,
                "field 'code' is required");

    Reply c = with_code(edge, p, "/mfa/totp/confirm", u.access_token, "code", code_at(edge, secret));
    REQUIRE_MESSAGE(c.status == 200, c.body);
    CHECK(obj(c.data()).size() == 2);
    CHECK(c.data().at("enabled") == json::value(true));
    const json::array& codes = c.data().at("recoveryCodes").get_array();
    REQUIRE(codes.size() == 10);
    for (const auto& code : codes) CHECK(core::auth::normalize_recovery_code(code.get_string()).ok());

    info = edge.get(p.base + "/userinfo", u.access_token);
    CHECK(info.data().at("mfa") == json::value(json::object{{"totp", true}}));
    // Recovery codes are stored as SHA-256 of their normalized form; the confirming step is the last used.
    rec = stored_user(edge, p, u.id);
    const json::array& hashes = rec.at("mfa").at("recoveryCodes").get_array();
    REQUIRE(hashes.size() == 10);
    CHECK(hashes[0].get_string() ==
          core::sha256_hex(core::auth::normalize_recovery_code(codes[0].get_string()).value()));
    CHECK(rec.at("mfa").at("totp").at("lastStep") ==
          json::value(static_cast<std::int64_t>(edge.clock.now_ms() / 1000 / 30)));

    // Confirming again: nothing is pending.
    check_error(with_code(edge, p, "/mfa/totp/confirm", u.access_token, "code", code_at(edge, secret, 30)),
                409, "TOTP is already enabled");
  }

  TEST_CASE("enrolling again: a pending enrolment is replaced; an enabled factor is 409") {
    TestEdge edge;
    TestProject p = make_project(edge, "mfa-app", kTotpOn);
    User u = signed_up(edge, p, "ada@example.com");

    Reply first = enroll(edge, p, u.access_token);
    Reply second = enroll(edge, p, u.access_token);
    REQUIRE(first.status == 200);
    REQUIRE(second.status == 200);
    CHECK(str(first.data(), "secret") != str(second.data(), "secret"));
    // Only the newest secret confirms.
    check_error(with_code(edge, p, "/mfa/totp/confirm", u.access_token, "code",
                          code_at(edge, str(first.data(), "secret"))),
                400, kInvalidCode);
    Reply c = with_code(edge, p, "/mfa/totp/confirm", u.access_token, "code",
                        code_at(edge, str(second.data(), "secret")));
    CHECK_MESSAGE(c.status == 200, c.body);

    check_error(enroll(edge, p, u.access_token), 409, "TOTP is already enabled; disable it first");
  }

  TEST_CASE("confirm without an enrolment is 409; the user calls need the user's access token") {
    TestEdge edge;
    TestProject p = make_project(edge, "mfa-app", kTotpOn);
    User u = signed_up(edge, p, "ada@example.com");

    check_error(with_code(edge, p, "/mfa/totp/confirm", u.access_token, "code", "123456"), 409,
                "no TOTP enrolment is pending; start with /mfa/totp/enroll");
    check_error(call(edge, p, "/mfa/totp/enroll", "{}"), 401, "an end user's access token is required");
    check_error(call(edge, p, "/mfa/totp/enroll", R"({"accessToken":"nope"})"), 401,
                "the access token is invalid or expired");
    check_error(with_code(edge, p, "/mfa/totp/disable", u.access_token, "code", "123456"), 409,
                "TOTP is not enabled for this user");
    check_error(with_code(edge, p, "/mfa/recovery-codes", u.access_token, "code", "123456"), 409,
                "TOTP is not enabled for this user");
    // The project key is required as for every end-user call.
    Reply no_key = edge.post(p.base + "/mfa/totp/enroll", R"({"accessToken":")" + u.access_token + "\"}");
    CHECK(no_key.status == 401);
  }

  TEST_CASE("a project with TOTP off answers 403, and its login does not ask for a second factor") {
    TestEdge edge;
    TestProject off = make_project(edge, "plain-app");
    User plain = signed_up(edge, off, "bob@example.com");
    const std::string off_msg = "TOTP second factors are turned off for this project";
    check_error(enroll(edge, off, plain.access_token), 403, off_msg);
    check_error(with_code(edge, off, "/mfa/totp/confirm", plain.access_token, "code", "123456"), 403,
                off_msg);
    check_error(with_code(edge, off, "/mfa/recovery-codes", plain.access_token, "code", "123456"), 403,
                off_msg);
    check_error(second_step(edge, off, "apt_x", "code", "123456"), 403, off_msg);

    // Turning TOTP off on a project whose users enrolled: login answers tokens at once.
    TestProject p = make_project(edge, "mfa-app", kTotpOn);
    User u = with_totp(edge, p, "ada@example.com");
    Reply patched = edge.patch("/api/companies/acme/auth-projects/" + p.id,
                               R"({"signInMethods":{"password":true,"totp":false}})", p.manager);
    REQUIRE_MESSAGE(patched.status == 200, patched.body);
    Reply r = login(edge, p, u.email);
    REQUIRE(r.status == 200);
    CHECK(str(r.data(), "accessToken").size() > 0);
    CHECK(!obj(r.data()).contains("mfaRequired"));
    // The user may still remove the factor.
    Reply d = with_code(edge, p, "/mfa/totp/disable", u.access_token, "code", code_at(edge, u.secret));
    CHECK_MESSAGE(d.status == 200, d.body);
  }

  TEST_CASE("login with TOTP: the password step answers a ticket, the code step signs in with amr mfa") {
    TestEdge edge;
    TestProject p = make_project(edge, "mfa-app", kTotpOn);
    User u = with_totp(edge, p, "ada@example.com");

    Reply first = login(edge, p, u.email);
    REQUIRE(first.status == 200);
    const json::object& d = obj(first.data());
    CHECK(d.size() == 4);
    CHECK(d.at("mfaRequired") == json::value(true));
    CHECK(str(d, "mfaTicket").rfind("apt_", 0) == 0);
    CHECK(d.at("methods") == json::value(json::array{"totp", "recovery_code"}));
    CHECK(d.at("expiresIn") == json::value(300));

    Reply r = second_step(edge, p, str(d, "mfaTicket"), "code", code_at(edge, u.secret));
    check_signed_in(r, u);
    Reply info = edge.get(p.base + "/userinfo", str(r.data(), "accessToken"));
    CHECK(info.status == 200);

    Reply sessions =
        edge.get("/api/companies/acme/auth-projects/" + p.id + "/users/" + u.id + "/sessions", p.manager);
    REQUIRE(sessions.status == 200);
    const json::array& list = sessions.data().get_array();
    REQUIRE(list.size() == 2);  // signup's, then this one (newest first)
    CHECK(str(list[0], "amr") == "mfa");

    // The ticket is used once.
    check_error(second_step(edge, p, str(d, "mfaTicket"), "code", code_at(edge, u.secret, 30)), 401,
                kTicketRefused);
  }

  TEST_CASE("the second step: bad bodies are 400, unknown tickets 401") {
    TestEdge edge;
    TestProject p = make_project(edge, "mfa-app", kTotpOn);
    User u = with_totp(edge, p, "ada@example.com");
    const std::string ticket = ticket_for(edge, p, u.email);
    const std::string either = "give either 'code' (from the authenticator app) or 'recoveryCode'";

    check_error(call(edge, p, "/login/mfa", R"({"mfaTicket":")" + ticket + "\"}"), 400, either);
    check_error(call(edge, p, "/login/mfa",
                     R"({"mfaTicket":")" + ticket + R"(","code":"123456","recoveryCode":"abcd-efgh-jkmn"})"),
                400, either);
    check_error(call(edge, p, "/login/mfa", R"({"code":"123456"})"), 400, "field 'mfaTicket' is required");
    check_error(second_step(edge, p, "apt_unknown", "code", code_at(edge, u.secret)), 401, kTicketRefused);
    check_error(second_step(edge, p, "apt_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "code",
                            code_at(edge, u.secret)),
                401, kTicketRefused);
    // None of these touched the ticket.
    check_signed_in(second_step(edge, p, ticket, "code", code_at(edge, u.secret)), u);
  }

  TEST_CASE("a user disabled between the two steps cannot complete the sign-in") {
    TestEdge edge;
    TestProject p = make_project(edge, "mfa-app", kTotpOn);
    User u = with_totp(edge, p, "ada@example.com");
    const std::string ticket = ticket_for(edge, p, u.email);
    Reply patched = edge.patch("/api/companies/acme/auth-projects/" + p.id + "/users/" + u.id,
                               R"({"disabled":true})", p.manager);
    REQUIRE_MESSAGE(patched.status == 200, patched.body);
    check_error(second_step(edge, p, ticket, "code", code_at(edge, u.secret)), 403,
                "this account is disabled");
  }

  TEST_CASE("a wrong code is 401, and a code already used at its step is refused") {
    TestEdge edge;
    TestProject p = make_project(edge, "mfa-app", kTotpOn);
    User u = with_totp(edge, p, "ada@example.com");
    const std::string ticket = ticket_for(edge, p, u.email);
    const std::string code = code_at(edge, u.secret);
    const std::string wrong = wrong_code(edge, u.secret);

    Reply r = second_step(edge, p, ticket, "code", wrong);
    check_error(r, 401, kInvalidCode);
    CHECK(r.header("WWW-Authenticate") == "Bearer");
    check_error(second_step(edge, p, ticket, "code", "12345"), 401, kInvalidCode);
    check_signed_in(second_step(edge, p, ticket, "code", code), u);

    // A second sign-in within the same period cannot use the same code (RFC 6238 §5.2).
    const std::string again = ticket_for(edge, p, u.email);
    check_error(second_step(edge, p, again, "code", code), 401, kReused);
    // ... nor one of an earlier step of the window.
    check_error(second_step(edge, p, again, "code", code_at(edge, u.secret, -30)), 401, kReused);
    edge.clock.advance_ms(30'000);
    check_signed_in(second_step(edge, p, again, "code", code_at(edge, u.secret)), u);
  }

  TEST_CASE("codes of one step either side are accepted, two steps away are not") {
    TestEdge edge;
    TestProject p = make_project(edge, "mfa-app", kTotpOn);
    User u = with_totp(edge, p, "ada@example.com");
    // with_totp confirmed one period ago: move on so that the previous step has not been used.
    edge.clock.advance_ms(60'000);

    const std::string ticket = ticket_for(edge, p, u.email);
    check_error(second_step(edge, p, ticket, "code", code_at(edge, u.secret, -60)), 401, kInvalidCode);
    check_error(second_step(edge, p, ticket, "code", code_at(edge, u.secret, 60)), 401, kInvalidCode);
    check_signed_in(second_step(edge, p, ticket, "code", code_at(edge, u.secret, -30)), u);

    const std::string next = ticket_for(edge, p, u.email);
    check_signed_in(second_step(edge, p, next, "code", code_at(edge, u.secret, 30)), u);
  }

  TEST_CASE("a ticket lives five minutes") {
    TestEdge edge;
    TestProject p = make_project(edge, "mfa-app", kTotpOn);
    User u = with_totp(edge, p, "ada@example.com");

    const std::string almost = ticket_for(edge, p, u.email);
    edge.clock.advance_ms(299'999);
    check_signed_in(second_step(edge, p, almost, "code", code_at(edge, u.secret)), u);

    const std::string expired = ticket_for(edge, p, u.email);
    edge.clock.advance_ms(300'000);
    check_error(second_step(edge, p, expired, "code", code_at(edge, u.secret)), 401, kTicketRefused);
  }

  TEST_CASE("five wrong codes kill the ticket") {
    TestEdge edge;
    TestProject p = make_project(edge, "mfa-app", kTotpOn);
    User u = with_totp(edge, p, "ada@example.com");
    const std::string code = code_at(edge, u.secret);
    const std::string wrong = wrong_code(edge, u.secret);

    const std::string ticket = ticket_for(edge, p, u.email);
    for (int i = 0; i < 5; ++i) check_error(second_step(edge, p, ticket, "code", wrong), 401, kInvalidCode);
    check_error(second_step(edge, p, ticket, "code", code), 401, kTicketRefused);
    // A new sign-in gets a new ticket.
    check_signed_in(second_step(edge, p, ticket_for(edge, p, u.email), "code", code), u);
  }

  TEST_CASE("wrong codes count against the account: the eleventh attempt in a row is 429") {
    TestEdge edge;
    TestProject p = make_project(edge, "mfa-app", kTotpOn);
    User u = with_totp(edge, p, "ada@example.com");
    const std::string code = code_at(edge, u.secret);
    const std::string wrong = wrong_code(edge, u.secret);

    for (int t = 0; t < 2; ++t) {
      const std::string ticket = ticket_for(edge, p, u.email);
      for (int i = 0; i < 5; ++i) check_error(second_step(edge, p, ticket, "code", wrong), 401, kInvalidCode);
    }
    const std::string ticket = ticket_for(edge, p, u.email);
    Reply r = second_step(edge, p, ticket, "code", code);
    check_error(r, 429, "rate limit exceeded; retry after 90 s");
    CHECK(r.header("Retry-After") == "90");
    // The refused attempt did not touch the ticket or the code: once a failure has aged out, it works.
    edge.clock.advance_ms(90'000);
    check_signed_in(second_step(edge, p, ticket, "code", code_at(edge, u.secret)), u);
  }

  TEST_CASE("a recovery code signs in once, typed in any case and with or without dashes") {
    TestEdge edge;
    TestProject p = make_project(edge, "mfa-app", kTotpOn);
    User u = with_totp(edge, p, "ada@example.com");
    std::string typed = u.recovery_codes[3];
    std::erase(typed, '-');
    for (char& c : typed) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));

    check_signed_in(second_step(edge, p, ticket_for(edge, p, u.email), "recoveryCode", typed), u);
    const std::string ticket = ticket_for(edge, p, u.email);
    check_error(second_step(edge, p, ticket, "recoveryCode", u.recovery_codes[3]), 401, kUnknownRecovery);
    check_error(second_step(edge, p, ticket, "recoveryCode", "abcd-efgh-jkmn"), 401, kUnknownRecovery);
    check_error(second_step(edge, p, ticket, "recoveryCode", "too-short"), 401,
                "a recovery code has 12 letters and digits, like abcd-efgh-jkmn");
    check_signed_in(second_step(edge, p, ticket, "recoveryCode", u.recovery_codes[4]), u);
    CHECK(stored_user(edge, p, u.id).at("mfa").at("recoveryCodes").get_array().size() == 8);
  }

  TEST_CASE("disable needs a second factor, and login asks for the password alone afterwards") {
    TestEdge edge;
    TestProject p = make_project(edge, "mfa-app", kTotpOn);
    User u = with_totp(edge, p, "ada@example.com");
    const std::string code = code_at(edge, u.secret);
    const std::string wrong = wrong_code(edge, u.secret);

    check_error(with_code(edge, p, "/mfa/totp/disable", u.access_token, "code", wrong), 400, kInvalidCode);
    check_error(with_code(edge, p, "/mfa/totp/disable", u.access_token, "recoveryCode", "abcd-efgh-jkmn"),
                400, kUnknownRecovery);
    check_error(call(edge, p, "/mfa/totp/disable", R"({"accessToken":")" + u.access_token + "\"}"), 400,
                "give either 'code' (from the authenticator app) or 'recoveryCode'");

    Reply d = with_code(edge, p, "/mfa/totp/disable", u.access_token, "code", code);
    REQUIRE_MESSAGE(d.status == 200, d.body);
    CHECK(d.data() == json::value(json::object{{"enabled", false}}));
    CHECK(!stored_user(edge, p, u.id).contains("mfa"));
    Reply info = edge.get(p.base + "/userinfo", u.access_token);
    CHECK(info.data().at("mfa") == json::value(json::object{{"totp", false}}));

    Reply r = login(edge, p, u.email);
    REQUIRE(r.status == 200);
    CHECK(str(r.data(), "accessToken").size() > 0);
    // Disabled twice: nothing to remove.
    check_error(with_code(edge, p, "/mfa/totp/disable", u.access_token, "code", code_at(edge, u.secret, 30)),
                409, "TOTP is not enabled for this user");

    // With a recovery code instead of the authenticator.
    User v = with_totp(edge, p, "bob@example.com");
    Reply dv = with_code(edge, p, "/mfa/totp/disable", v.access_token, "recoveryCode", v.recovery_codes[0]);
    CHECK_MESSAGE(dv.status == 200, dv.body);
    CHECK(!stored_user(edge, p, v.id).contains("mfa"));
  }

  TEST_CASE("regenerating recovery codes replaces the whole set") {
    TestEdge edge;
    TestProject p = make_project(edge, "mfa-app", kTotpOn);
    User u = with_totp(edge, p, "ada@example.com");

    // A recovery code does not regenerate codes: the authenticator's code does.
    Reply bad =
        call(edge, p, "/mfa/recovery-codes",
             R"({"accessToken":")" + u.access_token + R"(","recoveryCode":")" + u.recovery_codes[0] + "\"}");
    check_error(bad, 400, "field 'code' is required");

    Reply r = with_code(edge, p, "/mfa/recovery-codes", u.access_token, "code", code_at(edge, u.secret));
    REQUIRE_MESSAGE(r.status == 200, r.body);
    CHECK(obj(r.data()).size() == 1);
    const json::array& fresh = r.data().at("recoveryCodes").get_array();
    REQUIRE(fresh.size() == 10);
    for (const auto& c : fresh)
      for (const auto& old : u.recovery_codes) CHECK(c.get_string() != old);
    // The code that regenerated them is used.
    check_error(with_code(edge, p, "/mfa/recovery-codes", u.access_token, "code", code_at(edge, u.secret)),
                400, kReused);

    const std::string ticket = ticket_for(edge, p, u.email);
    check_error(second_step(edge, p, ticket, "recoveryCode", u.recovery_codes[0]), 401, kUnknownRecovery);
    check_signed_in(second_step(edge, p, ticket, "recoveryCode", std::string(fresh[0].get_string())), u);
  }

  TEST_CASE("a ticket of one project does not work on another") {
    TestEdge edge;
    TestProject a = make_project(edge, "app-a", kTotpOn);
    TestProject b = make_project(edge, "app-b", kTotpOn);
    User u = with_totp(edge, a, "ada@example.com");
    const std::string ticket = ticket_for(edge, a, u.email);

    check_error(second_step(edge, b, ticket, "code", code_at(edge, u.secret)), 401, kTicketRefused);
    // Nor with A's path and B's key.
    CHECK(edge.post(a.base + "/login/mfa",
                    R"({"mfaTicket":")" + ticket + R"(","code":")" + code_at(edge, u.secret) + "\"}", b.key)
              .status == 401);
    check_signed_in(second_step(edge, a, ticket, "code", code_at(edge, u.secret)), u);
  }

  TEST_CASE("the dashboard resets a user's lost second factor") {
    TestEdge edge;
    TestProject p = make_project(edge, "mfa-app", kTotpOn);
    User u = with_totp(edge, p, "ada@example.com");
    const std::string path = "/api/companies/acme/auth-projects/" + p.id + "/users/" + u.id + "/mfa";
    const std::string pending = ticket_for(edge, p, u.email);

    Reply r = edge.del(path, p.manager);
    REQUIRE_MESSAGE(r.status == 200, r.body);
    CHECK(str(r.data(), "id") == u.id);
    CHECK(r.data().at("mfa") == json::value(json::object{{"totp", false}}));
    CHECK(!stored_user(edge, p, u.id).contains("mfa"));
    // Idempotent.
    CHECK(edge.del(path, p.manager).status == 200);

    // A ticket issued before the reset cannot be completed; login answers tokens directly.
    check_error(second_step(edge, p, pending, "code", code_at(edge, u.secret)), 401, kTicketRefused);
    Reply l = login(edge, p, u.email);
    REQUIRE(l.status == 200);
    CHECK(str(l.data(), "accessToken").size() > 0);
    // The user may enroll again.
    CHECK(enroll(edge, p, u.access_token).status == 200);

    check_error(edge.del("/api/companies/acme/auth-projects/" + p.id + "/users/apu_nobody/mfa", p.manager),
                404, "user not found");
    CHECK(edge.del(path, manager_token(edge, "globex")).status == 404);
    CHECK(edge.del(path, edge.token_with("acme", {"storage.view"})).status == 403);
  }
}
