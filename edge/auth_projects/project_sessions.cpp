#include "edge/auth_projects/project_sessions.h"

#include <algorithm>

#include "core/auth/access_token.h"
#include "core/auth/refresh_rotation.h"
#include "core/crypto.h"
#include "core/date.h"
#include "core/id.h"
#include "core/sealed.h"
#include "core/token.h"
#include "edge/app.h"
#include "edge/auth_projects/auth_sweep.h"
#include "edge/auth_projects/end_users.h"
#include "edge/auth_projects/project_store.h"
#include "edge/auth_projects/signing_keys.h"
#include "edge/platform/record_json.h"

namespace edge::auth_projects {
namespace {

std::string session_key(std::string_view pid, std::string_view sid) {
  return project_record_key(pid, "s", sid);
}
std::string user_session_key(std::string_view pid, std::string_view uid, std::string_view sid) {
  return project_record_key(pid, "us", std::string(uid) + "/" + std::string(sid));
}
std::string refresh_key(std::string_view pid, std::string_view hash) {
  return project_record_key(pid, "rt", hash);
}
// Each refresh token of a session, so ending or erasing a session reaches them.
std::string session_token_key(std::string_view pid, std::string_view sid, std::string_view hash) {
  return project_record_key(pid, "srt", std::string(sid) + "/" + std::string(hash));
}

bool live(const store::ReadTxn& txn, store::Table t, std::string_view pid, const json::object& session) {
  if (session.contains("revokedAt")) return false;
  auto user = get_user(txn, t, pid, record::str(session, "userId"));
  return user && !user->disabled;
}

// A fresh pair for a session, signed before any transaction.
struct FreshPair {
  TokenPair pair;
  std::string refresh_hash;
};

core::Result<FreshPair> make_pair(App& app, const Project& project, const EndUser& user,
                                  const std::string& session_id, const std::string& amr) {
  auto key = app.auth_signing_keys->current(project);
  if (!key) return key.error();
  core::auth::AccessTokenFacts facts;
  facts.issuer = core::auth::project_issuer(app.config.auth_url, project.slug());
  facts.project_id = project.id;
  facts.user_id = user.id;
  facts.session_id = session_id;
  facts.email = user.email;
  facts.email_verified = user.email_verified;
  facts.amr = amr;
  facts.now_s = app.clock.now_ms() / 1000;
  facts.ttl_s = project.settings.access_token_ttl_s;
  FreshPair out;
  out.pair.access_token = (*key)->sign_jwt(core::auth::access_token_claims(facts));
  if (out.pair.access_token.empty()) return core::make_error("key_error", "could not sign the access token");
  out.pair.refresh_token = core::make_token(core::TokenKind::auth_refresh, app.random);
  out.refresh_hash = core::sha256_hex(out.pair.refresh_token);
  out.pair.session_id = session_id;
  out.pair.expires_in = project.settings.access_token_ttl_s;
  return out;
}

void put_refresh(store::WriteTxn& txn, store::Table t, const Project& project, const FreshPair& fresh,
                 const std::string& uid, std::int64_t now, const std::string& predecessor) {
  const std::int64_t expires_at = now + project.settings.refresh_token_ttl_s * 1000;
  json::object rec{
      {"sessionId", fresh.pair.session_id}, {"userId", uid}, {"issuedAt", now}, {"expiresAt", expires_at}};
  if (!predecessor.empty()) rec["predecessor"] = predecessor;
  const std::string key = refresh_key(project.id, fresh.refresh_hash);
  record::put_object(txn, t, key, rec);
  txn.put(t, session_token_key(project.id, fresh.pair.session_id, fresh.refresh_hash), "");
  txn.put(t, auth_expiry_key(expires_at, key), "");
}

std::string pair_text(const TokenPair& p) {
  return core::to_json(json::object{{"accessToken", p.access_token},
                                    {"refreshToken", p.refresh_token},
                                    {"sessionId", p.session_id},
                                    {"expiresIn", p.expires_in}});
}

std::optional<TokenPair> pair_from_text(std::string_view text) {
  auto o = core::parse_json_object(text);
  if (!o) return std::nullopt;
  return TokenPair{record::str(*o, "accessToken"), record::str(*o, "refreshToken"),
                   record::str(*o, "sessionId"), record::num(*o, "expiresIn")};
}

void revoke_session_in(store::WriteTxn& txn, store::Table t, std::string_view pid, std::string_view sid,
                       std::int64_t now) {
  auto s = record::get_object(txn, t, session_key(pid, sid));
  if (!s || s->contains("revokedAt")) return;
  (*s)["revokedAt"] = now;
  record::put_object(txn, t, session_key(pid, sid), *s);
  txn.put(t, auth_expiry_key(now, session_key(pid, sid)), "");
}

void erase_session_in(store::WriteTxn& txn, store::Table t, std::string_view pid, std::string_view uid,
                      std::string_view sid) {
  std::vector<std::string> doomed;
  const std::string prefix = project_record_key(pid, "srt", std::string(sid) + "/");
  txn.scan(t, prefix, [&](std::string_view key, std::string_view) {
    doomed.emplace_back(key);
    doomed.push_back(refresh_key(pid, key.substr(prefix.size())));
    return true;
  });
  for (const auto& k : doomed) txn.erase(t, k);
  txn.erase(t, session_key(pid, sid));
  txn.erase(t, user_session_key(pid, uid, sid));
}

std::vector<std::string> session_ids_of(const store::ReadTxn& txn, store::Table t, std::string_view pid,
                                        std::string_view uid) {
  std::vector<std::string> ids;
  const std::string prefix = project_record_key(pid, "us", std::string(uid) + "/");
  txn.scan(t, prefix, [&](std::string_view key, std::string_view) {
    ids.emplace_back(key.substr(prefix.size()));
    return true;
  });
  return ids;
}

}  // namespace

core::Result<TokenPair> start_session(App& app, const Project& project, const EndUser& user,
                                      const SessionFacts& facts) {
  const std::int64_t now = app.clock.now_ms();
  const std::string sid = core::make_time_ordered_id("eus_", now, app.random);
  auto fresh = make_pair(app, project, user, sid, facts.amr);
  if (!fresh) return fresh.error();
  const store::Table t = app.auth_table;
  CORE_TRY(app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    auto current = get_user(txn, t, project.id, user.id);
    if (!current) return core::make_error("not_found", "user not found");
    if (current->disabled) return core::make_error("forbidden", "this account is disabled");
    record::put_object(txn, t, session_key(project.id, sid),
                       json::object{{"id", sid},
                                    {"userId", user.id},
                                    {"createdAt", now},
                                    {"lastRefreshedAt", now},
                                    {"amr", facts.amr},
                                    {"userAgent", facts.user_agent.substr(0, 300)},
                                    {"ip", facts.ip}});
    txn.put(t, user_session_key(project.id, user.id, sid), "");
    put_refresh(txn, t, project, *fresh, user.id, now, "");
    current->last_sign_in_at = now;
    put_user(txn, t, *current);
    return {};
  }));
  return std::move(fresh->pair);
}

