// The code and refresh-token state machines of document 1 (core/oauth/grants.h).

#include <doctest/doctest.h>

#include "core/oauth/grants.h"

using namespace core::oauth;

namespace {
const std::string kVerifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const std::string kChallenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
constexpr std::int64_t kIssued = 1'000'000;
CodeState code(std::string challenge = "") {
  return {"cli_a", "https://rp.example/cb", std::move(challenge), kIssued + 600'000, false};
}
}  // namespace

TEST_CASE("a fresh code is exchanged once, within 10 minutes, by its client, for its redirect_uri") {
  CodeState c = code();
  CHECK(decide_code_exchange(&c, {"cli_a", "https://rp.example/cb", std::nullopt}, kIssued).outcome ==
        GrantOutcome::issue);
  CHECK(
      decide_code_exchange(&c, {"cli_a", "https://rp.example/cb", std::nullopt}, kIssued + 599'999).outcome ==
      GrantOutcome::issue);
  auto expired =
      decide_code_exchange(&c, {"cli_a", "https://rp.example/cb", std::nullopt}, kIssued + 600'000);
  CHECK(expired.outcome == GrantOutcome::invalid_grant);
  CHECK(expired.description == "authorization code has expired");
  CHECK(decide_code_exchange(nullptr, {"cli_a", "https://rp.example/cb", std::nullopt}, kIssued).outcome ==
        GrantOutcome::invalid_grant);
  CHECK(decide_code_exchange(&c, {"cli_b", "https://rp.example/cb", std::nullopt}, kIssued).description ==
        "authorization code was issued to another client");
  CHECK(decide_code_exchange(&c, {"cli_a", "https://rp.example/cb2", std::nullopt}, kIssued).description ==
        "redirect_uri does not match the authorization request");
}

TEST_CASE("a used code is a replay whoever presents it, even after expiry") {
  CodeState c = code();
  c.used = true;
  CHECK(decide_code_exchange(&c, {"cli_a", "https://rp.example/cb", std::nullopt}, kIssued).outcome ==
        GrantOutcome::replay);
  CHECK(decide_code_exchange(&c, {"cli_b", "x", std::nullopt}, kIssued + 10'000'000).outcome ==
        GrantOutcome::replay);
}

TEST_CASE("PKCE at the token endpoint") {
  CodeState with = code(kChallenge), without = code();
  CHECK(decide_code_exchange(&with, {"cli_a", "https://rp.example/cb", kVerifier}, kIssued).outcome ==
        GrantOutcome::issue);
  CHECK(decide_code_exchange(&with, {"cli_a", "https://rp.example/cb", std::nullopt}, kIssued).description ==
        "code_verifier is required");
  CHECK(decide_code_exchange(&with, {"cli_a", "https://rp.example/cb", std::string(43, 'a')}, kIssued)
            .description == "code_verifier does not match the code_challenge");
  CHECK(decide_code_exchange(&without, {"cli_a", "https://rp.example/cb", kVerifier}, kIssued).description ==
        "code_verifier sent but no code_challenge was");
}

TEST_CASE(
    "refresh tokens rotate once; a second use is a replay; revoked, foreign and expired ones are refused") {
  RefreshState live{"cli_a", kIssued + 1000, false, false};
  CHECK(decide_refresh(&live, "cli_a", kIssued).outcome == GrantOutcome::issue);
  CHECK(decide_refresh(&live, "cli_a", kIssued + 1000).description == "refresh token has expired");
  CHECK(decide_refresh(&live, "cli_b", kIssued).description == "refresh token was issued to another client");
  CHECK(decide_refresh(nullptr, "cli_a", kIssued).outcome == GrantOutcome::invalid_grant);
  RefreshState rotated = live;
  rotated.rotated = true;
  CHECK(decide_refresh(&rotated, "cli_a", kIssued).outcome == GrantOutcome::replay);
  CHECK(decide_refresh(&rotated, "cli_b", kIssued).outcome ==
        GrantOutcome::invalid_grant);  // not the owner: no family revocation
  RefreshState revoked = rotated;
  revoked.revoked = true;
  CHECK(decide_refresh(&revoked, "cli_a", kIssued).outcome == GrantOutcome::invalid_grant);
  CHECK(is_live(false, kIssued + 1, kIssued));
  CHECK_FALSE(is_live(false, kIssued, kIssued));
  CHECK_FALSE(is_live(true, kIssued + 1, kIssued));
}
