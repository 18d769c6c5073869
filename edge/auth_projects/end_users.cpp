#include "edge/auth_projects/end_users.h"

#include <algorithm>

#include "core/ascii.h"
#include "core/date.h"
#include "core/id.h"
#include "core/validate.h"
#include "edge/app.h"
#include "edge/auth_projects/project_sessions.h"
#include "edge/auth_projects/project_store.h"
#include "edge/platform/record_json.h"
#include "native/crypto/password.h"

namespace edge::auth_projects {

bool EndUser::has_totp() const {
  auto* totp = mfa.if_contains("totp");
  return totp && totp->is_object() && record::boolean(totp->get_object(), "enabled");
}

std::string user_key(std::string_view pid, std::string_view uid) {
  return project_record_key(pid, "u", uid);
}

std::string user_owned_prefix(std::string_view pid, std::string_view uid) {
  return project_record_key(pid, "ux", std::string(uid) + "/");
}

json::object to_record(const EndUser& u) {
  json::object o{{"id", u.id},
                 {"projectId", u.project_id},
                 {"email", u.email},
                 {"name", u.name},
                 {"passwordHash", u.password_hash},
                 {"emailVerified", u.email_verified},
                 {"disabled", u.disabled},
                 {"createdAt", u.created_at}};
  if (u.last_sign_in_at) o["lastSignInAt"] = *u.last_sign_in_at;
  if (!u.mfa.empty()) o["mfa"] = u.mfa;
  return o;
}

EndUser user_from_record(const json::object& rec) {
  EndUser u;
  u.id = record::str(rec, "id");
  u.project_id = record::str(rec, "projectId");
  u.email = record::str(rec, "email");
  u.name = record::str(rec, "name");
  u.password_hash = record::str(rec, "passwordHash");
  u.email_verified = record::boolean(rec, "emailVerified");
  u.disabled = record::boolean(rec, "disabled");
  u.created_at = record::num(rec, "createdAt");
  u.last_sign_in_at = record::opt_num(rec, "lastSignInAt");
  if (auto* m = rec.if_contains("mfa"); m && m->is_object()) u.mfa = m->get_object();
  return u;
}

json::object to_api(const EndUser& u) {
  return json::object{{"id", u.id},
                      {"email", u.email},
                      {"name", u.name},
                      {"emailVerified", u.email_verified},
                      {"disabled", u.disabled},
                      {"hasPassword", !u.password_hash.empty()},
                      {"mfa", json::object{{"totp", u.has_totp()}}},
                      {"createdAt", core::format_timestamp(u.created_at)},
                      {"lastSignInAt", record::time_or_null(u.last_sign_in_at)}};
}

std::optional<EndUser> get_user(const store::ReadTxn& txn, store::Table t, std::string_view pid,
                                std::string_view uid) {
  auto rec = record::get_object(txn, t, user_key(pid, uid));
  if (!rec) return std::nullopt;
  return user_from_record(*rec);
}

std::optional<EndUser> get_user_by_email(const store::ReadTxn& txn, store::Table t, std::string_view pid,
                                         std::string_view email) {
  auto uid = txn.get(t, project_record_key(pid, "ue", core::to_ascii_lower(email)));
  if (!uid) return std::nullopt;
  return get_user(txn, t, pid, *uid);
}

void put_user(store::WriteTxn& txn, store::Table t, const EndUser& u) {
  record::put_object(txn, t, user_key(u.project_id, u.id), to_record(u));
}

core::Result<EndUser> create_user(App& app, const Project& project, std::string_view email,
                                  std::string_view password, std::string name, bool email_verified) {
  CORE_TRY(core::validate_email(email));
  EndUser u;
  u.id = core::make_id("apu_", app.random);
  u.project_id = project.id;
  u.email = core::to_ascii_lower(email);
  u.name = std::move(name);
  u.email_verified = email_verified;
  u.created_at = app.clock.now_ms();
  if (!password.empty()) {
    u.password_hash = native::hash_password(password);
    if (u.password_hash.empty())
      return core::make_error("unavailable", "the server is out of memory; try again");
  }
  const store::Table t = app.auth_table;
  CORE_TRY(app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    if (!txn.get(t, "p/" + project.id)) return core::make_error("not_found", "auth project not found");
    const std::string email_key = project_record_key(project.id, "ue", u.email);
    if (txn.get(t, email_key)) return core::make_error("conflict", "a user with this email already exists");
    txn.put(t, email_key, u.id);
    put_user(txn, t, u);
    return {};
  }));
  return u;
}

