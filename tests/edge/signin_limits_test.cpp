// Sign-in limits (docs/accounts.md): only failed attempts count, per account (normalized email) and per
// client address (X-Forwarded-For only from a trusted proxy); password hashes are bounded.

#include <doctest/doctest.h>

#include <string>
#include <thread>

#include "edge/accounts/hash_slots.h"
#include "edge/http/message.h"
#include "test_edge.h"

using testing::Reply;
using testing::TestEdge;

namespace {

std::string hidden_field(const std::string& html, const std::string& name) {
  std::string marker = "name=\"" + name + "\" value=\"";
  auto at = html.find(marker);
  if (at == std::string::npos) return {};
  at += marker.size();
  return html.substr(at, html.find('"', at) - at);
}

// One sign-in form, posted as often as a test needs (the double-submit token stays valid).
struct SignIn {
  explicit SignIn(TestEdge& e) : edge(e) { csrf = hidden_field(edge.get("/login").body, "csrf"); }

  Reply attempt(const std::string& email, const std::string& password, httplib::Headers headers = {}) {
    headers.emplace("Cookie", "login_csrf=" + csrf);
    return edge.send(
        "POST", "/login",
        "email=" + edge::url_encode(email) + "&password=" + edge::url_encode(password) + "&csrf=" + csrf,
        headers, "application/x-www-form-urlencoded");
  }

  TestEdge& edge;
  std::string csrf;
};

constexpr const char* kPassword = "correct horse battery";
constexpr const char* kIncorrect = "Email or password is incorrect.";
constexpr const char* kTooMany = "Too many sign-in attempts. Please wait a moment.";

}  // namespace

TEST_CASE("sign-in limits: successful sign-ins are not counted") {
  TestEdge edge;
  SignIn s(edge);
  for (int i = 0; i < 15; ++i) CHECK(s.attempt("owner@acme.test", kPassword).status == 303);
}

TEST_CASE("sign-in limits: failures count per account whatever the email's case") {
  TestEdge edge;
  SignIn s(edge);
  for (const char* email :
       {"Owner@acme.test", "Owner@acme.test", "Owner@acme.test", "Owner@acme.test", "OWNER@ACME.TEST",
        "OWNER@ACME.TEST", "OWNER@ACME.TEST", "owner@acme.test", "owner@acme.test", "owner@Acme.Test"}) {
    auto r = s.attempt(email, "wrong password");
    CHECK_MESSAGE(r.status == 401, email);
  }
  auto limited = s.attempt("oWnEr@acme.test", kPassword);
  CHECK(limited.status == 429);
  CHECK(limited.header("Retry-After") == "90");
  CHECK(limited.body.find(kTooMany) != std::string::npos);
}

TEST_CASE("sign-in limits: a success ends the account's failures") {
  TestEdge edge;
  SignIn s(edge);
  for (int i = 0; i < 9; ++i) CHECK(s.attempt("owner@acme.test", "wrong password").status == 401);
  CHECK(s.attempt("owner@acme.test", kPassword).status == 303);
  for (int i = 0; i < 10; ++i) CHECK(s.attempt("owner@acme.test", "wrong password").status == 401);
  CHECK(s.attempt("owner@acme.test", kPassword).status == 429);
}

TEST_CASE("sign-in limits: an unknown email gets exactly the answers of a known one") {
  TestEdge edge;
  SignIn s(edge);
  for (const char* email : {"owner@acme.test", "ghost@acme.test"}) {
    for (int i = 0; i < 10; ++i) {
      auto r = s.attempt(email, "wrong password");
      CHECK_MESSAGE(r.status == 401, email);
      CHECK_MESSAGE(r.body.find(kIncorrect) != std::string::npos, email);
    }
    auto limited = s.attempt(email, "wrong password");
    CHECK_MESSAGE(limited.status == 429, email);
    CHECK_MESSAGE(limited.header("Retry-After") == "90", email);
  }
}

TEST_CASE("sign-in limits: behind a trusted proxy each client address has its own budget") {
  edge::Config config;
  config.trusted_proxies = {"127.0.0.1"};
  TestEdge edge(config);
  SignIn s(edge);
  // The left entries are the client's own inventions; the proxy appended the right-most one.
  for (int i = 0; i < 30; ++i) {
    auto r = s.attempt("user" + std::to_string(i) + "@acme.test", "wrong password",
                       {{"X-Forwarded-For", "10.0.0." + std::to_string(i) + ", 203.0.113.7"}});
    CHECK(r.status == 401);
  }
  auto limited =
      s.attempt("another@acme.test", "wrong password", {{"X-Forwarded-For", "10.9.9.9, 203.0.113.7"}});
  CHECK(limited.status == 429);
  CHECK(limited.header("Retry-After") == "2");
  // Another client behind the same proxy, and a success for the first account, are unaffected.
  CHECK(s.attempt("another@acme.test", "wrong password", {{"X-Forwarded-For", "203.0.113.8"}}).status == 401);
  CHECK(s.attempt("owner@acme.test", kPassword, {{"X-Forwarded-For", "203.0.113.8"}}).status == 303);
}

TEST_CASE("sign-in limits: without a trusted proxy X-Forwarded-For buys no fresh budget") {
  TestEdge edge;
  SignIn s(edge);
  for (int i = 0; i < 30; ++i) {
    auto r = s.attempt("user" + std::to_string(i) + "@acme.test", "wrong password",
                       {{"X-Forwarded-For", "203.0.113." + std::to_string(i)}});
    CHECK(r.status == 401);
  }
  auto limited = s.attempt("another@acme.test", "wrong password", {{"X-Forwarded-For", "198.51.100.1"}});
  CHECK(limited.status == 429);
}

TEST_CASE("sign-in limits: with every hash slot and the queue taken the page answers 503, uncounted") {
  edge::Config config;
  config.signin_hashes = 1;
  config.signin_hash_queue = 0;
  TestEdge edge(config);
  SignIn s(edge);
  {
    auto held = edge.server->app().signin_hashes.acquire();
    REQUIRE(held);
    for (int i = 0; i < 12; ++i) {
      auto busy = s.attempt("owner@acme.test", "wrong password");
      CHECK(busy.status == 503);
      CHECK(busy.header("Retry-After") == "1");
      CHECK(busy.body.find("Signing in is busy right now. Please try again in a moment.") !=
            std::string::npos);
    }
  }
  // The refused attempts never reached a password check, so none of them counts.
  for (int i = 0; i < 10; ++i) CHECK(s.attempt("owner@acme.test", "wrong password").status == 401);
  CHECK(s.attempt("owner@acme.test", "wrong password").status == 429);
}

TEST_CASE("hash slots: callers beyond the running ones wait, beyond the queue they are refused") {
  edge::HashSlots slots(1, 1);
  auto first = slots.acquire();
  REQUIRE(first);
  bool second_ran = false;
  std::thread second([&] {
    auto ticket = slots.acquire();  // waits for `first`
    second_ran = static_cast<bool>(ticket);
  });
  while (slots.waiting() != 1) std::this_thread::yield();
  CHECK_FALSE(slots.acquire());  // one running, one waiting: full
  first = {};
  second.join();
  CHECK(second_ran);
  CHECK(slots.waiting() == 0);
  CHECK(slots.acquire());  // every ticket was given back
}
