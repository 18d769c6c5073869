#include "edge/mail/domains.h"

#include <spdlog/spdlog.h>

#include <array>

#include "core/date.h"
#include "core/id.h"
#include "core/mail/domain_name.h"
#include "core/sealed.h"
#include "edge/app.h"
#include "edge/mail/mail_store.h"
#include "edge/platform/record_json.h"
#include "native/dns/domain_lookups.h"
#include "native/mail/dkim_key.h"

namespace edge::mail {
namespace {

using core::mail::DomainStatus;

constexpr const char* kRecheckPrefix = "domain-recheck/";
// dkim-tag/<tag> -> "<company id>/<domain id>": every domain whose keys the DKIM zone serves.
constexpr const char* kTagPrefix = "dkim-tag/";

std::string recheck_key(std::string_view company_id, std::string_view id) {
  return std::string(kRecheckPrefix) + std::string(company_id) + "/" + std::string(id);
}

// What a sealed key is bound to: a sealed value copied to another domain or selector does not open.
std::string key_binding(std::string_view domain_id, std::string_view selector) {
  return "mail-dkim/" + std::string(domain_id) + "/" + std::string(selector);
}

// 12 characters of a-z0-9 (about 62 bits): names the domain's keys in the platform's DKIM zone.
std::string make_dkim_tag(core::RandomSource& random) {
  static constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::array<std::uint8_t, 12> bytes{};
  random.fill(bytes);
  std::string tag;
  for (std::uint8_t b : bytes) tag += kAlphabet[b % 36];
  return tag;
}

std::optional<DomainStatus> parse_status(std::string_view s) {
  if (s == "verified") return DomainStatus::verified;
  if (s == "failed") return DomainStatus::failed;
  if (s == "pending") return DomainStatus::pending;
  return std::nullopt;
}

json::value checks_json(const std::optional<core::mail::DomainChecks>& c) {
  if (!c) return nullptr;
  return json::object{{"spf", c->spf}, {"dkim", c->dkim}, {"dmarc", c->dmarc}};
}

core::Status store_outcome(App& app, const Domain& d) {
  return app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    std::string key = company_key(d.company_id, "domain", d.id);
    if (!txn.get(app.mail_table, key)) return core::make_error("not_found", "domain not found");
    put_object(txn, app.mail_table, key, to_record(d));
    if (d.status == DomainStatus::pending)
      txn.put(app.mail_table, recheck_key(d.company_id, d.id), "");
    else
      txn.erase(app.mail_table, recheck_key(d.company_id, d.id));
    return {};
  });
}

}  // namespace

core::mail::SendingDomain Domain::sending() const {
  core::mail::SendingDomain s{name, dkim_tag, {}};
  for (const Key& k : keys)
    if (k.selector == core::mail::kDkimSelectors[0]) s.dkim_public_key_base64 = k.public_key;
  return s;
}

json::object to_record(const Domain& d) {
  json::array keys;
  for (const auto& k : d.keys)
    keys.emplace_back(json::object{
        {"selector", k.selector}, {"publicKey", k.public_key}, {"privateKey", k.sealed_private_key}});
  return json::object{{"id", d.id},
                      {"companyId", d.company_id},
                      {"name", d.name},
                      {"dkimTag", d.dkim_tag},
                      {"status", core::mail::to_string(d.status)},
                      {"checks", checks_json(d.checks)},
                      {"createdAt", core::format_timestamp(d.created_at)},
                      {"createdAtMs", d.created_at},
                      {"checkedAtMs", d.checked_at ? json::value(*d.checked_at) : json::value(nullptr)},
                      {"verifiedAtMs", d.verified_at ? json::value(*d.verified_at) : json::value(nullptr)},
                      {"keys", std::move(keys)}};
}

