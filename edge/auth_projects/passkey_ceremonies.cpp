#include "edge/auth_projects/passkey_ceremonies.h"

#include <charconv>
#include <cstdio>
#include <vector>

#include "core/crypto.h"
#include "edge/app.h"
#include "edge/auth_projects/project_store.h"
#include "edge/platform/record_json.h"

namespace edge::auth_projects {
namespace {

constexpr std::string_view kIdPrefix = "pkc_";
constexpr std::size_t kIdRandomBytes = 32;
// Expired ceremonies removed per issue: more than one, so the sweep outruns the issuing, yet bounded, so
// one call never does unbounded work.
constexpr int kSweepPerIssue = 8;

std::string ceremony_key(const Project& p, std::string_view hash) {
  return project_record_key(p.id, "pkc", hash);
}

std::string expiry_key(const Project& p, std::int64_t expires_at, std::string_view hash) {
  char when[24];
  std::snprintf(when, sizeof when, "%016lld", static_cast<long long>(expires_at));
  return project_record_key(p.id, "pkcx", std::string(when) + "/" + std::string(hash));
}

std::string_view kind_name(CeremonyKind kind) {
  return kind == CeremonyKind::registration ? "registration" : "authentication";
}

bool has_ceremony_shape(std::string_view id) {
  if (id.substr(0, kIdPrefix.size()) != kIdPrefix) return false;
  auto decoded = core::base64url_decode(id.substr(kIdPrefix.size()));
  return decoded && decoded->size() == kIdRandomBytes;
}

void sweep_expired(store::WriteTxn& txn, store::Table t, const Project& p, std::int64_t now) {
  const std::string prefix = project_record_key(p.id, "pkcx");
  std::vector<std::string> doomed;
  int n = 0;
  txn.scan(t, prefix, [&](std::string_view key, std::string_view) {
    std::string_view rest = key.substr(prefix.size());  // <16 digits>/<hash>
    long long expires_at = 0;
    if (rest.size() < 17) return false;
    auto [end, ec] = std::from_chars(rest.data(), rest.data() + 16, expires_at);
    if (ec != std::errc() || end != rest.data() + 16 || expires_at > now) return false;
    doomed.emplace_back(key);
    doomed.push_back(ceremony_key(p, rest.substr(17)));
    return ++n < kSweepPerIssue;
  });
  for (const auto& key : doomed) txn.erase(t, key);
}

}  // namespace

core::Result<IssuedCeremony> issue_ceremony(App& app, const Project& project, CeremonyKind kind,
                                            std::string user_id, std::string session_id) {
  core::Bytes secret(kIdRandomBytes);
  app.random.fill(secret);
  IssuedCeremony out;
  out.id = std::string(kIdPrefix) + core::base64url_encode(secret);
  out.ceremony.kind = kind;
  out.ceremony.challenge.resize(kChallengeBytes);
  app.random.fill(out.ceremony.challenge);
  out.ceremony.user_id = std::move(user_id);
  out.ceremony.session_id = std::move(session_id);
  const std::int64_t now = app.clock.now_ms();
  out.ceremony.expires_at = now + kCeremonyLifetimeMs;

  const std::string hash = core::sha256_hex(out.id);
  const Ceremony& c = out.ceremony;
  json::object rec{{"kind", kind_name(kind)},
                   {"challenge", core::base64url_encode(c.challenge)},
                   {"expiresAt", c.expires_at}};
  if (!c.user_id.empty()) rec["userId"] = c.user_id;
  if (!c.session_id.empty()) rec["sessionId"] = c.session_id;
  const store::Table t = app.auth_table;
  CORE_TRY(app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    sweep_expired(txn, t, project, now);
    record::put_object(txn, t, ceremony_key(project, hash), rec);
    txn.put(t, expiry_key(project, c.expires_at, hash), "");
    return {};
  }));
  return out;
}

core::Result<std::optional<Ceremony>> take_ceremony(App& app, const Project& project,
                                                    std::string_view ceremony_id, CeremonyKind kind) {
  std::optional<Ceremony> out;
  if (!has_ceremony_shape(ceremony_id)) return out;
  const std::string hash = core::sha256_hex(ceremony_id);
  const std::int64_t now = app.clock.now_ms();
  const store::Table t = app.auth_table;
  CORE_TRY(app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    out.reset();
    auto rec = record::get_object(txn, t, ceremony_key(project, hash));
    if (!rec) return {};
    const std::int64_t expires_at = record::num(*rec, "expiresAt");
    txn.erase(t, ceremony_key(project, hash));
    txn.erase(t, expiry_key(project, expires_at, hash));
    if (now >= expires_at || record::str(*rec, "kind") != kind_name(kind)) return {};
    auto challenge = core::base64url_decode(record::str(*rec, "challenge"));
    if (!challenge) return {};
    out = Ceremony{kind, std::move(*challenge), record::str(*rec, "userId"), record::str(*rec, "sessionId"),
                   expires_at};
    return {};
  }));
  return out;
}

}  // namespace edge::auth_projects
