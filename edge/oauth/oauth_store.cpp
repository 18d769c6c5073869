#include "edge/oauth/oauth_store.h"

#include <algorithm>

#include "core/crypto.h"
#include "core/id.h"
#include "core/oauth/claims.h"
#include "core/token.h"
#include "core/validate.h"
#include "edge/platform/record_json.h"

namespace edge::oauth {
namespace json = core::json;
using core::make_error;
using record::array_of;
using record::boolean;
using record::num;
using record::str;
using record::strs;

namespace {

std::string client_key(std::string_view id) {
  return "client/" + std::string(id);
}
std::string company_client_key(std::string_view company, std::string_view id) {
  return "company-client/" + std::string(company) + "/" + std::string(id);
}
std::string consent_key(std::string_view user, std::string_view client) {
  return "consent/" + std::string(user) + "/" + std::string(client);
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
std::string family_prefix(std::string_view family) {
  return "family/" + std::string(family) + "/";
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
                                      {"familyId", c.family_id}});
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

template <class T, class Decode>
std::optional<T> load(const store::ReadTxn& tx, store::Table t, const std::string& key, Decode decode) {
  auto raw = tx.get(t, key);
  if (!raw) return std::nullopt;
  auto o = core::parse_json_object(*raw);
  if (!o) return std::nullopt;
  return decode(*o);
}

// Marks every token listed under `prefix` (grant/... or family/...) revoked.
void revoke_all(store::WriteTxn& tx, store::Table t, const std::string& prefix) {
  std::vector<std::string> hashes;
  tx.scan(t, prefix, [&](std::string_view key, std::string_view) {
    hashes.emplace_back(key.substr(prefix.size()));
    return true;
  });
  for (auto& h : hashes) {
    auto tok = load<StoredToken>(tx, t, token_key(h), decode_token);
    if (!tok || tok->revoked) continue;
    tok->revoked = true;
    tx.put(t, token_key(h), encode(*tok));
  }
}

// Stores one token with its pair and family index entries.
void put_token(store::WriteTxn& tx, store::Table t, const std::string& hash, const StoredToken& tok) {
  tx.put(t, token_key(hash), encode(tok));
  tx.put(t, grant_prefix(tok.user_id, tok.client_id) + hash, "");
  tx.put(t, family_prefix(tok.family_id) + hash, "");
}

core::Status validate_uris(std::string_view field, const std::vector<std::string>& uris, bool require_one) {
  if (require_one && uris.empty())
    return make_error("invalid_field", "field '" + std::string(field) + "' needs at least one URI");
  if (uris.size() > 20)
    return make_error("invalid_field", "field '" + std::string(field) + "' holds at most 20 URIs");
  for (auto& u : uris)
    if (!core::validate_http_url(u))
      return make_error("invalid_field", "field '" + std::string(field) +
                                             "' holds an invalid URI: absolute http(s), no fragment");
  return {};
}

bool has(const std::vector<std::string>& v, std::string_view s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

}  // namespace

core::Status validate_client_input(const ClientInput& in, bool require_all) {
  if (require_all && !in.name) return make_error("missing_field", "field 'name' is required");
  if (in.name && (in.name->empty() || in.name->size() > 200))
    return make_error("invalid_field", "field 'name' must be 1 to 200 characters");
  if (require_all && !in.redirect_uris)
    return make_error("missing_field", "field 'redirectUris' is required");
  if (in.redirect_uris) CORE_TRY(validate_uris("redirectUris", *in.redirect_uris, true));
  if (in.post_logout_redirect_uris)
    CORE_TRY(validate_uris("postLogoutRedirectUris", *in.post_logout_redirect_uris, false));
  if (in.homepage_url && !in.homepage_url->empty() && !core::validate_http_url(*in.homepage_url))
    return make_error("invalid_field", "field 'homepageUrl' must be an absolute http(s) URL");
  if (in.scopes) {
    static const std::vector<std::string> kKnown = {"openid", "profile", "email", "offline_access"};
    if (!has(*in.scopes, "openid")) return make_error("invalid_field", "field 'scopes' must include openid");
    for (auto& s : *in.scopes)
      if (!has(kKnown, s))
        return make_error("invalid_field",
                          "field 'scopes' holds '" + s + "'; known: openid, profile, email, offline_access");
  }
  return {};
}

json::object to_json(const OAuthClient& c) {
  return {{"clientId", c.client_id},
          {"name", c.name},
          {"homepageUrl", c.homepage_url.empty() ? json::value(nullptr) : json::value(c.homepage_url)},
          {"redirectUris", array_of(c.redirect_uris)},
          {"postLogoutRedirectUris", array_of(c.post_logout_redirect_uris)},
          {"scopes", array_of(c.scopes)},
          {"public", c.is_public},
          {"createdAt", core::format_timestamp(c.created_at)},
          {"secretRotatedAt",
           c.is_public ? json::value(nullptr) : json::value(core::format_timestamp(c.secret_rotated_at))}};
}

OAuthStore::OAuthStore(store::KvStore& kv, store::Table table, core::Clock& clock, core::RandomSource& random)
    : kv_(kv), table_(table), clock_(clock), random_(random) {}

core::Result<OAuthClient> OAuthStore::create_client(const std::string& company_id, const ClientInput& in,
                                                    std::string* secret) {
  CORE_TRY(validate_client_input(in, true));
  OAuthClient c;
  c.client_id = core::make_id("cli_", random_);
  c.company_id = company_id;
  c.name = *in.name;
  c.homepage_url = in.homepage_url.value_or("");
  c.redirect_uris = *in.redirect_uris;
  c.post_logout_redirect_uris = in.post_logout_redirect_uris.value_or(std::vector<std::string>{});
  c.scopes = in.scopes.value_or(std::vector<std::string>{"openid", "profile", "email"});
  std::sort(c.scopes.begin(), c.scopes.end());
  c.is_public = in.is_public.value_or(false);
  c.created_at = c.secret_rotated_at = clock_.now_ms();
  std::string plaintext;
  if (!c.is_public) {
    plaintext = core::make_token(core::TokenKind::oauth_client_secret, random_);
    c.secret_hash = core::sha256_hex(plaintext);
  }
  CORE_TRY(kv_.write([&](store::WriteTxn& tx) -> core::Status {
    tx.put(table_, client_key(c.client_id), encode(c));
    tx.put(table_, company_client_key(company_id, c.client_id), "");
    return {};
  }));
  if (secret) *secret = plaintext;
  return c;
}

core::Result<OAuthClient> OAuthStore::client(std::string_view client_id) {
  std::optional<OAuthClient> out;
  CORE_TRY(kv_.read([&](const store::ReadTxn& tx) -> core::Status {
    out = load<OAuthClient>(tx, table_, client_key(client_id), decode_client);
    return {};
  }));
  if (!out) return make_error("not_found", "OAuth client not found");
  return *out;
}

core::Result<std::vector<OAuthClient>> OAuthStore::clients_of(const std::string& company_id) {
  std::vector<OAuthClient> out;
  CORE_TRY(kv_.read([&](const store::ReadTxn& tx) -> core::Status {
    std::string prefix = "company-client/" + company_id + "/";
    tx.scan(table_, prefix, [&](std::string_view key, std::string_view) {
      if (auto c = load<OAuthClient>(tx, table_, client_key(key.substr(prefix.size())), decode_client))
        out.push_back(std::move(*c));
      return true;
    });
    return {};
  }));
  std::sort(out.begin(), out.end(), [](auto& a, auto& b) { return a.created_at < b.created_at; });
  return out;
}

core::Result<OAuthClient> OAuthStore::update_client(const std::string& company_id, std::string_view client_id,
                                                    const ClientInput& in) {
  CORE_TRY(validate_client_input(in, false));
  std::optional<OAuthClient> out;
  CORE_TRY(kv_.write([&](store::WriteTxn& tx) -> core::Status {
    auto c = load<OAuthClient>(tx, table_, client_key(client_id), decode_client);
    if (!c || c->company_id != company_id) return make_error("not_found", "OAuth client not found");
    if (in.name) c->name = *in.name;
    if (in.homepage_url) c->homepage_url = *in.homepage_url;
    if (in.redirect_uris) c->redirect_uris = *in.redirect_uris;
    if (in.post_logout_redirect_uris) c->post_logout_redirect_uris = *in.post_logout_redirect_uris;
    if (in.scopes) {
      c->scopes = *in.scopes;
      std::sort(c->scopes.begin(), c->scopes.end());
    }
    if (in.is_public && *in.is_public != c->is_public)
      return make_error("conflict",
                        "a client cannot change between public and confidential; register a new one");
    tx.put(table_, client_key(client_id), encode(*c));
    out = *c;
    return {};
  }));
  return *out;
}

core::Result<OAuthClient> OAuthStore::rotate_secret(const std::string& company_id, std::string_view client_id,
                                                    std::string* secret) {
  std::string plaintext = core::make_token(core::TokenKind::oauth_client_secret, random_);
  std::optional<OAuthClient> out;
  CORE_TRY(kv_.write([&](store::WriteTxn& tx) -> core::Status {
    auto c = load<OAuthClient>(tx, table_, client_key(client_id), decode_client);
    if (!c || c->company_id != company_id) return make_error("not_found", "OAuth client not found");
    if (c->is_public) return make_error("conflict", "a public client has no secret");
    c->secret_hash = core::sha256_hex(plaintext);
    c->secret_rotated_at = clock_.now_ms();
    tx.put(table_, client_key(client_id), encode(*c));
    out = *c;
    return {};
  }));
  if (secret) *secret = plaintext;
  return *out;
}

core::Status OAuthStore::delete_client(const std::string& company_id, std::string_view client_id) {
  return kv_.write([&](store::WriteTxn& tx) -> core::Status {
    auto c = load<OAuthClient>(tx, table_, client_key(client_id), decode_client);
    if (!c || c->company_id != company_id) return make_error("not_found", "OAuth client not found");
    // Consents name users first; a client's are found by scanning them all. Deletion is rare.
    std::vector<std::string> users;
    tx.scan(table_, "consent/", [&](std::string_view key, std::string_view) {
      std::string_view rest = key.substr(8);
      auto slash = rest.find('/');
      if (slash != std::string_view::npos && rest.substr(slash + 1) == client_id)
        users.emplace_back(rest.substr(0, slash));
      return true;
    });
    for (auto& u : users) {
      tx.erase(table_, consent_key(u, client_id));
      revoke_all(tx, table_, grant_prefix(u, client_id));
    }
    tx.erase(table_, client_key(client_id));
    tx.erase(table_, company_client_key(company_id, client_id));
    return {};
  });
}

core::Result<OAuthClient> OAuthStore::authenticate_client(std::string_view client_id,
                                                          std::optional<std::string_view> secret) {
  auto bad = [] { return make_error("invalid_client", "client authentication failed"); };
  auto c = client(client_id);
  if (!c) {
    if (c.error().code != "not_found") return c.error();
    // Spend the same hashing work as for a real client.
    (void)core::constant_time_equal(core::sha256_hex(secret.value_or("")), std::string(64, '0'));
    return bad();
  }
  if (c->is_public) {
    if (secret && !secret->empty()) return bad();
    return c;
  }
  if (!secret || !core::constant_time_equal(core::sha256_hex(*secret), c->secret_hash)) return bad();
  return c;
}

std::optional<Consent> OAuthStore::consent(std::string_view user_id, std::string_view client_id) {
  std::optional<Consent> out;
  (void)kv_.read([&](const store::ReadTxn& tx) -> core::Status {
    out = load<Consent>(tx, table_, consent_key(user_id, client_id), decode_consent);
    return {};
  });
  return out;
}

core::Status OAuthStore::grant_consent(const Consent& consent) {
  return kv_.write([&](store::WriteTxn& tx) -> core::Status {
    tx.put(table_, consent_key(consent.user_id, consent.client_id), encode(consent));
    return {};
  });
}

core::Result<std::vector<Consent>> OAuthStore::consents_of(std::string_view user_id) {
  std::vector<Consent> out;
  CORE_TRY(kv_.read([&](const store::ReadTxn& tx) -> core::Status {
    tx.scan(table_, "consent/" + std::string(user_id) + "/", [&](std::string_view, std::string_view value) {
      if (auto o = core::parse_json_object(value)) out.push_back(decode_consent(*o));
      return true;
    });
    return {};
  }));
  return out;
}

core::Status OAuthStore::revoke_consent(std::string_view user_id, std::string_view client_id) {
  return kv_.write([&](store::WriteTxn& tx) -> core::Status {
    if (!tx.erase(table_, consent_key(user_id, client_id)))
      return make_error("not_found", "no such connected app");
    revoke_all(tx, table_, grant_prefix(user_id, client_id));
    return {};
  });
}

core::Result<std::string> OAuthStore::issue_code(StoredCode code) {
  std::string plaintext = core::make_token(core::TokenKind::oauth_code, random_);
  code.issued_at_ms = clock_.now_ms();
  code.expires_at_ms = code.issued_at_ms + core::oauth::kCodeLifetimeS * 1000;
  CORE_TRY(kv_.write([&](store::WriteTxn& tx) -> core::Status {
    tx.put(table_, code_key(core::sha256_hex(plaintext)), encode(code));
    return {};
  }));
  return plaintext;
}

namespace {

// Fresh plaintexts and records for one grant; made before the write transaction (which may run twice).
struct NewTokens {
  std::string access, refresh, access_hash, refresh_hash;
};

NewTokens make_tokens(core::RandomSource& random, bool with_refresh) {
  NewTokens t;
  t.access = core::make_token(core::TokenKind::oauth_access, random);
  t.access_hash = core::sha256_hex(t.access);
  if (with_refresh) {
    t.refresh = core::make_token(core::TokenKind::oauth_refresh, random);
    t.refresh_hash = core::sha256_hex(t.refresh);
  }
  return t;
}

// Writes the access (and refresh) token of a grant and fills `out`.
void store_tokens(store::WriteTxn& tx, store::Table table, const NewTokens& fresh, const StoredToken& base,
                  std::int64_t now, IssuedTokens& out) {
  StoredToken access = base;
  access.kind = StoredToken::Kind::access;
  access.issued_at_ms = now;
  access.expires_at_ms = now + core::oauth::kAccessTokenLifetimeS * 1000;
  put_token(tx, table, fresh.access_hash, access);
  out.access_token = fresh.access;
  out.access = access;
  out.refresh_token.clear();
  if (!fresh.refresh.empty()) {
    StoredToken refresh = base;
    refresh.kind = StoredToken::Kind::refresh;
    refresh.issued_at_ms = now;
    refresh.expires_at_ms = now + core::oauth::kRefreshTokenLifetimeS * 1000;
    put_token(tx, table, fresh.refresh_hash, refresh);
    out.refresh_token = fresh.refresh;
  }
  out.scopes = base.scopes;
  out.user_id = base.user_id;
  out.auth_time_ms = base.auth_time_ms;
}

}  // namespace

core::Result<std::variant<IssuedTokens, GrantRefusal>> OAuthStore::exchange_code(
    std::string_view code, const core::oauth::CodeExchange& request) {
  std::string hash = core::sha256_hex(code);
  std::string family = core::make_id("fam_", random_);
  // Whether a refresh token comes is known only inside; making one spare costs a few random bytes.
  NewTokens fresh = make_tokens(random_, true);
  std::variant<IssuedTokens, GrantRefusal> out;
  std::int64_t now = clock_.now_ms();
  CORE_TRY(kv_.write([&](store::WriteTxn& tx) -> core::Status {
    auto stored = load<StoredCode>(tx, table_, code_key(hash), decode_code);
    std::optional<core::oauth::CodeState> state;
    if (stored)
      state = core::oauth::CodeState{stored->client_id, stored->redirect_uri, stored->code_challenge,
                                     stored->expires_at_ms, stored->used};
    auto decision = core::oauth::decide_code_exchange(state ? &*state : nullptr, request, now);
    if (decision.outcome != core::oauth::GrantOutcome::issue) {
      if (decision.outcome == core::oauth::GrantOutcome::replay && !stored->family_id.empty())
        revoke_all(tx, table_, family_prefix(stored->family_id));
      out = GrantRefusal{"invalid_grant", decision.description};
      return {};
    }
    stored->used = true;
    stored->family_id = family;
    tx.put(table_, code_key(hash), encode(*stored));
    StoredToken base;
    base.client_id = stored->client_id;
    base.user_id = stored->user_id;
    base.family_id = family;
    base.scopes = stored->scopes;
    base.auth_time_ms = stored->auth_time_ms;
    NewTokens these = fresh;
    if (!has(stored->scopes, "offline_access")) these.refresh.clear();
    IssuedTokens issued;
    store_tokens(tx, table_, these, base, now, issued);
    issued.nonce = stored->nonce;
    out = std::move(issued);
    return {};
  }));
  return out;
}

core::Result<std::variant<IssuedTokens, GrantRefusal>> OAuthStore::refresh(
    std::string_view refresh_token, std::string_view client_id,
    const std::optional<core::ScopeSet>& narrowed) {
  std::string hash = core::sha256_hex(refresh_token);
  NewTokens fresh = make_tokens(random_, true);
  std::variant<IssuedTokens, GrantRefusal> out;
  std::int64_t now = clock_.now_ms();
  CORE_TRY(kv_.write([&](store::WriteTxn& tx) -> core::Status {
    auto stored = load<StoredToken>(tx, table_, token_key(hash), decode_token);
    if (stored && stored->kind != StoredToken::Kind::refresh) stored.reset();
    std::optional<core::oauth::RefreshState> state;
    if (stored)
      state = core::oauth::RefreshState{stored->client_id, stored->expires_at_ms, stored->rotated,
                                        stored->revoked};
    auto decision = core::oauth::decide_refresh(state ? &*state : nullptr, client_id, now);
    if (decision.outcome != core::oauth::GrantOutcome::issue) {
      if (decision.outcome == core::oauth::GrantOutcome::replay)
        revoke_all(tx, table_, family_prefix(stored->family_id));
      out = GrantRefusal{"invalid_grant", decision.description};
      return {};
    }
    StoredToken base = *stored;
    if (narrowed) {
      for (auto& s : narrowed->items)
        if (!has(stored->scopes, s)) {
          out = GrantRefusal{"invalid_scope", "scope '" + s + "' was not granted"};
          return {};
        }
      base.scopes = narrowed->items;
    }
    stored->rotated = true;
    tx.put(table_, token_key(hash), encode(*stored));
    base.revoked = base.rotated = false;
    IssuedTokens issued;
    // The new refresh token keeps the original grant (offline_access), even when the access token's scope
    // was narrowed.
    store_tokens(tx, table_, fresh, base, now, issued);
    out = std::move(issued);
    return {};
  }));
  return out;
}

std::optional<StoredToken> OAuthStore::token(std::string_view plaintext) {
  std::optional<StoredToken> out;
  std::string hash = core::sha256_hex(plaintext);
  (void)kv_.read([&](const store::ReadTxn& tx) -> core::Status {
    out = load<StoredToken>(tx, table_, token_key(hash), decode_token);
    return {};
  });
  return out;
}

core::Status OAuthStore::revoke(std::string_view plaintext, std::string_view client_id) {
  std::string hash = core::sha256_hex(plaintext);
  return kv_.write([&](store::WriteTxn& tx) -> core::Status {
    auto tok = load<StoredToken>(tx, table_, token_key(hash), decode_token);
    // RFC 7009 §2.1: a token of another client is left alone, and the answer is 200 all the same.
    if (!tok || tok->client_id != client_id) return {};
    if (tok->kind == StoredToken::Kind::refresh) {
      revoke_all(tx, table_, family_prefix(tok->family_id));
    } else if (!tok->revoked) {
      tok->revoked = true;
      tx.put(table_, token_key(hash), encode(*tok));
    }
    return {};
  });
}

core::Status OAuthStore::revoke_pair(std::string_view user_id, std::string_view client_id) {
  return kv_.write([&](store::WriteTxn& tx) -> core::Status {
    revoke_all(tx, table_, grant_prefix(user_id, client_id));
    return {};
  });
}

core::Result<std::size_t> OAuthStore::sweep(std::size_t max_items) {
  std::int64_t cutoff = clock_.now_ms() - kSweepGraceMs;
  std::size_t removed = 0;
  CORE_TRY(kv_.write([&](store::WriteTxn& tx) -> core::Status {
    removed = 0;  // the function may run more than once
    std::vector<std::string> codes;
    tx.scan(table_, "code/", [&](std::string_view key, std::string_view value) {
      auto o = core::parse_json_object(value);
      if (o && decode_code(*o).expires_at_ms < cutoff) codes.emplace_back(key);
      return codes.size() < max_items;
    });
    for (auto& key : codes) tx.erase(table_, key);
    std::vector<std::pair<std::string, StoredToken>> tokens;
    tx.scan(table_, "token/", [&](std::string_view key, std::string_view value) {
      auto o = core::parse_json_object(value);
      if (o) {
        StoredToken t = decode_token(*o);
        if (t.expires_at_ms < cutoff) tokens.emplace_back(std::string(key.substr(6)), std::move(t));
      }
      return codes.size() + tokens.size() < max_items;
    });
    for (auto& [hash, t] : tokens) {
      tx.erase(table_, token_key(hash));
      tx.erase(table_, grant_prefix(t.user_id, t.client_id) + hash);
      tx.erase(table_, family_prefix(t.family_id) + hash);
    }
    removed = codes.size() + tokens.size();
    return {};
  }));
  return removed;
}

}  // namespace edge::oauth