Domain domain_from_record(const json::object& rec) {
  Domain d;
  d.id = record::str(rec, "id");
  d.company_id = record::str(rec, "companyId");
  d.name = record::str(rec, "name");
  d.dkim_tag = record::str(rec, "dkimTag");
  d.status = parse_status(record::str(rec, "status")).value_or(DomainStatus::pending);
  if (auto* c = rec.if_contains("checks"); c && c->is_object()) {
    const auto& o = c->get_object();
    d.checks = core::mail::DomainChecks{record::boolean(o, "spf"), record::boolean(o, "dkim"),
                                        record::boolean(o, "dmarc")};
  }
  d.created_at = record::num(rec, "createdAtMs");
  d.checked_at = record::opt_num(rec, "checkedAtMs");
  d.verified_at = record::opt_num(rec, "verifiedAtMs");
  if (auto* ks = rec.if_contains("keys"); ks && ks->is_array())
    for (const auto& k : ks->get_array())
      if (k.is_object())
        d.keys.push_back({record::str(k.get_object(), "selector"), record::str(k.get_object(), "publicKey"),
                          record::str(k.get_object(), "privateKey")});
  return d;
}

json::object to_api(const Domain& d, const core::mail::MailDnsSetup& setup, PathForm form) {
  const bool product = form == PathForm::product;
  json::array records;
  auto list = product ? core::mail::domain_checklist(d.sending(), setup)
                      : core::mail::domain_records(d.sending(), setup);
  for (const auto& r : list)
    records.emplace_back(
        json::object{{"type", r.type}, {product ? "host" : "name", r.name}, {"value", r.value}});
  return json::object{{"id", d.id},
                      {product ? "domain" : "name", d.name},
                      {"status", core::mail::to_string(d.status)},
                      {product ? "dns" : "dnsRecords", std::move(records)},
                      {"checks", checks_json(d.checks)},
                      {"createdAt", core::format_timestamp(d.created_at)},
                      {"checkedAt", record::time_or_null(d.checked_at)},
                      {"verifiedAt", record::time_or_null(d.verified_at)}};
}

core::mail::MailDnsSetup dns_setup(const App& app) {
  return {app.config.mail.spf_include, app.config.mail.dkim_zone, app.config.mail.mx_host};
}

core::Result<Domain> create_domain(App& app, std::string_view company_id, std::string_view name) {
  auto normalized = core::mail::normalize_domain_name(name);
  if (!normalized) return normalized.error();
  Domain d;
  d.id = core::make_id("dom_", app.random);
  d.company_id = std::string(company_id);
  d.name = *normalized;
  d.dkim_tag = make_dkim_tag(app.random);
  d.created_at = app.clock.now_ms();
  // Key generation takes a fraction of a second per key: before the write, never inside it.
  for (const char* selector : core::mail::kDkimSelectors) {
    auto pair = native::mail::generate_dkim_key();
    if (!pair) return pair.error();
    d.keys.push_back(
        {selector, pair->public_key_base64,
         core::seal(app.secret_key, pair->private_key_pem, key_binding(d.id, selector), app.random)});
  }
  auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    std::string name_key = company_key(company_id, "domain-name", d.name);
    if (txn.get(app.mail_table, name_key))
      return core::make_error("conflict", "domain '" + d.name + "' is already added to this company");
    put_object(txn, app.mail_table, company_key(company_id, "domain", d.id), to_record(d));
    txn.put(app.mail_table, name_key, d.id);
    txn.put(app.mail_table, recheck_key(company_id, d.id), "");
    txn.put(app.mail_table, kTagPrefix + d.dkim_tag, std::string(company_id) + "/" + d.id);
    return {};
  });
  if (!st.ok()) return st.error();
  return d;
}

core::Result<Domain> find_domain(App& app, std::string_view company_id, std::string_view id) {
  auto rec = read_object(app, company_key(company_id, "domain", id));
  if (!rec) return rec.error();
  if (!*rec) return core::make_error("not_found", "domain not found");
  return domain_from_record(**rec);
}

