#pragma once
// Sending domains (spec document 2, "Mail: domains"; docs/mail-domains.md): creation with a DKIM key pair
// per selector made here, verification by DNS lookups outside any transaction, and the record as the API
// shows it in either path form. The rules (names, records, checks, state) are core's.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"
#include "core/mail/domain_records.h"
#include "core/result.h"
#include "edge/mail/mail_http.h"

namespace edge {
struct App;
}

namespace edge::mail {

namespace json = core::json;

struct Domain {
  std::string id, company_id, name, dkim_tag;
  core::mail::DomainStatus status = core::mail::DomainStatus::pending;
  std::optional<core::mail::DomainChecks> checks;  // none before the first check
  std::int64_t created_at = 0;
  std::optional<std::int64_t> checked_at, verified_at;
  // Per selector (s1, s2): the public key (base64 DER) and the private key PEM sealed under the
  // deployment's secret key, bound to this domain and selector.
  struct Key {
    std::string selector, public_key, sealed_private_key;
  };
  std::vector<Key> keys;

  core::mail::SendingDomain sending() const;
};

json::object to_record(const Domain& d);
Domain domain_from_record(const json::object& rec);
// The API's view: `name`/`dnsRecords` with `name`, or the product form's `domain`/`dns` with `host`.
json::object to_api(const Domain& d, const core::mail::MailDnsSetup& setup, PathForm form);

core::mail::MailDnsSetup dns_setup(const App& app);

// Errors: `invalid_domain` (core's name rule), `conflict` (the company already has it), `key_error`,
// `storage_error`.
core::Result<Domain> create_domain(App& app, std::string_view company_id, std::string_view name);
// `not_found` for an id not of this company.
core::Result<Domain> find_domain(App& app, std::string_view company_id, std::string_view id);
core::Result<std::vector<Domain>> list_domains(App& app, std::string_view company_id);
core::Status delete_domain(App& app, std::string_view company_id, std::string_view id);

// Looks the records up, applies core's checks and state rule, and stores the outcome. Errors: `not_found`,
// `dns_error` (the resolver could not answer: nothing stored), `storage_error`.
core::Result<Domain> verify_domain(App& app, std::string_view company_id, std::string_view id);

// One pass of the background re-check: verifies every domain still pending. Returns how many were checked.
core::Result<std::size_t> recheck_pending_domains(App& app);

// Every record the platform's DKIM zone must serve (core::mail::dkim_zone_record), for every domain of every
// company, ordered by name: what the deployment's DNS publishes under Config::Mail::dkim_zone.
core::Result<std::vector<core::mail::DnsRecord>> dkim_zone_records(App& app);

// The PEM of the signing selector (s1), unsealed. Errors: `sealed_invalid`, `not_found`.
core::Result<std::string> dkim_private_key(const App& app, const Domain& d);

}  // namespace edge::mail
