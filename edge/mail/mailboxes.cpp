#include "edge/mail/mailboxes.h"

#include <charconv>
#include <mutex>

#include "core/ascii.h"
#include "core/bytes.h"
#include "core/crypto.h"
#include "core/id.h"
#include "core/mail/mailbox_address.h"
#include "edge/app.h"
#include "edge/mail/mail_store.h"
#include "edge/platform/record_json.h"
#include "native/crypto/password.h"
#include "native/imap/dovecot_config.h"
#include "native/imap/dovecot_users.h"

namespace edge::mail {
namespace {

constexpr const char* kAddressPrefix = "mailbox-address/";
constexpr const char* kMasterUser = "platform";
constexpr std::int64_t kMaxQuotaMb = 1'048'576;
constexpr std::int64_t kDefaultQuotaMb = 1024;

std::string address_key(std::string_view address) {
  return std::string(kAddressPrefix) + std::string(address);
}

// Derived, not stored: the same secret key gives the same password after a restart, and the store holds
// nothing that opens every mailbox.
std::string master_password(const App& app) {
  auto digest = core::hmac_sha256(
      std::string_view(reinterpret_cast<const char*>(app.secret_key.data()), app.secret_key.size()),
      "dovecot master user password");
  return core::hex_encode(digest);
}

json::object index_entry(const json::object& rec) {
  return json::object{{"companyId", record::str(rec, "companyId")},
                      {"id", record::str(rec, "id")},
                      {"passwordHash", record::str(rec, "passwordHash")},
                      {"quotaMb", record::num(rec, "quotaMb")}};
}

core::Status hash_into(json::object& rec, const std::string& password) {
  std::string hash = native::hash_password(password);
  if (hash.empty()) return core::make_error("internal", "password hashing ran out of memory");
  rec["passwordHash"] = std::move(hash);
  return {};
}

}  // namespace

core::Result<MailboxFields> parse_mailbox_fields(const json::object& body) {
  MailboxFields f;
  for (auto [field, slot] : {std::pair{"domainId", &f.domain_id},
                             {"domain", &f.domain_name},
                             {"localPart", &f.local_part},
                             {"displayName", &f.display_name},
                             {"password", &f.password}}) {
    auto v = core::optional_string(body, field);
    if (!v) return v.error();
    *slot = std::move(*v);
  }
  if (f.password && (f.password->size() < 8 || f.password->size() > 1024))
    return core::make_error("invalid_field", "field 'password' must be 8 to 1024 bytes");
  if (f.display_name && f.display_name->find_first_of("\r\n") != std::string::npos)
    return core::make_error("invalid_field", "field 'displayName' must be one line");
  auto quota = core::optional_int(body, "quotaMb");
  if (!quota) return quota.error();
  if (*quota && (**quota < 1 || **quota > kMaxQuotaMb))
    return core::make_error("invalid_field", "field 'quotaMb' must be 1 to 1048576");
  f.quota_mb = *quota;
  return f;
}

json::object mailbox_to_api(const json::object& rec) {
  json::object out;
  for (const char* k :
       {"id", "address", "domainId", "localPart", "displayName", "quotaMb", "createdAt", "updatedAt"})
    if (auto* v = rec.if_contains(k)) out[k] = *v;
  return out;
}

core::Result<json::object> create_mailbox(App& app, std::string_view company_id, const MailboxFields& f) {
  if (!f.domain_id && !f.domain_name)
    return core::make_error("missing_field", "field 'domainId' is required");
  if (!f.local_part) return core::make_error("missing_field", "field 'localPart' is required");
  if (!f.password) return core::make_error("missing_field", "field 'password' is required");
  auto local = core::mail::normalize_local_part(*f.local_part);
  if (!local) return local.error();
  std::string now = now_text(app);
  json::object rec{{"id", core::make_id("mbx_", app.random)},
                   {"companyId", std::string(company_id)},
                   {"localPart", *local},
                   {"displayName", f.display_name.value_or("")},
                   {"quotaMb", f.quota_mb.value_or(kDefaultQuotaMb)},
                   {"createdAt", now},
                   {"updatedAt", now}};
  if (auto st = hash_into(rec, *f.password); !st.ok()) return st.error();  // before the write: ~50 ms
  auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    std::optional<json::object> domain;
    if (f.domain_id) {
      domain = get_object(txn, app.mail_table, company_key(company_id, "domain", *f.domain_id));
    } else if (auto id = txn.get(app.mail_table, company_key(company_id, "domain-name",
                                                             core::to_ascii_lower(*f.domain_name)))) {
      domain = get_object(txn, app.mail_table, company_key(company_id, "domain", *id));
    }
    if (!domain) return core::make_error("unprocessable", "the domain is not a domain of this company");
    if (record::str(*domain, "status") != "verified")
      return core::make_error("unprocessable",
                              "domain '" + record::str(*domain, "name") + "' is not verified");
    const std::string address = *local + "@" + record::str(*domain, "name");
    if (txn.get(app.mail_table, address_key(address)))
      return core::make_error("conflict", "mailbox " + address + " already exists");
    rec["address"] = address;
    rec["domainId"] = record::str(*domain, "id");
    put_object(txn, app.mail_table, company_key(company_id, "mailbox", record::str(rec, "id")), rec);
    put_object(txn, app.mail_table, address_key(address), index_entry(rec));
    return {};
  });
  if (!st.ok()) return st.error();
  if (auto synced = sync_dovecot(app); !synced.ok()) return synced.error();
  return rec;
}

