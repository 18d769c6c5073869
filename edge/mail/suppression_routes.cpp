// Mail: suppressions (spec document 2, "Mail: suppressions, webhooks, logs, analytics"; docs/mail-api.md,
// "Suppressions"). Permission: suppressions.manage. An entry is named in the path by its address (any case)
// or by its id (`sup_...`); GET on one entry answers "why was this not sent?" with its reason and source.

#include "core/ascii.h"
#include "core/id.h"
#include "core/mail/send_request.h"
#include "edge/app.h"
#include "edge/mail/mail_routes.h"
#include "edge/mail/mail_store.h"
#include "edge/mail/suppressions.h"
#include "edge/platform/envelope.h"
#include "edge/platform/paging.h"
#include "edge/platform/record_json.h"

namespace edge::mail {
namespace {

constexpr const char* kNotListed = "not on the suppression list";

bool known_reason(std::string_view r) {
  return r == "bounce" || r == "complaint" || r == "manual";
}

// The entry named by `address_or_id`, read in `txn`.
std::optional<json::object> lookup(App& app, const store::ReadTxn& txn, std::string_view company_id,
                                   std::string_view address_or_id) {
  if (core::has_id_shape("sup_", address_or_id)) {
    auto address = txn.get(app.mail_table, suppression_id_key(company_id, address_or_id));
    if (!address) return std::nullopt;
    return find_suppression(app, txn, company_id, *address);
  }
  return find_suppression(app, txn, company_id, address_or_id);
}

Response list(App& app, Request& req, const MailContext& ctx) {
  auto paging = parse_paging(req);
  if (!paging) return envelope_error(paging.error());
  const std::string reason = req.query_param("reason").value_or("");
  if (!reason.empty() && !known_reason(reason))
    return envelope_error(400, "query parameter 'reason' must be one of bounce, complaint, manual");
  json::array page;
  std::size_t total = 0;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    page.clear();
    total = 0;
    // Ordered by address. Without a filter only the page's entries are parsed.
    txn.scan(app.mail_table, company_prefix(ctx.co().id, "suppression"),
             [&](std::string_view, std::string_view v) {
               const bool in_page = total >= paging->skip && page.size() < paging->limit;
               if (reason.empty() && !in_page) {
                 ++total;
                 return true;
               }
               auto entry = core::parse_json_object(v);
               if (!entry || (!reason.empty() && record::str(*entry, "reason") != reason)) return true;
               if (in_page) page.emplace_back(std::move(*entry));
               ++total;
               return true;
             });
    return {};
  });
  if (!st.ok()) return envelope_error(st.error());
  Response r = envelope_ok(std::move(page));
  r.set_header("X-Total-Count", std::to_string(total));
  return r;
}

Response add(App& app, Request& req, const MailContext& ctx) {
  auto body = core::parse_json_object(req.body);
  if (!body) return envelope_error(body.error());
  auto text = core::require_string(*body, "address");
  if (!text) return envelope_error(text.error());
  auto address = core::mail::parse_mail_address(*text);
  if (!address) return envelope_error(400, "field 'address' must be an email address");
  auto reason = core::optional_string(*body, "reason");
  if (!reason) return envelope_error(reason.error());
  // Bounces and complaints are listed by the events that cause them; by hand only `manual`.
  if (*reason && **reason != "manual") return envelope_error(400, "field 'reason' must be \"manual\"");
  json::object entry;
  bool existed = false;
  auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    existed = find_suppression(app, txn, ctx.co().id, address->address).has_value();
    entry = add_suppression(app, txn, ctx.co().id, address->address, "manual", nullptr, app.clock.now_ms());
    return {};
  });
  if (!st.ok()) return envelope_error(st.error());
  // Already listed: the first cause stays and is answered as it is (200), so a retry is harmless.
  return envelope_ok(std::move(entry), existed ? 200 : 201);
}

}  // namespace

void register_suppression_routes(App& app) {
  const std::string perm = "suppressions.manage";

  add_mail_route(app, "GET", "/suppressions", perm,
                 [&app](Request& req, const MailContext& ctx) { return list(app, req, ctx); });

  add_mail_route(app, "POST", "/suppressions", perm,
                 [&app](Request& req, const MailContext& ctx) { return add(app, req, ctx); });

  add_mail_route(app, "GET", "/suppressions/{entry}", perm,
                 [&app](Request& req, const MailContext& ctx) {
                   std::optional<json::object> entry;
                   auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
                     entry = lookup(app, txn, ctx.co().id, req.param("entry"));
                     return {};
                   });
                   if (!st.ok()) return envelope_error(st.error());
                   if (!entry) return envelope_error(404, kNotListed);
                   return envelope_ok(std::move(*entry));
                 },
                 {}, {.nonblocking = true});

  add_mail_route(app, "DELETE", "/suppressions/{entry}", perm, [&app](Request& req, const MailContext& ctx) {
    std::optional<json::object> removed;
    auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
      removed = remove_suppression(app, txn, ctx.co().id, req.param("entry"));
      return {};
    });
    if (!st.ok()) return envelope_error(st.error());
    if (!removed) return envelope_error(404, kNotListed);
    (*removed)["deleted"] = true;
    return envelope_ok(std::move(*removed));
  });
}

}  // namespace edge::mail
