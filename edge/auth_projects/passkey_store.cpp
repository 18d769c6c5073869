#include "edge/auth_projects/passkey_store.h"

#include <algorithm>

#include "core/crypto.h"
#include "core/date.h"
#include "core/id.h"
#include "edge/app.h"
#include "edge/auth_projects/end_users.h"
#include "edge/auth_projects/project_store.h"
#include "edge/platform/record_json.h"

namespace edge::auth_projects {
namespace {

inline constexpr std::size_t kUserHandleBytes = 64;

std::string passkey_prefix(std::string_view pid, std::string_view uid) {
  return user_owned_prefix(pid, uid) + "passkey/";
}
std::string passkey_key(std::string_view pid, std::string_view uid, std::string_view passkey_id) {
  return passkey_prefix(pid, uid) + std::string(passkey_id);
}
std::string handle_key(std::string_view pid, std::string_view uid) {
  return user_owned_prefix(pid, uid) + "passkey-handle";
}
std::string credential_index_key(std::string_view pid, std::span<const std::uint8_t> credential_id) {
  return project_record_key(pid, "pkid", core::hex_encode(core::sha256(credential_id)));
}

core::Bytes bytes_of(const json::object& rec, std::string_view key) {
  auto decoded = core::base64url_decode(record::str(rec, key));
  return decoded ? std::move(*decoded) : core::Bytes{};
}

json::object to_record(const Passkey& p, std::string_view pid) {
  json::object o{{"id", p.id},
                 {"userId", p.user_id},
                 {"name", p.name},
                 {"credentialId", core::base64url_encode(p.credential_id)},
                 {"publicKey", core::base64url_encode(p.public_key_cose)},
                 {"alg", p.alg},
                 {"signCount", static_cast<std::int64_t>(p.sign_count)},
                 {"aaguid", p.aaguid},
                 {"transports", record::array_of(p.transports)},
                 {"userHandle", core::base64url_encode(p.user_handle)},
                 {"backupEligible", p.backup_eligible},
                 {"backedUp", p.backed_up},
                 {"createdAt", p.created_at},
                 {"indexKey", credential_index_key(pid, p.credential_id)}};
  if (p.last_used_at) o["lastUsedAt"] = *p.last_used_at;
  return o;
}

Passkey passkey_from_record(const json::object& rec) {
  Passkey p;
  p.id = record::str(rec, "id");
  p.user_id = record::str(rec, "userId");
  p.name = record::str(rec, "name");
  p.credential_id = bytes_of(rec, "credentialId");
  p.public_key_cose = bytes_of(rec, "publicKey");
  p.alg = record::num(rec, "alg");
  p.sign_count = static_cast<std::uint32_t>(record::num(rec, "signCount"));
  p.aaguid = record::str(rec, "aaguid");
  p.transports = record::strs(rec, "transports");
  p.user_handle = bytes_of(rec, "userHandle");
  p.backup_eligible = record::boolean(rec, "backupEligible");
  p.backed_up = record::boolean(rec, "backedUp");
  p.created_at = record::num(rec, "createdAt");
  p.last_used_at = record::opt_num(rec, "lastUsedAt");
  return p;
}

std::optional<Passkey> get_passkey(const store::ReadTxn& txn, store::Table t, std::string_view pid,
                                   std::string_view uid, std::string_view passkey_id) {
  auto rec = record::get_object(txn, t, passkey_key(pid, uid, passkey_id));
  if (!rec) return std::nullopt;
  return passkey_from_record(*rec);
}

std::vector<Passkey> passkeys_in(const store::ReadTxn& txn, store::Table t, std::string_view pid,
                                 std::string_view uid) {
  std::vector<Passkey> out;
  txn.scan(t, passkey_prefix(pid, uid), [&](std::string_view, std::string_view value) {
    if (auto rec = core::parse_json_object(value)) out.push_back(passkey_from_record(*rec));
    return true;
  });
  return out;
}

}  // namespace

json::object to_api(const Passkey& p) {
  return json::object{{"id", p.id},
                      {"name", p.name},
                      {"credentialId", core::base64url_encode(p.credential_id)},
                      {"aaguid", p.aaguid},
                      {"alg", p.alg},
                      {"signCount", static_cast<std::int64_t>(p.sign_count)},
                      {"transports", record::array_of(p.transports)},
                      {"backupEligible", p.backup_eligible},
                      {"backedUp", p.backed_up},
                      {"createdAt", core::format_timestamp(p.created_at)},
                      {"lastUsedAt", record::time_or_null(p.last_used_at)}};
}

core::Result<core::Bytes> passkey_user_handle(App& app, std::string_view pid, std::string_view uid) {
  const store::Table t = app.auth_table;
  std::optional<core::Bytes> found;
  CORE_TRY(app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    if (auto rec = record::get_object(txn, t, handle_key(pid, uid))) found = bytes_of(*rec, "handle");
    return {};
  }));
  if (found && found->size() == kUserHandleBytes) return std::move(*found);

  core::Bytes fresh(kUserHandleBytes);
  app.random.fill(fresh);
  core::Bytes out;
  CORE_TRY(app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    if (!get_user(txn, t, pid, uid)) return core::make_error("not_found", "user not found");
    // A concurrent first registration may have made one meanwhile: the first handle stays.
    if (auto rec = record::get_object(txn, t, handle_key(pid, uid))) {
      out = bytes_of(*rec, "handle");
      if (out.size() == kUserHandleBytes) return {};
    }
    out = fresh;
    record::put_object(txn, t, handle_key(pid, uid), json::object{{"handle", core::base64url_encode(fresh)}});
    return {};
  }));
  return out;
}