core::Result<std::optional<EndUser>> find_user(App& app, std::string_view pid, std::string_view uid) {
  std::optional<EndUser> out;
  CORE_TRY(app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    out = get_user(txn, app.auth_table, pid, uid);
    return {};
  }));
  return out;
}

core::Result<std::optional<EndUser>> find_user_by_email(App& app, std::string_view pid,
                                                        std::string_view email) {
  std::optional<EndUser> out;
  CORE_TRY(app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    out = get_user_by_email(txn, app.auth_table, pid, email);
    return {};
  }));
  return out;
}

core::Result<UserPage> list_users(App& app, std::string_view pid, std::string_view q, std::size_t limit,
                                  std::size_t skip) {
  UserPage page;
  const std::string needle = core::to_ascii_lower(q);
  std::vector<EndUser> all;
  CORE_TRY(app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    txn.scan(app.auth_table, project_record_key(pid, "u"), [&](std::string_view, std::string_view value) {
      auto rec = core::parse_json_object(value);
      if (!rec) return true;
      EndUser u = user_from_record(*rec);
      if (needle.empty() || u.email.find(needle) != std::string::npos ||
          core::to_ascii_lower(u.name).find(needle) != std::string::npos)
        all.push_back(std::move(u));
      return true;
    });
    return {};
  }));
  std::sort(all.begin(), all.end(), [](const EndUser& a, const EndUser& b) {
    return a.created_at != b.created_at ? a.created_at > b.created_at : a.id < b.id;
  });
  page.total = all.size();
  for (std::size_t i = skip; i < all.size() && page.users.size() < limit; ++i) page.users.push_back(all[i]);
  return page;
}

core::Status delete_user(App& app, std::string_view pid, std::string_view uid) {
  const store::Table t = app.auth_table;
  return app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    auto u = get_user(txn, t, pid, uid);
    if (!u) return core::make_error("not_found", "user not found");
    erase_sessions_of_user_in(txn, t, pid, uid);
    std::vector<std::string> doomed;
    txn.scan(t, user_owned_prefix(pid, uid), [&](std::string_view key, std::string_view value) {
      doomed.emplace_back(key);
      if (auto rec = core::parse_json_object(value)) {
        std::string index = record::str(*rec, "indexKey");
        if (!index.empty()) doomed.push_back(std::move(index));
      }
      return true;
    });
    for (const auto& key : doomed) txn.erase(t, key);
    txn.erase(t, project_record_key(pid, "ue", u->email));
    txn.erase(t, user_key(pid, uid));
    return {};
  });
}

core::Result<EndUser> update_user(App& app, std::string_view pid, std::string_view uid,
                                  const std::function<core::Status(EndUser&)>& change) {
  return update_user(app, pid, uid, [&](store::WriteTxn&, EndUser& u) { return change(u); });
}

core::Result<EndUser> update_user(App& app, std::string_view pid, std::string_view uid,
                                  const std::function<core::Status(store::WriteTxn&, EndUser&)>& change) {
  std::optional<EndUser> out;
  CORE_TRY(app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    auto u = get_user(txn, app.auth_table, pid, uid);
    if (!u) return core::make_error("not_found", "user not found");
    CORE_TRY(change(txn, *u));
    put_user(txn, app.auth_table, *u);
    out = std::move(*u);
    return {};
  }));
  return std::move(*out);
}

}  // namespace edge::auth_projects
