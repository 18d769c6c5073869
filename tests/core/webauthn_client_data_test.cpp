// clientDataJSON (core/auth/webauthn/client_data.h): parsed strictly, then type, challenge, origin and
// crossOrigin checked against the relying party's expectations.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/auth/webauthn/client_data.h"
#include "core/bytes.h"
#include "tests/core/webauthn_vectors.h"

using namespace core;
using namespace core::webauthn;
namespace v = webauthn_vectors;

namespace {

const Bytes kChallenge = hex_decode(v::kChallengeHex).value();
const std::vector<std::string> kOrigins{"https://login.example.com", "https://example.com"};

std::string parse_refusal(std::string_view json) {
  auto r = parse_client_data(as_bytes(json));
  return r ? "accepted" : r.error().code + ": " + r.error().message;
}

// Runs both steps on `json`; "ok" or the error code.
std::string check(std::string_view json, CeremonyType type = CeremonyType::create,
                  std::span<const std::uint8_t> challenge = kChallenge,
                  std::span<const std::string> origins = kOrigins) {
  auto parsed = parse_client_data(as_bytes(json));
  if (!parsed) return parsed.error().code;
  auto checked = check_client_data(*parsed, type, challenge, origins);
  return checked ? "ok" : checked.error().code;
}

std::string with_challenge(std::string_view challenge) {
  return R"({"type":"webauthn.create","challenge":")" + std::string(challenge) +
         R"(","origin":"https://example.com"})";
}

std::string with_origin(std::string_view origin) {
  return R"({"type":"webauthn.create","challenge":")" + base64url_encode(kChallenge) + R"(","origin":")" +
         std::string(origin) + "\"}";
}

}  // namespace

TEST_CASE("a browser's client data is read and passes for what was asked") {
  auto parsed = parse_client_data(as_bytes(v::kCreateClientData));
  REQUIRE(parsed.ok());
  CHECK(parsed->type == "webauthn.create");
  CHECK(parsed->challenge == "AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA");
  CHECK(parsed->origin == "https://example.com");
  CHECK_FALSE(parsed->cross_origin);
  CHECK(check(v::kCreateClientData) == "ok");
  CHECK(check(v::kGetClientData, CeremonyType::get) == "ok");
  // Members the checks do not use are ignored.
  CHECK(
      check(
          R"({"type":"webauthn.create","challenge":"AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA",)"
          R"("origin":"https://example.com","tokenBinding":{"status":"supported"},"other_keys_can_be_added_here":"x"})") ==
      "ok");
}

TEST_CASE("client data that is not the expected JSON is invalid") {
  CHECK(parse_refusal("") == "invalid_client_data: client data is not a JSON object");
  CHECK(parse_refusal("[1]") == "invalid_client_data: client data is not a JSON object");
  CHECK(parse_refusal(R"({"type":"webauthn.create"} x)") ==
        "invalid_client_data: client data is not a JSON object");
  CHECK(parse_refusal(R"({"type":"webauthn.create","origin":"https://example.com"})") ==
        "invalid_client_data: client data has no \"challenge\" member");
  CHECK(parse_refusal(R"({"type":1,"challenge":"AA","origin":"https://example.com"})") ==
        "invalid_client_data: client data member \"type\" is not a string");
  CHECK(parse_refusal(R"({"type":"webauthn.get","challenge":"AA"})") ==
        "invalid_client_data: client data has no \"origin\" member");
  CHECK(parse_refusal(R"({"type":"webauthn.get","challenge":"AA","origin":"o","crossOrigin":"false"})") ==
        "invalid_client_data: client data member \"crossOrigin\" is not a boolean");
  CHECK(parse_refusal("{\"type\":\"webauthn.get\",\"challenge\":\"AA\",\"origin\":\"\xff\"}") ==
        "invalid_client_data: client data is not a JSON object");
}

TEST_CASE("type: webauthn.create for registration, webauthn.get for authentication") {
  CHECK(check(v::kGetClientData, CeremonyType::create) == "type_mismatch");
  CHECK(check(v::kCreateClientData, CeremonyType::get) == "type_mismatch");
  auto parsed = parse_client_data(as_bytes(v::kGetClientData)).value();
  CHECK(check_client_data(parsed, CeremonyType::create, kChallenge, kOrigins).error().message ==
        "the client data's type is not \"webauthn.create\"");
  parsed.type = "webauthn.payment";
  CHECK(check_client_data(parsed, CeremonyType::get, kChallenge, kOrigins).error().code == "type_mismatch");
}

TEST_CASE("challenge: exactly the issued bytes in canonical base64url") {
  CHECK(check(with_challenge(base64url_encode(kChallenge))) == "ok");
  const Bytes other(32, 0x01);
  CHECK(check(v::kCreateClientData, CeremonyType::create, other) == "challenge_mismatch");
  CHECK(check(with_challenge(base64url_encode(kChallenge) + "=")) == "challenge_mismatch");
  CHECK(check(with_challenge(base64_encode(kChallenge))) == "challenge_mismatch");
  CHECK(check(with_challenge(base64url_encode(std::span(kChallenge).first(31)))) == "challenge_mismatch");
  CHECK(check(with_challenge("")) == "challenge_mismatch");
  // An empty expected challenge matches nothing, not even an empty one.
  CHECK(check(with_challenge(""), CeremonyType::create, Bytes{}) == "challenge_mismatch");
}

TEST_CASE("origin: one of the allowed origins, byte for byte") {
  CHECK(check(with_origin("https://login.example.com")) == "ok");
  CHECK(check(with_origin("https://example.com")) == "ok");
  for (std::string_view origin :
       {"https://evil.example", "http://example.com", "https://example.com:443", "https://EXAMPLE.com",
        "https://example.com/", "https://sub.example.com", ""}) {
    CAPTURE(origin);
    CHECK(check(with_origin(origin)) == "origin_not_allowed");
  }
  CHECK(check(v::kCreateClientData, CeremonyType::create, kChallenge, {}) == "origin_not_allowed");
}

TEST_CASE("crossOrigin: absent or false") {
  const std::string base =
      R"({"type":"webauthn.create","challenge":"AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA",)"
      R"("origin":"https://example.com")";
  CHECK(check(base + "}") == "ok");
  CHECK(check(base + R"(,"crossOrigin":false})") == "ok");
  CHECK(check(base + R"(,"crossOrigin":true,"topOrigin":"https://example.com"})") ==
        "cross_origin_not_allowed");
}

TEST_CASE("checks run in the order type, challenge, origin, crossOrigin") {
  const std::string all_wrong =
      R"({"type":"webauthn.get","challenge":"AA","origin":"https://evil.example","crossOrigin":true})";
  CHECK(check(all_wrong) == "type_mismatch");
  CHECK(check(all_wrong, CeremonyType::get) == "challenge_mismatch");
  CHECK(check(all_wrong, CeremonyType::get, Bytes{0}) == "origin_not_allowed");
  CHECK(check(all_wrong, CeremonyType::get, Bytes{0}, std::vector<std::string>{"https://evil.example"}) ==
        "cross_origin_not_allowed");
}
