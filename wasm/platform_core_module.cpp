// The `platform_core` ES module: core functions for JavaScript through embind.
//
// Contract with bindings/index.js (the public API; this module is its implementation detail):
// - Arguments arrive already type-checked by the bindings: numbers are JS numbers, strings are strings,
//   arrays are arrays of strings. Values are not checked there; that is the core's job.
// - A function whose core counterpart returns a Result answers `{ok: true, value}` or
//   `{ok: false, code, message}` with the core's error code and message. Functions that cannot fail answer
//   the plain value. Nothing here throws into JS.
// - The restaurant rules are bound in restaurant_module.cpp (a second EMSCRIPTEN_BINDINGS block of the same
//   module); the answer and number helpers both files use are in js_result.h.

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
#include "core/date.h"
#include "core/json.h"
#include "core/jwk.h"
#include "core/jwt.h"
#include "core/money.h"
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
using platform_wasm::safe_int;
using platform_wasm::safe_integer;

// --- money -------------------------------------------------------------------------------------------------

// {grossMinor, netMinor, vatMinor}. Errors: vat_rate_invalid (checked first), invalid_amount. A number that
// is not a safe integer fails with the code of its argument, like an out-of-range one.
val vat_split(double gross_minor, double bps) {
  auto rate = safe_integer(bps);
  if (!rate) {
    return error_result(
        core::make_error("vat_rate_invalid", "VAT rate must be an integer from 0 to 10000 basis points"));
  }
  auto gross = safe_integer(gross_minor);
  if (!gross) {
    // The core checks the rate first: an out-of-range rate wins over an unusable gross.
    if (auto status = core::validate_vat_rate_bps(*rate); !status) return error_result(status.error());
    return error_result(core::make_error(
        "invalid_amount", "grossMinor must be an integer from 0 to 1000000000000000 minor units"));
  }
  auto split = core::split_vat(*gross, *rate);
  if (!split) return error_result(split.error());
  val value = val::object();
  value.set("grossMinor", static_cast<double>(split->grossMinor));
  value.set("netMinor", static_cast<double>(split->netMinor));
  value.set("vatMinor", static_cast<double>(split->vatMinor));
  return ok_result(value);
}

// --- dates -------------------------------------------------------------------------------------------------

core::Error invalid_local_time(std::string_view text) {
  return core::make_error("invalid_time", "'" + std::string(text) +
                                              "' is not a local date and time (expected YYYY-MM-DDTHH:MM or "
                                              "YYYY-MM-DDTHH:MM:SS)");
}

bool two_digits(std::string_view text, std::size_t at, int& out) {
  if (at + 2 > text.size()) return false;
  const char a = text[at], b = text[at + 1];
  if (a < '0' || a > '9' || b < '0' || b > '9') return false;
  out = (a - '0') * 10 + (b - '0');
  return true;
}

// `YYYY-MM-DDTHH:MM` or `YYYY-MM-DDTHH:MM:SS`: the value of an HTML datetime-local input. Ranges (hour 24,
// minute 60, February 30) are left to the core, which reports them as invalid_time / invalid_date.
core::Result<core::LocalDateTime> parse_local_date_time(std::string_view text) {
  auto date = core::parse_day_key(text.substr(0, std::min<std::size_t>(text.size(), 10)));
  if (!date) return date.error();
  core::LocalDateTime local{*date, 0, 0, 0};
  const bool shape_ok = (text.size() == 16 || text.size() == 19) && text[10] == 'T' && text[13] == ':' &&
                        two_digits(text, 11, local.hour) && two_digits(text, 14, local.minute) &&
                        (text.size() == 16 || (text[16] == ':' && two_digits(text, 17, local.second)));
  if (!shape_ok) return invalid_local_time(text);
  return local;
}

// "YYYY-MM-DD": the business date of a local wall-clock time. Errors: invalid_cutoff_hour, invalid_date,
// invalid_time.
val business_date(const std::string& local_date_time, double day_cutoff_hour) {
  auto cutoff = safe_int(day_cutoff_hour);
  if (!cutoff) {
    return error_result(
        core::make_error("invalid_cutoff_hour", "dayCutoffHour must be an integer from 0 to 23"));
  }
  auto local = parse_local_date_time(local_date_time);
  if (!local) {
    // The core checks the cutoff before the time; keep its order when both are wrong.
    auto cutoff_check = core::business_date(core::LocalDateTime{}, *cutoff);
    return error_result(cutoff_check ? local.error() : cutoff_check.error());
  }
  auto date = core::business_date(*local, *cutoff);
  if (!date) return error_result(date.error());
  return ok_result(val(core::format_day_key(*date)));
}

// "YYYY-MM-DD" `days` after `day_key` (before it when negative). Errors: invalid_date for a bad key, a
// non-integer day count or a result outside 0000..9999.
val add_days(const std::string& day_key, double days) {
  auto date = core::parse_day_key(day_key);
  if (!date) return error_result(date.error());
  auto count = safe_int(days);
  if (!count) return error_result(core::make_error("invalid_date", "days must be an integer"));
  constexpr std::int64_t kFirstDay = -719528;  // 0000-01-01 in days since 1970-01-01
  constexpr std::int64_t kLastDay = 2932896;   // 9999-12-31
  const std::int64_t target = core::days_from_civil(*date) + *count;
  if (target < kFirstDay || target > kLastDay) {
    return error_result(
        core::make_error("invalid_date", "the resulting day lies outside 0000-01-01..9999-12-31"));
  }
  return ok_result(val(core::format_day_key(core::civil_from_days(target))));
}

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

// `jwks_json`: a JWK Set as JSON text (the bindings stringify an object). Errors: invalid_jwks,
// invalid_jwk, then invalid_jwt, unsupported_alg, unknown_kid, invalid_signature.
val verify_jwt_rs256(const std::string& compact, const std::string& jwks_json) {
  auto object = core::parse_json_object(jwks_json);
  if (!object) return error_result(core::make_error("invalid_jwks", "the JWK Set is not a JSON object"));
  auto keys = core::parse_jwks(*object);
  if (!keys) return error_result(keys.error());
  auto jwt = core::verify_rs256(compact, *keys);
  if (!jwt) return error_result(jwt.error());
  return verified(*jwt);
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

EMSCRIPTEN_BINDINGS(platform_core) {
  emscripten::function("vatSplit", &vat_split);
  emscripten::function("businessDate", &business_date);
  emscripten::function("addDays", &add_days);
  emscripten::function("allows", &allows);
  emscripten::function("validatePermission", &validate_permission);
  emscripten::function("sha256Hex", &sha256_hex);
  emscripten::function("hasTokenShape", &has_token_shape);
  emscripten::function("makeToken", &make_token);
  emscripten::function("verifyJwtHs256", &verify_jwt_hs256);
  emscripten::function("verifyJwtRs256", &verify_jwt_rs256);
  emscripten::function("pkceChallenge", &pkce_challenge);
  emscripten::function("jwkThumbprint", &jwk_thumbprint);
}
