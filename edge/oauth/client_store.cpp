#include "edge/oauth/client_store.h"

#include <algorithm>

#include "core/crypto.h"
#include "core/date.h"
#include "core/id.h"
#include "core/oauth/redirect_uri.h"
#include "core/token.h"
#include "core/validate.h"
#include "edge/oauth/oauth_records.h"
#include "edge/platform/record_json.h"

namespace edge::oauth {
namespace json = core::json;
using core::make_error;
using namespace records;
using record::array_of;

namespace {

core::Status validate_uris(std::string_view field, const std::vector<std::string>& uris, bool require_one) {
  if (require_one && uris.empty())
    return make_error("invalid_field", "field '" + std::string(field) + "' needs at least one URI");
  if (uris.size() > 20)
    return make_error("invalid_field", "field '" + std::string(field) + "' holds at most 20 URIs");
  for (auto& u : uris)
    if (auto checked = core::oauth::validate_redirect_uri(u); !checked)
      return make_error("invalid_field", "field '" + std::string(field) + "' holds an invalid URI (" + u +
                                             "): " + checked.error().message);
  return {};
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

ClientStore::ClientStore(store::KvStore& kv, store::Table table, core::Clock& clock,
                         core::RandomSource& random)
    : kv_(kv), table_(table), clock_(clock), random_(random) {}

core::Result<OAuthClient> ClientStore::create_client(const std::string& company_id, const ClientInput& in,
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

core::Result<OAuthClient> ClientStore::client(std::string_view client_id) {
  std::optional<OAuthClient> out;
  CORE_TRY(kv_.read([&](const store::ReadTxn& tx) -> core::Status {
    out = load<OAuthClient>(tx, table_, client_key(client_id), decode_client);
    return {};
  }));
  if (!out) return make_error("not_found", "OAuth client not found");
  return *out;
}

core::Result<std::vector<OAuthClient>> ClientStore::clients_of(const std::string& company_id) {
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

core::Result<OAuthClient> ClientStore::update_client(const std::string& company_id,
                                                     std::string_view client_id, const ClientInput& in) {
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

core::Result<OAuthClient> ClientStore::rotate_secret(const std::string& company_id,
                                                     std::string_view client_id, std::string* secret) {
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

core::Result<OAuthClient> ClientStore::authenticate_client(std::string_view client_id,
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

core::Status ClientStore::erase_client_in(store::WriteTxn& tx, const std::string& company_id,
                                          std::string_view client_id) {
  auto c = load<OAuthClient>(tx, table_, client_key(client_id), decode_client);
  if (!c || c->company_id != company_id) return make_error("not_found", "OAuth client not found");
  tx.erase(table_, client_key(client_id));
  tx.erase(table_, company_client_key(company_id, client_id));
  return {};
}

}  // namespace edge::oauth
