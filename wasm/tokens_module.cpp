// The `platform_tokens` ES module (tokens entry of bindings/): token shapes and hashing, permission checks,
// JWT verification (HS256, RS256 with a JWK Set, and verifyJwt with the claim checks of core/jwt_verify.h),
// PKCE challenges and JWK thumbprints, through embind.
//
// Contract with bindings/tokens.js (the public API; this module is its implementation detail), the same for
// every module of wasm/:
// - Arguments arrive already type-checked by the bindings: numbers are JS numbers, strings are strings,
//   arrays are arrays of strings. Values are not checked there; that is the core's job.
// - A function whose core counterpart returns a Result answers `{ok: true, value}` or
//   `{ok: false, code, message}` with the core's error code and message (js_result.h). Functions that cannot
//   fail answer the plain value. Nothing here throws into JS.

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <sodium.h>

#include "core/crypto.h"
#include "core/json.h"
#include "core/jwk.h"
#include "core/jwt.h"
#include "core/jwt_verify.h"
#include "core/permission.h"
#include "core/pkce.h"
#include "core/random.h"
#include "core/result.h"
#include "core/rsa_verify.h"
#include "core/token.h"
#include "wasm/js_result.h"

namespace {

using emscripten::val;

using platform_wasm::error_result;
using platform_wasm::ok_result;
using platform_wasm::safe_integer;

// --- permissions -------------------------------------------------------------------------------------------

// bool: whether `role` holding `granted` may perform `required` on `target` (empty: no single resource).
// Errors: invalid_role unless role is owner, admin or member. Malformed entries in `granted` grant nothing.
val allows(const std::string& role, const val& granted, const std::string& required,
           const std::string& target) {
  auto parsed = core::parse_role(role);
  if (!parsed) {
    return error_result(
        core::make_error("invalid_role", "'" + role + "' is not a role (owner, admin or member)"));
  }
  const std::vector<std::string> list = emscripten::vecFromJSArray<std::string>(granted);
  return ok_result(val(core::allows(*parsed, list, required, target)));
}

// null. Errors: invalid_permission with the core's message naming the permission.
val validate_permission(const std::string& permission) {
  auto status = core::validate_permission(permission);
  if (!status) return error_result(status.error());
  return ok_result(val::null());
}

// --- tokens and hashing ------------------------------------------------------------------------------------

// libsodium's randombytes: in wasm it calls the module's `getRandomValue` (crypto.getRandomValues).
class SodiumRandom final : public core::RandomSource {
 public:
  void fill(std::span<std::uint8_t> out) override { randombytes_buf(out.data(), out.size()); }
};

std::optional<core::TokenKind> token_kind(const std::string& name) {
  using core::TokenKind;
  static constexpr std::pair<std::string_view, TokenKind> kKinds[] = {
      {"access_token", TokenKind::access_token},
      {"env_vault_token", TokenKind::env_vault_token},
      {"auth_project_key", TokenKind::auth_project_key},
      {"oauth_access", TokenKind::oauth_access},
      {"oauth_refresh", TokenKind::oauth_refresh},
      {"oauth_code", TokenKind::oauth_code},
      {"session", TokenKind::session},
      {"csrf", TokenKind::csrf},
  };
  for (const auto& [text, kind] : kKinds) {
    if (text == name) return kind;
  }
  return {};
}

core::Error unknown_token_kind(const std::string& kind) {
  return core::make_error("invalid_token_kind", "unknown token kind '" + kind + "'");
}

// The lower-case hex SHA-256 of the UTF-8 text. Cannot fail.
std::string sha256_hex(const std::string& text) {
  return core::sha256_hex(text);
}

// bool. Errors: invalid_token_kind.
val has_token_shape(const std::string& kind, const std::string& text) {
  auto parsed = token_kind(kind);
  if (!parsed) return error_result(unknown_token_kind(kind));
  return ok_result(val(core::has_token_shape(*parsed, text)));
}

// A fresh token string. Errors: invalid_token_kind.
val make_token(const std::string& kind) {
  auto parsed = token_kind(kind);
  if (!parsed) return error_result(unknown_token_kind(kind));
  SodiumRandom random;
  return ok_result(val(core::make_token(*parsed, random)));
}

// --- JWT, JWK, PKCE ----------------------------------------------------------------------------------------

// A JSON object as a plain JS object, through JSON.parse of its serialization (numbers beyond 2^53 lose
// precision, as they do for any JSON read in JavaScript).
val to_js(const core::json::object& object) {
  return val::global("JSON").call<val>("parse", core::to_json(object));
}

// {header, claims} of a verified token. The claims are not checked (issuer, audience, expiry): the caller
// compares them with what it expects.
val verified(const core::Jwt& jwt) {
  val value = val::object();
  value.set("header", to_js(jwt.header));
  value.set("claims", to_js(jwt.claims));
  return ok_result(value);
}

// The secret arrives as the UTF-8 bytes of a JS string or as the bytes of a Uint8Array (embind accepts
// both for std::string). Errors: invalid_jwt, unsupported_alg, invalid_signature.
val verify_jwt_hs256(const std::string& compact, const std::string& secret) {
  auto jwt = core::verify_hs256(compact, secret);
  if (!jwt) return error_result(jwt.error());
  return verified(*jwt);
}

// The JWK Set's RS256 keys from its JSON text. Errors: invalid_jwks, invalid_jwk.
core::Result<std::vector<core::RsaPublicKey>> jwks_keys(const std::string& jwks_json) {
  auto object = core::parse_json_object(jwks_json);
  if (!object) return core::make_error("invalid_jwks", "the JWK Set is not a JSON object");
  return core::parse_jwks(*object);
}

// `jwks_json`: a JWK Set as JSON text (the bindings stringify an object). Errors: invalid_jwks,
// invalid_jwk, then invalid_jwt, unsupported_alg, unknown_kid, invalid_signature.
val verify_jwt_rs256(const std::string& compact, const std::string& jwks_json) {
  auto keys = jwks_keys(jwks_json);
  if (!keys) return error_result(keys.error());
  auto jwt = core::verify_rs256(compact, *keys);
  if (!jwt) return error_result(jwt.error());
  return verified(*jwt);
}

// `key_kind` "secret": `key` is the HS256 secret's bytes; "jwks": the JWK Set's JSON text. `policy`:
// {algorithms: string[], issuer: string | null, audiences: string[], nowSeconds, clockToleranceSeconds}, the
// numbers safe integers (the bindings check and fill every member). Answers {header, payload}.
// Errors: invalid_jwks and invalid_jwk (a key set), then core::verify_jwt's in its order.
val verify_jwt(const std::string& compact, const std::string& key_kind, const std::string& key,
               const val& policy) {
  core::JwtVerification verification{core::Hs256Secret{key}, {}, {}};
  if (key_kind == "jwks") {
    auto keys = jwks_keys(key);
    if (!keys) return error_result(keys.error());
    verification.key = core::Rs256KeySet{std::move(*keys)};
  }
  verification.algorithms = emscripten::vecFromJSArray<std::string>(policy["algorithms"]);
  if (!policy["issuer"].isNull()) verification.claims.issuer = policy["issuer"].as<std::string>();
  verification.claims.audiences = emscripten::vecFromJSArray<std::string>(policy["audiences"]);
  verification.claims.now_s = safe_integer(policy["nowSeconds"].as<double>()).value_or(0);
  verification.claims.leeway_s = safe_integer(policy["clockToleranceSeconds"].as<double>()).value_or(0);
  auto jwt = core::verify_jwt(compact, verification);
  if (!jwt) return error_result(jwt.error());
  val value = val::object();
  value.set("header", to_js(jwt->header));
  value.set("payload", to_js(jwt->claims));
  return ok_result(value);
}

// The S256 code_challenge of a verifier. Errors: invalid_code_verifier.
val pkce_challenge(const std::string& verifier) {
  auto valid = core::validate_code_verifier(verifier);
  if (!valid) return error_result(valid.error());
  return ok_result(val(core::pkce_s256_challenge(verifier)));
}

// The RFC 7638 thumbprint of an RSA public JWK given as JSON text. Errors: invalid_jwk.
val jwk_thumbprint(const std::string& jwk_json) {
  auto object = core::parse_json_object(jwk_json);
  if (!object) return error_result(core::make_error("invalid_jwk", "the JWK is not a JSON object"));
  auto key = core::parse_rsa_jwk(*object);
  if (!key) return error_result(key.error());
  return ok_result(val(core::jwk_thumbprint(*key)));
}

}  // namespace

EMSCRIPTEN_BINDINGS(platform_tokens) {
  emscripten::function("allows", &allows);
  emscripten::function("validatePermission", &validate_permission);
  emscripten::function("sha256Hex", &sha256_hex);
  emscripten::function("hasTokenShape", &has_token_shape);
  emscripten::function("makeToken", &make_token);
  emscripten::function("verifyJwtHs256", &verify_jwt_hs256);
  emscripten::function("verifyJwtRs256", &verify_jwt_rs256);
  emscripten::function("verifyJwt", &verify_jwt);
  emscripten::function("pkceChallenge", &pkce_challenge);
  emscripten::function("jwkThumbprint", &jwk_thumbprint);
}