json::object signed_in_json(const EndUser& user, const TokenPair& pair) {
  return json::object{{"user", to_api(user)},
                      {"accessToken", pair.access_token},
                      {"refreshToken", pair.refresh_token},
                      {"tokenType", "Bearer"},
                      {"expiresIn", pair.expires_in}};
}

core::Result<std::variant<TokenPair, RefreshRefusal>> refresh_session(App& app, const Project& project,
                                                                      std::string_view refresh_token) {
  using Outcome = core::auth::RefreshOutcome;
  if (!core::has_token_shape(core::TokenKind::auth_refresh, refresh_token))
    return std::variant<TokenPair, RefreshRefusal>(RefreshRefusal{});
  const std::string hash = core::sha256_hex(refresh_token);
  const std::string key = refresh_key(project.id, hash);
  const store::Table t = app.auth_table;
  const std::int64_t reuse_ms = project.settings.refresh_reuse_interval_s * 1000;

  // What the store holds now, as core's decision reads it.
  struct Seen {
    std::optional<json::object> token, session;
    std::optional<EndUser> user;
    core::auth::RefreshTokenState state;
  };
  auto look = [&](const store::ReadTxn& txn) {
    Seen s;
    s.token = record::get_object(txn, t, key);
    if (!s.token) return s;
    const std::string sid = record::str(*s.token, "sessionId");
    s.session = record::get_object(txn, t, session_key(project.id, sid));
    s.user = get_user(txn, t, project.id, record::str(*s.token, "userId"));
    s.state.expires_at_ms = record::num(*s.token, "expiresAt");
    s.state.session_live = s.session && !s.session->contains("revokedAt") && s.user && !s.user->disabled;
    s.state.rotated = s.token->contains("rotatedAt");
    s.state.rotated_at_ms = record::num(*s.token, "rotatedAt");
    if (s.state.rotated) {
      auto successor =
          record::get_object(txn, t, refresh_key(project.id, record::str(*s.token, "successor")));
      s.state.successor_used = !successor || successor->contains("rotatedAt");
    }
    return s;
  };

  Seen before;
  CORE_TRY(app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    before = look(txn);
    return {};
  }));
  const std::int64_t now = app.clock.now_ms();
  Outcome first = core::auth::decide_refresh(before.token ? &before.state : nullptr, now, reuse_ms);
  std::optional<FreshPair> fresh;
  if (first == Outcome::rotate) {
    auto made = make_pair(app, project, *before.user, record::str(*before.token, "sessionId"),
                          record::str(*before.session, "amr"));
    if (!made) return made.error();
    fresh = std::move(*made);
  }

  std::variant<TokenPair, RefreshRefusal> out = RefreshRefusal{};
  CORE_TRY(app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    Seen seen = look(txn);
    Outcome outcome = core::auth::decide_refresh(seen.token ? &seen.state : nullptr, now, reuse_ms);
    if (outcome == Outcome::rotate && !fresh) outcome = Outcome::refused;  // cannot happen: tokens only age
    switch (outcome) {
      case Outcome::refused:
        out = RefreshRefusal{};
        return {};
      case Outcome::replay:
        revoke_session_in(txn, t, project.id, record::str(*seen.token, "sessionId"), now);
        out = RefreshRefusal{true};
        return {};
      case Outcome::reuse_successor: {
        auto opened = core::unseal(app.secret_key, record::str(*seen.token, "successorPair"), key);
        std::optional<TokenPair> pair = opened ? pair_from_text(*opened) : std::nullopt;
        if (!pair) {  // no pair kept (interval was 0 at the rotation): a replay after all
          revoke_session_in(txn, t, project.id, record::str(*seen.token, "sessionId"), now);
          out = RefreshRefusal{true};
          return {};
        }
        out = std::move(*pair);
        return {};
      }
      case Outcome::rotate: {
        json::object old = *seen.token;
        old["rotatedAt"] = now;
        old["successor"] = fresh->refresh_hash;
        if (reuse_ms > 0)
          old["successorPair"] = core::seal(app.secret_key, pair_text(fresh->pair), key, app.random);
        // The predecessor's kept pair is this token's; it may not be answered again once this one is used.
        if (auto pred = record::str(old, "predecessor"); !pred.empty()) {
          if (auto p = record::get_object(txn, t, refresh_key(project.id, pred));
              p && p->erase("successorPair"))
            record::put_object(txn, t, refresh_key(project.id, pred), *p);
        }
        record::put_object(txn, t, key, old);
        put_refresh(txn, t, project, *fresh, seen.user->id, now, hash);
        json::object session = *seen.session;
        session["lastRefreshedAt"] = now;
        record::put_object(txn, t, session_key(project.id, fresh->pair.session_id), session);
        out = fresh->pair;
        return {};
      }
    }
    return {};
  }));
  return out;
}

