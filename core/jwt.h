#pragma once
// JSON Web Tokens in the JWS compact serialization (RFC 7515, RFC 7519): decoding, building, HS256, and
// the registered-claim checks. RS256 verification is in core/rsa_verify.h; signing with an RSA key is
// native only (native/crypto/rsa_key.h).
//
// Trust: decode_jwt only parses. A Jwt is trusted once verify_hs256 or verify_rs256 returned it and
// check_claims accepted it. Each verifier accepts exactly one `alg`, so a token can never choose how it is
// checked ("none", or HS256 with an RSA public key as the secret, are refused).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/bytes.h"
#include "core/json.h"
#include "core/result.h"

namespace core {

// Longest compact JWS decode_jwt accepts, in bytes. The platform's id_tokens are well under 2 KiB; the
// bound keeps a hostile token from costing more than a bounded parse.
inline constexpr std::size_t kMaxJwtLength = 16 * 1024;

// A decoded compact JWS (RFC 7515), not yet trusted.
struct Jwt {
  json::object header, claims;
  std::string signing_input;  // base64url(header) "." base64url(payload), exactly as received
  Bytes signature;
};

// Parses `header.payload.signature`: exactly three parts; header and payload base64url without padding
// (strict: no `=`, no stray trailing bits) holding UTF-8 JSON objects; the header's `alg` a string. The
// signature part may be empty (as in an "alg":"none" token, which the verifiers then refuse by its alg).
// Duplicate JSON member names keep the last one, as RFC 7515 §4 allows. A header with `crit` is refused:
// no extension is understood here (RFC 7515 §4.1.11). Errors: `invalid_jwt`.
Result<Jwt> decode_jwt(std::string_view compact);

// The header's `alg` ("" when missing, which decode_jwt never lets through).
std::string_view jwt_alg(const Jwt& jwt);

// Builds a compact JWS: header and claims serialized with Boost.JSON (members in insertion order, no
// whitespace), base64url without padding, signed by `sign` over the signing input.
std::string encode_jwt(const json::object& header, const json::object& claims,
                       const std::function<Bytes(std::string_view signing_input)>& sign);

// HS256 with header {"alg":"HS256","typ":"JWT"} (plus "kid" when given). The secret is used as given;
// check it with validate_hs256_secret where it is configured.
std::string sign_hs256(const json::object& claims, std::string_view secret, std::string_view kid = {});

// Shortest HS256 secret accepted by validate_hs256_secret: the hash size (RFC 7518 §3.2).
inline constexpr std::size_t kMinHs256SecretBytes = 32;
// Errors: `weak_secret` for a secret of fewer than kMinHs256SecretBytes bytes.
Status validate_hs256_secret(std::string_view secret);

// Decodes and checks the HMAC-SHA256 signature in constant time. The claims are not checked.
// Errors, in the order checked: `invalid_jwt`, `unsupported_alg` (alg is not exactly "HS256"),
// `invalid_signature`.
Result<Jwt> verify_hs256(std::string_view compact, std::string_view secret);

// What check_claims compares. `issuer` and `audience` must be non-empty: an empty expectation matches no
// token. Negative leeway counts as 0.
struct ClaimChecks {
  std::string issuer;
  std::string audience;
  std::int64_t now_s = 0;  // the current time, seconds since the epoch
  std::int64_t leeway_s = 0;
  std::optional<std::string> nonce;  // checked when set
};

// Checks, in this order, with a distinct code for each failure:
// - `iss` a string equal to checks.issuer, else `invalid_issuer`;
// - `aud` a string equal to checks.audience, or an array of strings containing it, else `invalid_audience`;
// - `exp` a number (required) with now - leeway < exp, else `token_expired`;
// - `nbf`, when present, a number with nbf <= now + leeway, else `token_not_yet_valid`;
// - `iat`, when present, a number with iat <= now + leeway, else `token_issued_in_future`;
// - when checks.nonce is set, `nonce` a string equal to it, else `nonce_mismatch`.
// A missing `iss` or `aud` fails with its own code; a missing `exp`, or a time claim that is not a number,
// is `invalid_claims`. Fractional times are rounded down; times beyond int64 saturate.
Status check_claims(const Jwt& jwt, const ClaimChecks& checks);

// What check_token_claims compares for an application that verifies tokens it did not ask for (the
// @platform/core package's verifyJwt): as in jose's jwtVerify, an expectation left out is not checked, so a
// caller that sets nothing still gets the time checks. `exp` stays required: a token that never expires is
// refused rather than trusted forever. Negative leeway counts as 0.
struct TokenClaimChecks {
  std::optional<std::string> issuer;   // when set, `iss` must be a string equal to it
  std::vector<std::string> audiences;  // when not empty, `aud` must name one of them
  std::int64_t now_s = 0;              // the current time, seconds since the epoch
  std::int64_t leeway_s = 0;
};

// Checks, in this order, with the codes of check_claims:
// - `iss` (when checks.issuer is set) a string equal to it, else `invalid_issuer`;
// - `aud` (when checks.audiences is not empty) a string that is one of them, or an array of strings holding
//   one of them, else `invalid_audience`;
// - `exp` a number (required) with now - leeway < exp, else `token_expired`;
// - `nbf`, when present, a number with nbf <= now + leeway, else `token_not_yet_valid`;
// - `iat`, when present, a number; its value is not compared with now (as in jose: a clock ahead of the
//   verifier's does not refuse the token).
// A missing `exp`, or a time claim that is not a number, is `invalid_claims`. Times round down and saturate
// as in check_claims.
Status check_token_claims(const Jwt& jwt, const TokenClaimChecks& checks);

}  // namespace core
