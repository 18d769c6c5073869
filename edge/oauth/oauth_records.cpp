#include "edge/oauth/oauth_records.h"

#include <algorithm>
#include <charconv>
#include <cstdio>

#include "edge/platform/record_json.h"

namespace edge::oauth::records {
namespace json = core::json;
using record::array_of;
using record::boolean;
using record::num;
using record::str;
using record::strs;

std::string client_key(std::string_view id) {
  return "client/" + std::string(id);
}
std::string company_client_key(std::string_view company, std::string_view id) {
  return "company-client/" + std::string(company) + "/" + std::string(id);
}
std::string consent_key(std::string_view user, std::string_view client) {
  return "consent/" + std::string(user) + "/" + std::string(client);
}
std::string epoch_key(std::string_view user, std::string_view client) {
  return "epoch/" + std::string(user) + "/" + std::string(client);
}
std::string code_key(std::string_view hash) {
  return "code/" + std::string(hash);
}
std::string token_key(std::string_view hash) {
  return "token/" + std::string(hash);
}
std::string grant_prefix(std::string_view user, std::string_view client) {
  return "grant/" + std::string(user) + "/" + std::string(client) + "/";
}
std::string grant_entry_key(std::string_view user, std::string_view client, std::int64_t issued_at_ms,
                            std::string_view hash) {
  char digits[24];
  std::snprintf(digits, sizeof digits, "%020lld",
                static_cast<long long>(std::max<std::int64_t>(0, issued_at_ms)));
  return grant_prefix(user, client) + digits + "/" + std::string(hash);
}
std::string family_prefix(std::string_view family) {
  return "family/" + std::string(family) + "/";
}
std::string login_request_key(std::string_view hash) {
  return "login-request/" + std::string(hash);
}

std::string expiry_key(std::int64_t expires_at_ms, std::string_view kind, std::string_view hash) {
  // Zero-padded to 20 digits so byte order is time order (negative times do not occur).
  char digits[24];
  std::snprintf(digits, sizeof digits, "%020lld",
                static_cast<long long>(std::max<std::int64_t>(0, expires_at_ms)));
  return std::string(kExpiryPrefix) + digits + "/" + std::string(kind) + "/" + std::string(hash);
}

std::optional<ExpiryEntry> parse_expiry_key(std::string_view key) {
  if (key.substr(0, kExpiryPrefix.size()) != kExpiryPrefix) return std::nullopt;
  key.remove_prefix(kExpiryPrefix.size());
  auto slash = key.find('/');
  if (slash != 20) return std::nullopt;
  ExpiryEntry e;
  if (std::from_chars(key.data(), key.data() + slash, e.expires_at_ms).ptr != key.data() + slash)
    return std::nullopt;
  key.remove_prefix(slash + 1);
  slash = key.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  e.kind = std::string(key.substr(0, slash));
  e.hash = std::string(key.substr(slash + 1));
  return e;
}

std::string encode(const OAuthClient& c) {
  return json::serialize(json::object{{"clientId", c.client_id},
                                      {"companyId", c.company_id},
                                      {"name", c.name},
                                      {"homepageUrl", c.homepage_url},
                                      {"secretHash", c.secret_hash},
                                      {"redirectUris", array_of(c.redirect_uris)},
                                      {"postLogoutRedirectUris", array_of(c.post_logout_redirect_uris)},
                                      {"scopes", array_of(c.scopes)},
                                      {"public", c.is_public},
                                      {"createdAt", c.created_at},
                                      {"secretRotatedAt", c.secret_rotated_at}});
}
OAuthClient decode_client(const json::object& o) {
  OAuthClient c;
  c.client_id = str(o, "clientId");
  c.company_id = str(o, "companyId");
  c.name = str(o, "name");
  c.homepage_url = str(o, "homepageUrl");
  c.secret_hash = str(o, "secretHash");
  c.redirect_uris = strs(o, "redirectUris");
  c.post_logout_redirect_uris = strs(o, "postLogoutRedirectUris");
  c.scopes = strs(o, "scopes");
  c.is_public = boolean(o, "public");
  c.created_at = num(o, "createdAt");
  c.secret_rotated_at = num(o, "secretRotatedAt");
  return c;
}

std::string encode(const Consent& c) {
  return json::serialize(json::object{{"userId", c.user_id},
                                      {"clientId", c.client_id},
                                      {"scopes", array_of(c.scopes)},
                                      {"grantedAt", c.granted_at}});
}
Consent decode_consent(const json::object& o) {
  return {str(o, "userId"), str(o, "clientId"), strs(o, "scopes"), num(o, "grantedAt")};
}

std::string encode(const StoredCode& c) {
  return json::serialize(json::object{{"clientId", c.client_id},
                                      {"userId", c.user_id},
                                      {"redirectUri", c.redirect_uri},
                                      {"nonce", c.nonce},
                                      {"codeChallenge", c.code_challenge},
                                      {"scopes", array_of(c.scopes)},
                                      {"authTime", c.auth_time_ms},
                                      {"issuedAt", c.issued_at_ms},
                                      {"expiresAt", c.expires_at_ms},
                                      {"used", c.used},
                                      {"familyId", c.family_id},
                                      {"epoch", c.epoch}});
}
StoredCode decode_code(const json::object& o) {
  StoredCode c;
  c.client_id = str(o, "clientId");
  c.user_id = str(o, "userId");
  c.redirect_uri = str(o, "redirectUri");
  c.nonce = str(o, "nonce");
  c.code_challenge = str(o, "codeChallenge");
  c.scopes = strs(o, "scopes");
  c.auth_time_ms = num(o, "authTime");
  c.issued_at_ms = num(o, "issuedAt");
  c.expires_at_ms = num(o, "expiresAt");
  c.used = boolean(o, "used");
  c.family_id = str(o, "familyId");
  c.epoch = num(o, "epoch");
  return c;
}

std::string encode(const StoredToken& t) {
  return json::serialize(json::object{{"kind", t.kind == StoredToken::Kind::access ? "access" : "refresh"},
                                      {"clientId", t.client_id},
                                      {"userId", t.user_id},
                                      {"familyId", t.family_id},
                                      {"scopes", array_of(t.scopes)},
                                      {"issuedAt", t.issued_at_ms},
                                      {"expiresAt", t.expires_at_ms},
                                      {"authTime", t.auth_time_ms},
                                      {"revoked", t.revoked},
                                      {"rotated", t.rotated}});
}
StoredToken decode_token(const json::object& o) {
  StoredToken t;
  t.kind = str(o, "kind") == "refresh" ? StoredToken::Kind::refresh : StoredToken::Kind::access;
  t.client_id = str(o, "clientId");
  t.user_id = str(o, "userId");
  t.family_id = str(o, "familyId");
  t.scopes = strs(o, "scopes");
  t.issued_at_ms = num(o, "issuedAt");
  t.expires_at_ms = num(o, "expiresAt");
  t.auth_time_ms = num(o, "authTime");
  t.revoked = boolean(o, "revoked");
  t.rotated = boolean(o, "rotated");
  return t;
}

bool has(const std::vector<std::string>& v, std::string_view s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

}  // namespace edge::oauth::records