core::Result<std::vector<Domain>> list_domains(App& app, std::string_view company_id) {
  std::vector<Domain> out;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    out.clear();
    txn.scan(app.mail_table, company_prefix(company_id, "domain"), [&](std::string_view, std::string_view v) {
      if (auto rec = core::parse_json_object(v)) out.push_back(domain_from_record(*rec));
      return true;
    });
    return {};
  });
  if (!st.ok()) return st.error();
  std::sort(out.begin(), out.end(), [](const Domain& a, const Domain& b) { return a.name < b.name; });
  return out;
}

core::Status delete_domain(App& app, std::string_view company_id, std::string_view id) {
  return app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    std::string key = company_key(company_id, "domain", id);
    auto rec = get_object(txn, app.mail_table, key);
    if (!rec) return core::make_error("not_found", "domain not found");
    txn.erase(app.mail_table, key);
    txn.erase(app.mail_table, company_key(company_id, "domain-name", record::str(*rec, "name")));
    txn.erase(app.mail_table, recheck_key(company_id, id));
    txn.erase(app.mail_table, kTagPrefix + record::str(*rec, "dkimTag"));
    return {};
  });
}

core::Result<Domain> verify_domain(App& app, std::string_view company_id, std::string_view id) {
  auto d = find_domain(app, company_id, id);
  if (!d) return d.error();
  auto found = native::dns::lookup_domain(*app.resolver, d->name);
  if (!found) return found.error();
  auto checks = core::mail::check_domain(d->sending(), dns_setup(app), *found);
  std::int64_t now = app.clock.now_ms();
  d->checks = checks;
  d->checked_at = now;
  d->status = core::mail::domain_status(checks, d->created_at, now);
  if (d->status == DomainStatus::verified && !d->verified_at) d->verified_at = now;
  if (d->status != DomainStatus::verified) d->verified_at.reset();
  if (auto st = store_outcome(app, *d); !st.ok()) return st.error();
  return d;
}

core::Result<std::size_t> recheck_pending_domains(App& app) {
  std::vector<std::pair<std::string, std::string>> pending;  // company id, domain id
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    txn.scan(app.mail_table, kRecheckPrefix, [&](std::string_view key, std::string_view) {
      std::string_view rest = key.substr(std::string_view(kRecheckPrefix).size());
      auto slash = rest.find('/');
      if (slash != std::string_view::npos)
        pending.emplace_back(std::string(rest.substr(0, slash)), std::string(rest.substr(slash + 1)));
      return true;
    });
    return {};
  });
  if (!st.ok()) return st.error();
  std::size_t checked = 0;
  for (const auto& [company_id, id] : pending) {
    auto d = verify_domain(app, company_id, id);
    if (!d) {
      spdlog::warn("re-checking domain {} failed: {}", id, d.error().message);
      continue;
    }
    ++checked;
    if (d->status != DomainStatus::pending)
      spdlog::info("domain {} of company {} is now {}", d->name, company_id,
                   core::mail::to_string(d->status));
  }
  return checked;
}

core::Result<std::vector<core::mail::DnsRecord>> dkim_zone_records(App& app) {
  std::vector<core::mail::DnsRecord> out;
  const auto setup = dns_setup(app);
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    out.clear();
    txn.scan(app.mail_table, kTagPrefix, [&](std::string_view, std::string_view owner) {
      auto slash = owner.find('/');
      if (slash == std::string_view::npos) return true;
      auto rec = get_object(txn, app.mail_table,
                            company_key(owner.substr(0, slash), "domain", owner.substr(slash + 1)));
      if (!rec) return true;
      const Domain d = domain_from_record(*rec);
      for (const auto& k : d.keys)
        out.push_back(core::mail::dkim_zone_record(d.dkim_tag, k.selector, k.public_key, setup));
      return true;
    });
    return {};
  });
  if (!st.ok()) return st.error();
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

core::Result<std::string> dkim_private_key(const App& app, const Domain& d) {
  for (const auto& k : d.keys)
    if (k.selector == core::mail::kDkimSelectors[0])
      return core::unseal(app.secret_key, k.sealed_private_key, key_binding(d.id, k.selector));
  return core::make_error("not_found", "domain has no signing key");
}

}  // namespace edge::mail