core::Result<json::object> update_mailbox(App& app, std::string_view company_id, std::string_view id,
                                          const MailboxFields& f) {
  if (!f.display_name && !f.password && !f.quota_mb)
    return core::make_error("invalid_field",
                            "an update needs at least one of 'displayName', 'password' and 'quotaMb'");
  if (f.local_part || f.domain_id || f.domain_name)
    return core::make_error("invalid_field", "a mailbox's address cannot change; create another mailbox");
  std::string hash;
  if (f.password) {
    hash = native::hash_password(*f.password);
    if (hash.empty()) return core::make_error("internal", "password hashing ran out of memory");
  }
  json::object out;
  auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    const std::string key = company_key(company_id, "mailbox", id);
    auto rec = get_object(txn, app.mail_table, key);
    if (!rec) return core::make_error("not_found", "mailbox not found");
    if (f.display_name) (*rec)["displayName"] = *f.display_name;
    if (f.quota_mb) (*rec)["quotaMb"] = *f.quota_mb;
    if (!hash.empty()) (*rec)["passwordHash"] = hash;
    (*rec)["updatedAt"] = now_text(app);
    put_object(txn, app.mail_table, key, *rec);
    put_object(txn, app.mail_table, address_key(record::str(*rec, "address")), index_entry(*rec));
    out = std::move(*rec);
    return {};
  });
  if (!st.ok()) return st.error();
  if (auto synced = sync_dovecot(app); !synced.ok()) return synced.error();
  return out;
}

core::Status delete_mailbox(App& app, std::string_view company_id, std::string_view id) {
  auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    const std::string key = company_key(company_id, "mailbox", id);
    auto rec = get_object(txn, app.mail_table, key);
    if (!rec) return core::make_error("not_found", "mailbox not found");
    txn.erase(app.mail_table, key);
    txn.erase(app.mail_table, address_key(record::str(*rec, "address")));
    return {};
  });
  if (!st.ok()) return st;
  return sync_dovecot(app);
}

core::Result<json::array> list_mailboxes(App& app, std::string_view company_id) {
  json::array out;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    out.clear();
    txn.scan(app.mail_table, company_prefix(company_id, "mailbox"),
             [&](std::string_view, std::string_view v) {
               if (auto rec = core::parse_json_object(v)) out.emplace_back(mailbox_to_api(*rec));
               return true;
             });
    return {};
  });
  if (!st.ok()) return st.error();
  return out;
}

core::Result<json::object> mailbox_by_address(App& app, std::string_view company_id,
                                              std::string_view address) {
  auto entry = read_object(app, address_key(core::to_ascii_lower(address)));
  if (!entry) return entry.error();
  if (!*entry || record::str(**entry, "companyId") != company_id)
    return core::make_error("not_found", "mailbox not found");
  auto rec = read_object(app, company_key(company_id, "mailbox", record::str(**entry, "id")));
  if (!rec) return rec.error();
  if (!*rec) return core::make_error("not_found", "mailbox not found");
  return std::move(**rec);
}

core::Status sync_dovecot(App& app) {
  if (app.config.mail.dovecot_dir.empty()) return {};
  static std::mutex mutex;  // one writer of the files at a time; each write is a whole snapshot
  std::lock_guard lock(mutex);
  std::vector<native::imap::MailboxUser> users;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    users.clear();
    txn.scan(app.mail_table, kAddressPrefix, [&](std::string_view key, std::string_view v) {
      auto rec = core::parse_json_object(v);
      if (!rec) return true;
      users.push_back({std::string(key.substr(std::string_view(kAddressPrefix).size())),
                       record::str(*rec, "passwordHash"), record::num(*rec, "quotaMb")});
      return true;
    });
    return {};
  });
  if (!st.ok()) return st;
  native::imap::DovecotLayout layout;
  layout.base_dir = app.config.mail.dovecot_dir;
  const auto paths = native::imap::dovecot_paths(layout);
  if (auto m = native::imap::write_master_file(paths.master_users_file, kMasterUser,
                                               native::imap::hash_master_password(master_password(app)));
      !m.ok())
    return m;
  return native::imap::write_users_file(paths.users_file, users);
}

core::Result<native::imap::ImapAccount> imap_account(const App& app, std::string_view address) {
  const std::string& where = app.config.mail.imap_address;
  if (where.empty()) return core::make_error("unavailable", "this deployment serves no mailboxes");
  native::imap::ImapAccount a;
  auto colon = where.rfind(':');
  a.host = where.substr(0, colon);
  if (colon != std::string::npos)
    std::from_chars(where.data() + colon + 1, where.data() + where.size(), a.port);
  a.login = native::imap::master_login(address, kMasterUser);
  a.password = master_password(app);
  return a;
}

}  // namespace edge::mail
