#include "edge/auth_projects/signing_keys.h"

#include <algorithm>

#include "core/sealed.h"
#include "edge/app.h"
#include "edge/auth_projects/project_store.h"
#include "edge/platform/record_json.h"

namespace edge::auth_projects {
namespace {

std::string key_prefix(const std::string& project_id) {
  return project_record_key(project_id, "sk");
}

}  // namespace

core::Result<std::pair<std::string, std::string>> SigningKeys::new_key_pem() {
  std::string pem = native::generate_rsa_pem(2048);
  if (pem.empty()) return core::make_error("key_error", "could not generate a signing key");
  auto key = native::RsaSigningKey::from_pem(pem);
  if (!key) return core::make_error("key_error", "the generated signing key failed its self-test");
  return std::make_pair(std::move(pem), key->public_key().kid);
}

void SigningKeys::put_new_key(store::WriteTxn& txn, const std::string& project_id, const std::string& pem,
                              const std::string& kid, std::int64_t now_ms, std::int64_t access_ttl_s) {
  const store::Table t = app_.auth_table;
  std::vector<std::pair<std::string, json::object>> live;
  txn.scan(t, key_prefix(project_id), [&](std::string_view key, std::string_view value) {
    if (auto o = core::parse_json_object(value); o && !o->contains("retiredAt"))
      live.emplace_back(std::string(key), std::move(*o));
    return true;
  });
  for (auto& [key, rec] : live) {
    rec["retiredAt"] = now_ms;
    rec["publishedUntil"] = now_ms + access_ttl_s * 1000 + kRetiredKeyLeewayMs;
    record::put_object(txn, t, key, rec);
  }
  const std::string key = key_prefix(project_id) + kid;
  record::put_object(txn, t, key,
                     json::object{{"kid", kid},
                                  {"privateKey", core::seal(app_.secret_key, pem, key, app_.random)},
                                  {"createdAt", now_ms}});
}

core::Result<std::shared_ptr<const SigningKeys::Cached>> SigningKeys::load(const std::string& project_id) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = cache_.find(project_id); it != cache_.end()) return it->second;
  }
  std::vector<std::pair<std::string, json::object>> records;
  CORE_TRY(app_.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    txn.scan(app_.auth_table, key_prefix(project_id), [&](std::string_view key, std::string_view value) {
      if (auto o = core::parse_json_object(value)) records.emplace_back(std::string(key), std::move(*o));
      return true;
    });
    return {};
  }));
  auto cached = std::make_shared<Cached>();
  for (const auto& [key, rec] : records) {
    auto pem = core::unseal(app_.secret_key, record::str(rec, "privateKey"), key);
    if (!pem) return core::make_error("key_error", "a signing key of this project does not open");
    auto signing = native::RsaSigningKey::from_pem(*pem);
    if (!signing) return core::make_error("key_error", "a signing key of this project is not usable");
    Entry e{signing->public_key().kid, signing->public_key(), record::num(rec, "createdAt"),
            record::opt_num(rec, "retiredAt"), record::num(rec, "publishedUntil")};
    if (!e.retired_at) cached->current = std::make_shared<const native::RsaSigningKey>(std::move(*signing));
    cached->keys.push_back(std::move(e));
  }
  std::sort(cached->keys.begin(), cached->keys.end(), [](const Entry& a, const Entry& b) {
    // The current key first, then by age: keys made in the same millisecond still sort right.
    if (a.retired_at.has_value() != b.retired_at.has_value()) return !a.retired_at.has_value();
    return a.created_at > b.created_at;
  });
  std::lock_guard lock(mutex_);
  cache_[project_id] = cached;
  return std::shared_ptr<const Cached>(cached);
}

core::Result<std::shared_ptr<const native::RsaSigningKey>> SigningKeys::current(const Project& project) {
  auto cached = load(project.id);
  if (!cached) return cached.error();
  if (!(*cached)->current) return core::make_error("key_error", "the project has no signing key");
  return (*cached)->current;
}

core::Result<std::vector<core::RsaPublicKey>> SigningKeys::published(const Project& project) {
  auto cached = load(project.id);
  if (!cached) return cached.error();
  const std::int64_t now = app_.clock.now_ms();
  std::vector<core::RsaPublicKey> out;
  for (const auto& e : (*cached)->keys)
    if (!e.retired_at || now < e.published_until) out.push_back(e.public_key);
  return out;
}

core::Result<std::string> SigningKeys::rotate(const Project& project) {
  auto made = new_key_pem();
  if (!made) return made.error();
  const std::int64_t now = app_.clock.now_ms();
  CORE_TRY(app_.kv->write([&](store::WriteTxn& txn) -> core::Status {
    if (!txn.get(app_.auth_table, "p/" + project.id))
      return core::make_error("not_found", "auth project not found");
    put_new_key(txn, project.id, made->first, made->second, now, project.settings.access_token_ttl_s);
    return {};
  }));
  forget(project.id);
  return made->second;
}

void SigningKeys::forget(const std::string& project_id) {
  std::lock_guard lock(mutex_);
  cache_.erase(project_id);
}

}  // namespace edge::auth_projects