core::Result<std::vector<Passkey>> list_passkeys(App& app, std::string_view pid, std::string_view uid) {
  std::vector<Passkey> out;
  CORE_TRY(app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    out = passkeys_in(txn, app.auth_table, pid, uid);
    return {};
  }));
  std::sort(out.begin(), out.end(), [](const Passkey& a, const Passkey& b) {
    return a.created_at != b.created_at ? a.created_at < b.created_at : a.id < b.id;
  });
  return out;
}

core::Result<Passkey> add_passkey(App& app, std::string_view pid, Passkey passkey) {
  passkey.id = core::make_id("pk_", app.random);
  passkey.created_at = app.clock.now_ms();
  const store::Table t = app.auth_table;
  CORE_TRY(app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    if (!get_user(txn, t, pid, passkey.user_id)) return core::make_error("not_found", "user not found");
    const std::string index = credential_index_key(pid, passkey.credential_id);
    if (txn.get(t, index)) return core::make_error("conflict", "this passkey is already registered");
    if (passkeys_in(txn, t, pid, passkey.user_id).size() >= kMaxPasskeysPerUser)
      return core::make_error(
          "unprocessable",
          "a user may hold at most " + std::to_string(kMaxPasskeysPerUser) + " passkeys; delete one first");
    record::put_object(txn, t, passkey_key(pid, passkey.user_id, passkey.id), to_record(passkey, pid));
    txn.put(t, index, core::to_json(json::object{{"userId", passkey.user_id}, {"passkeyId", passkey.id}}));
    return {};
  }));
  return passkey;
}

core::Result<std::optional<Passkey>> find_passkey_by_credential(App& app, std::string_view pid,
                                                                std::span<const std::uint8_t> credential_id) {
  std::optional<Passkey> out;
  CORE_TRY(app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    auto index = record::get_object(txn, app.auth_table, credential_index_key(pid, credential_id));
    if (!index) return {};
    out = get_passkey(txn, app.auth_table, pid, record::str(*index, "userId"),
                      record::str(*index, "passkeyId"));
    // The index names the hash only: the stored ID must be the one asked for.
    if (out && !std::equal(out->credential_id.begin(), out->credential_id.end(), credential_id.begin(),
                           credential_id.end()))
      out.reset();
    return {};
  }));
  return out;
}

core::Result<std::optional<Passkey>> record_passkey_use(App& app, std::string_view pid, const Passkey& seen,
                                                        const core::webauthn::VerifiedAssertion& assertion) {
  std::optional<Passkey> out;
  const std::int64_t now = app.clock.now_ms();
  const store::Table t = app.auth_table;
  CORE_TRY(app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    out.reset();
    auto current = get_passkey(txn, t, pid, seen.user_id, seen.id);
    if (!current) return {};
    // §7.2 step 21 against the stored counter as it is now (another sign-in may have moved it).
    if ((current->sign_count != 0 || assertion.sign_count != 0) &&
        assertion.sign_count <= current->sign_count)
      return {};
    current->sign_count = assertion.sign_count;
    current->backed_up = assertion.backed_up();
    current->last_used_at = now;
    record::put_object(txn, t, passkey_key(pid, seen.user_id, seen.id), to_record(*current, pid));
    out = std::move(*current);
    return {};
  }));
  return out;
}

core::Status delete_passkey(App& app, std::string_view pid, std::string_view uid,
                            std::string_view passkey_id) {
  const store::Table t = app.auth_table;
  if (!core::has_id_shape("pk_", passkey_id)) return core::make_error("not_found", "passkey not found");
  return app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    auto p = get_passkey(txn, t, pid, uid, passkey_id);
    if (!p) return core::make_error("not_found", "passkey not found");
    txn.erase(t, passkey_key(pid, uid, passkey_id));
    txn.erase(t, credential_index_key(pid, p->credential_id));
    return {};
  });
}

}  // namespace edge::auth_projects