core::Result<bool> logout(App& app, const Project& project, std::string_view refresh_token) {
  if (!core::has_token_shape(core::TokenKind::auth_refresh, refresh_token)) return false;
  const std::string key = refresh_key(project.id, core::sha256_hex(refresh_token));
  bool ended = false;
  const std::int64_t now = app.clock.now_ms();
  CORE_TRY(app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    ended = false;
    auto tok = record::get_object(txn, app.auth_table, key);
    if (!tok) return {};
    const std::string sid = record::str(*tok, "sessionId");
    auto s = record::get_object(txn, app.auth_table, session_key(project.id, sid));
    if (!s || s->contains("revokedAt")) return {};
    revoke_session_in(txn, app.auth_table, project.id, sid, now);
    ended = true;
    return {};
  }));
  return ended;
}

json::object to_api(const SessionView& s) {
  return json::object{{"id", s.id},
                      {"userId", s.user_id},
                      {"amr", s.amr},
                      {"userAgent", s.user_agent},
                      {"ip", s.ip},
                      {"createdAt", core::format_timestamp(s.created_at)},
                      {"lastRefreshedAt", core::format_timestamp(s.last_refreshed_at)}};
}

core::Result<std::vector<SessionView>> list_sessions(App& app, std::string_view pid, std::string_view uid) {
  std::vector<SessionView> out;
  CORE_TRY(app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    for (const auto& sid : session_ids_of(txn, app.auth_table, pid, uid)) {
      auto s = record::get_object(txn, app.auth_table, session_key(pid, sid));
      if (!s || s->contains("revokedAt")) continue;
      out.push_back(SessionView{sid, std::string(uid), record::str(*s, "amr"), record::str(*s, "userAgent"),
                                record::str(*s, "ip"), record::num(*s, "createdAt"),
                                record::num(*s, "lastRefreshedAt")});
    }
    return {};
  }));
  std::sort(out.begin(), out.end(), [](const SessionView& a, const SessionView& b) { return a.id > b.id; });
  return out;
}

