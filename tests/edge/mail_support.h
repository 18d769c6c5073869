#pragma once
// Shared pieces of the mail API tests: tokens with the mail permissions, and a sending domain made
// verified without DNS (for tests about sending, not about verification, which mail_domains_test.cpp runs
// against a real dnsmasq).

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/json.h"
#include "edge/mail/domains.h"
#include "edge/mail/mail_store.h"
#include "test_edge.h"

namespace mail_test {

namespace json = core::json;

inline const std::vector<std::string> kAllMail = {
    "domains.manage",      "templates.manage", "send.execute",     "logs.view",
    "suppressions.manage", "webhooks.manage",  "mailboxes.manage", "inbox.view"};

inline std::string str(const json::value& v, std::string_view key) {
  auto* m = v.is_object() ? v.get_object().if_contains(key) : nullptr;
  return m && m->is_string() ? std::string(m->get_string()) : std::string();
}

// An edge whose rate limits clients never reach, with the delivery worker off (sends stay queued).
inline edge::Config unthrottled() {
  edge::Config c;
  c.rate_limit = {1'000'000, 1000};
  c.mail.rate_limit = {1'000'000, 1000};
  c.mail.delivery_workers = 0;
  return c;
}

// Creates `name` for company `slug` through the API and marks it verified in the store.
inline std::string verified_domain(testing::TestEdge& edge, const std::string& token, const std::string& slug,
                                   const std::string& name) {
  auto r = edge.post("/api/companies/" + slug + "/domains", R"({"name":")" + name + R"("})", token);
  REQUIRE(r.status == 201);
  const std::string id = str(r.data(), "id");
  auto& app = edge.server->app();
  auto company = app.accounts->company_by_slug(slug);
  REQUIRE(company.ok());
  REQUIRE(app.kv
              ->write([&](store::WriteTxn& txn) -> core::Status {
                const std::string key = edge::mail::company_key(company->id, "domain", id);
                auto rec = edge::mail::get_object(txn, app.mail_table, key);
                REQUIRE(rec);
                auto d = edge::mail::domain_from_record(*rec);
                d.status = core::mail::DomainStatus::verified;
                d.checks = core::mail::DomainChecks{true, true, true};
                edge::mail::put_object(txn, app.mail_table, key, edge::mail::to_record(d));
                txn.erase(app.mail_table, "domain-recheck/" + company->id + "/" + id);
                return {};
              })
              .ok());
  return id;
}

}  // namespace mail_test
