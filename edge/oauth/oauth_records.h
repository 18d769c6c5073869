#pragma once
// The layout of the `oauth` table, shared by the client store, the grant store and the login requests:
// keys, the JSON of each record, and reading one record. Internal to edge/oauth.
//
// Keys:
//   client/<clientId>                          OAuthClient
//   company-client/<companyId>/<clientId>      index of a company's clients
//   consent/<userId>/<clientId>                Consent
//   epoch/<userId>/<clientId>                  revocation epoch of the pair (a decimal counter, see
//                                              GrantStore): codes issued under an older one are refused
//   code/<sha256>                              StoredCode
//   token/<sha256>                             StoredToken (access or refresh)
//   grant/<userId>/<clientId>/<sha256>         every token of a (user, client) pair: consent revocation
//                                              and end-session revoke through it
//   family/<familyId>/<sha256>                 every token of one refresh family (one code exchange and
//                                              its refreshes): a replay revokes through it
//   login-request/<sha256>                     a prompt=login round trip (LoginRequests)
//   expiry/<20-digit ms>/<kind>/<sha256>       expiry index of codes, tokens and login requests (kind:
//                                              code, token, login), sorted by expiry time: the sweep reads
//                                              only what has expired

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"
#include "edge/oauth/client_store.h"
#include "edge/oauth/grant_store.h"
#include "native/store/kv_store.h"

namespace edge::oauth::records {

std::string client_key(std::string_view id);
std::string company_client_key(std::string_view company, std::string_view id);
std::string consent_key(std::string_view user, std::string_view client);
std::string epoch_key(std::string_view user, std::string_view client);
std::string code_key(std::string_view hash);
std::string token_key(std::string_view hash);
std::string grant_prefix(std::string_view user, std::string_view client);
// A token's entry in its user-and-client grant index: under grant_prefix, ordered by issue time, so the
// tokens a batch of grants writes for one pair share a leaf. The hash is the key's last segment.
std::string grant_entry_key(std::string_view user, std::string_view client, std::int64_t issued_at_ms,
                            std::string_view hash);
std::string family_prefix(std::string_view family);
std::string login_request_key(std::string_view hash);

// Expiry index entries. `kind` is "code", "token" or "login".
inline constexpr std::string_view kExpiryPrefix = "expiry/";
std::string expiry_key(std::int64_t expires_at_ms, std::string_view kind, std::string_view hash);
struct ExpiryEntry {
  std::int64_t expires_at_ms = 0;
  std::string kind, hash;
};
std::optional<ExpiryEntry> parse_expiry_key(std::string_view key);

std::string encode(const OAuthClient& c);
OAuthClient decode_client(const core::json::object& o);
std::string encode(const Consent& c);
Consent decode_consent(const core::json::object& o);
std::string encode(const StoredCode& c);
StoredCode decode_code(const core::json::object& o);
std::string encode(const StoredToken& t);
StoredToken decode_token(const core::json::object& o);

// The record under `key`, or nullopt when absent or not a JSON object.
template <class T, class Decode>
std::optional<T> load(const store::ReadTxn& tx, store::Table t, const std::string& key, Decode decode) {
  auto raw = tx.get(t, key);
  if (!raw) return std::nullopt;
  auto o = core::parse_json_object(*raw);
  if (!o) return std::nullopt;
  return decode(*o);
}

bool has(const std::vector<std::string>& v, std::string_view s);

}  // namespace edge::oauth::records