core::Status revoke_session(App& app, std::string_view pid, std::string_view uid, std::string_view sid) {
  const std::int64_t now = app.clock.now_ms();
  return app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    auto s = record::get_object(txn, app.auth_table, session_key(pid, sid));
    if (!s || record::str(*s, "userId") != uid || s->contains("revokedAt"))
      return core::make_error("not_found", "session not found");
    revoke_session_in(txn, app.auth_table, pid, sid, now);
    return {};
  });
}

core::Result<std::size_t> revoke_all_sessions(App& app, std::string_view pid, std::string_view uid) {
  std::size_t n = 0;
  const std::int64_t now = app.clock.now_ms();
  CORE_TRY(app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    if (!get_user(txn, app.auth_table, pid, uid)) return core::make_error("not_found", "user not found");
    n = revoke_sessions_of_user_in(txn, app.auth_table, pid, uid, now);
    return {};
  }));
  return n;
}

std::size_t revoke_sessions_of_user_in(store::WriteTxn& txn, store::Table t, std::string_view pid,
                                       std::string_view uid, std::int64_t now_ms) {
  std::size_t n = 0;
  for (const auto& sid : session_ids_of(txn, t, pid, uid)) {
    auto s = record::get_object(txn, t, session_key(pid, sid));
    if (!s || s->contains("revokedAt")) continue;
    revoke_session_in(txn, t, pid, sid, now_ms);
    ++n;
  }
  return n;
}

void erase_sessions_of_user_in(store::WriteTxn& txn, store::Table t, std::string_view pid,
                               std::string_view uid) {
  for (const auto& sid : session_ids_of(txn, t, pid, uid)) erase_session_in(txn, t, pid, uid, sid);
}

core::Result<std::optional<EndUser>> live_session_user(App& app, std::string_view pid, std::string_view sid,
                                                       std::string_view uid) {
  std::optional<EndUser> out;
  CORE_TRY(app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    auto s = record::get_object(txn, app.auth_table, session_key(pid, sid));
    if (!s || s->contains("revokedAt") || record::str(*s, "userId") != uid) return {};
    out = get_user(txn, app.auth_table, pid, uid);
    if (out && out->disabled) out.reset();
    return {};
  }));
  return out;
}

void sweep_refresh_token_in(store::WriteTxn& txn, store::Table t, std::string_view pid, std::string_view hash,
                            std::int64_t cutoff_ms) {
  const std::string key = refresh_key(pid, hash);
  auto tok = record::get_object(txn, t, key);
  if (!tok || record::num(*tok, "expiresAt") >= cutoff_ms) return;
  const std::string sid = record::str(*tok, "sessionId");
  txn.erase(t, key);
  txn.erase(t, session_token_key(pid, sid, hash));
  bool others = false;
  txn.scan(t, project_record_key(pid, "srt", sid + "/"), [&](std::string_view, std::string_view) {
    others = true;
    return false;
  });
  if (others) return;
  if (auto s = record::get_object(txn, t, session_key(pid, sid)))
    erase_session_in(txn, t, pid, record::str(*s, "userId"), sid);
}

void sweep_session_in(store::WriteTxn& txn, store::Table t, std::string_view pid, std::string_view sid,
                      std::int64_t cutoff_ms) {
  auto s = record::get_object(txn, t, session_key(pid, sid));
  if (!s || !s->contains("revokedAt") || record::num(*s, "revokedAt") >= cutoff_ms) return;
  erase_session_in(txn, t, pid, record::str(*s, "userId"), sid);
}

core::Result<bool> session_live(App& app, std::string_view pid, std::string_view sid) {
  bool ok = false;
  CORE_TRY(app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    auto s = record::get_object(txn, app.auth_table, session_key(pid, sid));
    ok = s && live(txn, app.auth_table, pid, *s);
    return {};
  }));
  return ok;
}

}  // namespace edge::auth_projects
