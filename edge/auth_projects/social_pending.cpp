#include "edge/auth_projects/social_pending.h"

#include <cstdio>
#include <vector>

#include "core/crypto.h"
#include "core/sealed.h"
#include "edge/app.h"
#include "edge/auth_projects/project_store.h"
#include "edge/platform/record_json.h"

namespace edge::auth_projects {
namespace {

// Expired sign-ins removed by each start: more than one start leaves behind, so abandoned ones cannot pile
// up, and few enough to keep the write short.
constexpr int kPrunePerStart = 16;
// A state is 43 characters; anything much longer is not one, and is not worth hashing.
constexpr std::size_t kMaxStateBytes = 256;

std::string state_key(const Project& p, std::string_view state_hash) {
  return project_record_key(p.id, "sst", state_hash);
}

std::string expiry_prefix(const Project& p) {
  return project_record_key(p.id, "sst-exp");
}

// Zero-padded, so the index sorts by time.
std::string expiry_key(const Project& p, std::int64_t expires_at, std::string_view state_hash) {
  char when[16];
  std::snprintf(when, sizeof when, "%015lld", static_cast<long long>(expires_at));
  return expiry_prefix(p) + when + "/" + std::string(state_hash);
}

}  // namespace

core::Status save_pending_sign_in(App& app, const Project& project, std::string_view state,
                                  const PendingSignIn& pending) {
  const store::Table t = app.auth_table;
  const std::int64_t now = app.clock.now_ms();
  const std::int64_t expires_at = now + kSocialStateLifetimeS * 1000;
  const std::string hash = core::sha256_hex(state);
  const std::string key = state_key(project, hash);
  const json::object rec{{"providerId", pending.provider_id},
                         {"redirectUri", pending.redirect_uri},
                         {"nonce", core::seal(app.secret_key, pending.nonce, key, app.random)},
                         {"codeVerifier", core::seal(app.secret_key, pending.code_verifier, key, app.random)},
                         {"expiresAt", expires_at}};
  return app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    if (!txn.get(t, "p/" + project.id)) return core::make_error("not_found", "auth project not found");
    std::vector<std::string> expired;
    const std::string prefix = expiry_prefix(project);
    const std::string cutoff = expiry_key(project, now, "");
    txn.scan(t, prefix, [&](std::string_view k, std::string_view) {
      if (k >= cutoff || expired.size() >= kPrunePerStart) return false;
      expired.emplace_back(k);
      return true;
    });
    for (const auto& k : expired) {
      txn.erase(t, k);
      txn.erase(t, state_key(project, std::string_view(k).substr(k.rfind('/') + 1)));
    }
    record::put_object(txn, t, key, rec);
    txn.put(t, expiry_key(project, expires_at, hash), "");
    return {};
  });
}

core::Result<std::optional<PendingSignIn>> take_pending_sign_in(App& app, const Project& project,
                                                                std::string_view state) {
  std::optional<PendingSignIn> out;
  if (state.empty() || state.size() > kMaxStateBytes) return out;
  const store::Table t = app.auth_table;
  const std::int64_t now = app.clock.now_ms();
  const std::string hash = core::sha256_hex(state);
  const std::string key = state_key(project, hash);
  std::optional<json::object> taken;
  CORE_TRY(app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    taken.reset();
    auto rec = record::get_object(txn, t, key);
    if (!rec) return {};
    txn.erase(t, key);
    txn.erase(t, expiry_key(project, record::num(*rec, "expiresAt"), hash));
    if (now < record::num(*rec, "expiresAt")) taken = std::move(*rec);
    return {};
  }));
  if (!taken) return out;
  auto nonce = core::unseal(app.secret_key, record::str(*taken, "nonce"), key);
  if (!nonce) return nonce.error();
  auto verifier = core::unseal(app.secret_key, record::str(*taken, "codeVerifier"), key);
  if (!verifier) return verifier.error();
  out = PendingSignIn{record::str(*taken, "providerId"), record::str(*taken, "redirectUri"),
                      std::move(*nonce), std::move(*verifier)};
  return out;
}

}  // namespace edge::auth_projects
