#include "edge/oauth/grant_store.h"

#include <charconv>

#include "core/crypto.h"
#include "core/id.h"
#include "core/oauth/claims.h"
#include "core/token.h"
#include "edge/oauth/oauth_records.h"

namespace edge::oauth {
using core::make_error;
using namespace records;

namespace {

// Marks every token listed under `prefix` (grant/... or family/...) revoked. The token's hash is the last
// segment of each index key.
void revoke_all(store::WriteTxn& tx, store::Table t, const std::string& prefix) {
  std::vector<std::string> hashes;
  tx.scan(t, prefix, [&](std::string_view key, std::string_view) {
    hashes.emplace_back(key.substr(key.rfind('/') + 1));
    return true;
  });
  for (auto& h : hashes) {
    auto tok = load<StoredToken>(tx, t, token_key(h), decode_token);
    if (!tok || tok->revoked) continue;
    tok->revoked = true;
    tx.put(t, token_key(h), encode(*tok));
  }
}

// Stores one token with its pair, family and expiry index entries.
void put_token(store::WriteTxn& tx, store::Table t, const std::string& hash, const StoredToken& tok) {
  tx.put(t, token_key(hash), encode(tok));
  tx.put(t, expiry_key(tok.expires_at_ms, "token", hash), "");
  tx.put(t, grant_entry_key(tok.user_id, tok.client_id, tok.issued_at_ms, hash), "");
  tx.put(t, family_prefix(tok.family_id) + hash, "");
}

// The revocation epoch of a pair (0 when never bumped).
std::int64_t epoch_of(const store::ReadTxn& tx, store::Table t, std::string_view user,
                      std::string_view client) {
  std::int64_t epoch = 0;
  if (auto raw = tx.get(t, epoch_key(user, client)))
    std::from_chars(raw->data(), raw->data() + raw->size(), epoch);
  return epoch;
}

void bump_epoch(store::WriteTxn& tx, store::Table t, std::string_view user, std::string_view client) {
  tx.put(t, epoch_key(user, client), std::to_string(epoch_of(tx, t, user, client) + 1));
}

}  // namespace

GrantStore::GrantStore(store::KvStore& kv, store::Table table, core::Clock& clock, core::RandomSource& random)
    : kv_(kv), table_(table), clock_(clock), random_(random) {}

core::Result<std::optional<Consent>> GrantStore::consent(std::string_view user_id,
                                                         std::string_view client_id) {
  std::optional<Consent> out;
  CORE_TRY(kv_.read([&](const store::ReadTxn& tx) -> core::Status {
    out = load<Consent>(tx, table_, consent_key(user_id, client_id), decode_consent);
    return {};
  }));
  return out;
}

core::Status GrantStore::grant_consent(const Consent& consent) {
  return kv_.write([&](store::WriteTxn& tx) -> core::Status {
    tx.put(table_, consent_key(consent.user_id, consent.client_id), encode(consent));
    return {};
  });
}

core::Result<std::vector<Consent>> GrantStore::consents_of(std::string_view user_id) {
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

core::Status GrantStore::revoke_consent(std::string_view user_id, std::string_view client_id) {
  return kv_.write([&](store::WriteTxn& tx) -> core::Status {
    if (!tx.erase(table_, consent_key(user_id, client_id)))
      return make_error("not_found", "no such connected app");
    revoke_all(tx, table_, grant_prefix(user_id, client_id));
    bump_epoch(tx, table_, user_id, client_id);
    return {};
  });
}

core::Result<std::string> GrantStore::issue_code(StoredCode code) {
  std::string plaintext = core::make_token(core::TokenKind::oauth_code, random_);
  code.issued_at_ms = clock_.now_ms();
  code.expires_at_ms = code.issued_at_ms + core::oauth::kCodeLifetimeS * 1000;
  std::string hash = core::sha256_hex(plaintext);
  CORE_TRY(kv_.write([&](store::WriteTxn& tx) -> core::Status {
    // Read in the same transaction: a revocation either precedes the code (and the code carries the new
    // epoch) or follows it (and bumps past it).
    code.epoch = epoch_of(tx, table_, code.user_id, code.client_id);
    tx.put(table_, code_key(hash), encode(code));
    tx.put(table_, expiry_key(code.expires_at_ms, "code", hash), "");
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

core::Result<std::variant<IssuedTokens, GrantRefusal>> GrantStore::exchange_code(
    std::string_view code, const core::oauth::CodeExchange& request) {
  std::string hash = core::sha256_hex(code);
  // Time-ordered: the family/ index entries of a batch of exchanges land together (docs/oauth.md).
  std::string family = core::make_time_ordered_id("fam_", clock_.now_ms(), random_);
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
    if (stored->epoch != epoch_of(tx, table_, stored->user_id, stored->client_id)) {
      // Access was taken back (consent revoked, end-session) after the code was issued. The code stays
      // unused: it can never pass this check again.
      out = GrantRefusal{"invalid_grant", "the authorization was revoked after this code was issued"};
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

core::Result<std::variant<IssuedTokens, GrantRefusal>> GrantStore::refresh(
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

core::Result<std::optional<StoredToken>> GrantStore::token(std::string_view plaintext) {
  std::optional<StoredToken> out;
  std::string hash = core::sha256_hex(plaintext);
  CORE_TRY(kv_.read([&](const store::ReadTxn& tx) -> core::Status {
    out = load<StoredToken>(tx, table_, token_key(hash), decode_token);
    return {};
  }));
  return out;
}

core::Status GrantStore::revoke(std::string_view plaintext, std::string_view client_id) {
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

core::Status GrantStore::revoke_pair(std::string_view user_id, std::string_view client_id) {
  return kv_.write([&](store::WriteTxn& tx) -> core::Status {
    revoke_all(tx, table_, grant_prefix(user_id, client_id));
    bump_epoch(tx, table_, user_id, client_id);
    return {};
  });
}

void GrantStore::forget_client_in(store::WriteTxn& tx, std::string_view client_id) {
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
    tx.erase(table_, epoch_key(u, client_id));
  }
}

void GrantStore::erase_expired_in(store::WriteTxn& tx, std::string_view kind, std::string_view hash) {
  if (kind == "code") {
    tx.erase(table_, code_key(hash));
  } else if (kind == "token") {
    if (auto t = load<StoredToken>(tx, table_, token_key(hash), decode_token)) {
      tx.erase(table_, grant_entry_key(t->user_id, t->client_id, t->issued_at_ms, hash));
      tx.erase(table_, family_prefix(t->family_id) + std::string(hash));
    }
    tx.erase(table_, token_key(hash));
  }
}

}  // namespace edge::oauth
