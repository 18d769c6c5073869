#include "core/jwt.h"

#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "core/crypto.h"

namespace core {
namespace {

Error invalid_jwt(std::string message) {
  return make_error("invalid_jwt", std::move(message));
}

std::string_view view(const json::string& s) {
  return std::string_view(s.data(), s.size());
}

// base64url text holding a JSON object.
Result<json::object> decode_part(std::string_view part, std::string_view name) {
  auto bytes = base64url_decode(part);
  if (!bytes) return invalid_jwt("JWT " + std::string(name) + " is not base64url without padding");
  auto object = parse_json_object(to_string(*bytes));
  if (!object) return invalid_jwt("JWT " + std::string(name) + " is not a JSON object");
  return object;
}

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();

std::int64_t saturating_add(std::int64_t a, std::int64_t b) {  // b >= 0
  return a > kMax - b ? kMax : a + b;
}
std::int64_t saturating_sub(std::int64_t a, std::int64_t b) {  // b >= 0
  return a < kMin + b ? kMin : a - b;
}

// A NumericDate (RFC 7519 §2): any JSON number, rounded down to whole seconds, saturated to int64.
std::optional<std::int64_t> numeric_date(const json::value& v) {
  if (v.is_int64()) return v.get_int64();
  if (v.is_uint64())
    return v.get_uint64() > static_cast<std::uint64_t>(kMax) ? kMax : std::int64_t(v.get_uint64());
  if (v.is_double()) {
    const double d = std::floor(v.get_double());
    if (d >= 9.2233720368547758e18) return kMax;
    if (d <= -9.2233720368547758e18) return kMin;
    return static_cast<std::int64_t>(d);
  }
  return std::nullopt;
}

// Reads an optional time claim: nullopt when absent, an error when present but not a number.
Result<std::optional<std::int64_t>> time_claim(const json::object& claims, std::string_view name) {
  auto it = claims.find(name);
  if (it == claims.end()) return std::optional<std::int64_t>();
  auto value = numeric_date(it->value());
  if (!value)
    return make_error("invalid_claims", "claim '" + std::string(name) + "' must be a number of seconds");
  return std::optional<std::int64_t>(*value);
}

std::string_view string_claim(const json::object& claims, std::string_view name, bool& present) {
  auto it = claims.find(name);
  const json::string* s = it == claims.end() ? nullptr : it->value().if_string();
  present = s != nullptr;
  return s ? view(*s) : std::string_view();
}

// Whether `aud`, a string or an array of strings, names an audience `accepts` takes. An array with a
// non-string member is malformed and names nothing, whatever else it holds.
template <class Accepts>
bool audience_matches(const json::object& claims, const Accepts& accepts) {
  auto it = claims.find("aud");
  if (it == claims.end()) return false;
  if (const json::string* one = it->value().if_string()) return accepts(view(*one));
  const json::array* many = it->value().if_array();
  if (!many) return false;
  bool found = false;
  for (const json::value& entry : *many) {
    const json::string* s = entry.if_string();
    if (!s) return false;
    if (accepts(view(*s))) found = true;
  }
  return found;
}

// `exp` (required), `nbf` and `iat` (optional) as NumericDates against now with the leeway; `iat` is
// compared with now only when `compare_iat`, otherwise only its type is checked.
Status check_times(const json::object& claims, std::int64_t now, std::int64_t leeway_s, bool compare_iat) {
  const std::int64_t leeway = leeway_s > 0 ? leeway_s : 0;
  auto exp = time_claim(claims, "exp");
  if (!exp) return exp.error();
  if (!*exp) return make_error("invalid_claims", "claim 'exp' is required");
  if (**exp <= saturating_sub(now, leeway)) return make_error("token_expired", "the token has expired");
  auto nbf = time_claim(claims, "nbf");
  if (!nbf) return nbf.error();
  if (*nbf && **nbf > saturating_add(now, leeway)) {
    return make_error("token_not_yet_valid", "the token is not valid yet (nbf)");
  }
  auto iat = time_claim(claims, "iat");
  if (!iat) return iat.error();
  if (compare_iat && *iat && **iat > saturating_add(now, leeway)) {
    return make_error("token_issued_in_future", "the token claims to be issued in the future (iat)");
  }
  return {};
}

Error wrong_issuer() {
  return make_error("invalid_issuer", "the token was not issued by the expected issuer");
}
Error wrong_audience() {
  return make_error("invalid_audience", "the token is not meant for this audience");
}

}  // namespace

Result<Jwt> decode_jwt(std::string_view compact) {
  if (compact.size() > kMaxJwtLength) {
    return invalid_jwt("JWT is longer than " + std::to_string(kMaxJwtLength) + " bytes");
  }
  const std::size_t first = compact.find('.');
  const std::size_t second = first == std::string_view::npos ? first : compact.find('.', first + 1);
  if (second == std::string_view::npos || compact.find('.', second + 1) != std::string_view::npos) {
    return invalid_jwt("JWT must have three parts separated by '.'");
  }
  Jwt jwt;
  auto header = decode_part(compact.substr(0, first), "header");
  if (!header) return header.error();
  jwt.header = std::move(*header);
  auto claims = decode_part(compact.substr(first + 1, second - first - 1), "payload");
  if (!claims) return claims.error();
  jwt.claims = std::move(*claims);
  auto signature = base64url_decode(compact.substr(second + 1));
  if (!signature) return invalid_jwt("JWT signature is not base64url without padding");
  jwt.signature = std::move(*signature);

  auto alg = jwt.header.find("alg");
  if (alg == jwt.header.end() || !alg->value().is_string()) {
    return invalid_jwt("JWT header must name its \"alg\" as a string");
  }
  if (jwt.header.contains("crit")) {
    return invalid_jwt("JWT header lists critical extensions (\"crit\"), which are not supported");
  }
  jwt.signing_input = std::string(compact.substr(0, second));
  return jwt;
}

std::string_view jwt_alg(const Jwt& jwt) {
  auto alg = jwt.header.find("alg");
  if (alg == jwt.header.end() || !alg->value().is_string()) return {};
  return view(alg->value().get_string());
}

std::string encode_jwt(const json::object& header, const json::object& claims,
                       const std::function<Bytes(std::string_view signing_input)>& sign) {
  std::string out = base64url_encode(as_bytes(json::serialize(header)));
  out.push_back('.');
  out += base64url_encode(as_bytes(json::serialize(claims)));
  const Bytes signature = sign(out);
  out.push_back('.');
  out += base64url_encode(signature);
  return out;
}

std::string sign_hs256(const json::object& claims, std::string_view secret, std::string_view kid) {
  json::object header;
  header["alg"] = "HS256";
  header["typ"] = "JWT";
  if (!kid.empty()) header["kid"] = json::string(kid.data(), kid.size());
  return encode_jwt(header, claims, [secret](std::string_view signing_input) {
    const Digest mac = hmac_sha256(secret, signing_input);
    return Bytes(mac.begin(), mac.end());
  });
}

Status validate_hs256_secret(std::string_view secret) {
  if (secret.size() < kMinHs256SecretBytes) {
    return make_error("weak_secret", "an HS256 secret must be at least " +
                                         std::to_string(kMinHs256SecretBytes) + " bytes long");
  }
  return {};
}

Result<Jwt> verify_hs256(std::string_view compact, std::string_view secret) {
  auto jwt = decode_jwt(compact);
  if (!jwt) return jwt.error();
  if (jwt_alg(*jwt) != "HS256") return make_error("unsupported_alg", "only HS256 tokens are accepted here");
  const Digest expected = hmac_sha256(secret, jwt->signing_input);
  if (!constant_time_equal(expected, jwt->signature)) {
    return make_error("invalid_signature", "the token's signature does not verify");
  }
  return jwt;
}

Status check_claims(const Jwt& jwt, const ClaimChecks& checks) {
  const json::object& claims = jwt.claims;
  bool present = false;
  const std::string_view iss = string_claim(claims, "iss", present);
  if (!present || checks.issuer.empty() || iss != checks.issuer) return wrong_issuer();
  const auto is_expected = [&](std::string_view aud) { return aud == checks.audience; };
  if (checks.audience.empty() || !audience_matches(claims, is_expected)) return wrong_audience();
  if (auto times = check_times(claims, checks.now_s, checks.leeway_s, true); !times) return times;

  if (checks.nonce) {
    const std::string_view nonce = string_claim(claims, "nonce", present);
    if (!present || !constant_time_equal(nonce, *checks.nonce)) {
      return make_error("nonce_mismatch", "the token's nonce does not match the one sent");
    }
  }
  return {};
}

Status check_token_claims(const Jwt& jwt, const TokenClaimChecks& checks) {
  const json::object& claims = jwt.claims;
  if (checks.issuer) {
    bool present = false;
    const std::string_view iss = string_claim(claims, "iss", present);
    if (!present || iss != *checks.issuer) return wrong_issuer();
  }
  if (!checks.audiences.empty()) {
    const auto is_expected = [&](std::string_view aud) {
      for (const std::string& audience : checks.audiences)
        if (aud == audience) return true;
      return false;
    };
    if (!audience_matches(claims, is_expected)) return wrong_audience();
  }
  return check_times(claims, checks.now_s, checks.leeway_s, false);
}

}  // namespace core
