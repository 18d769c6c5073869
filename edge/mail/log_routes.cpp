// Mail: logs (spec document 2, "Mail: suppressions, webhooks, logs, analytics"; docs/mail-api.md, "Logs").
// Permission: logs.view.
//
// GET /logs lists the company's mail logs newest first, optionally filtered by `status`, `domain`, `from`
// and `to` (any recipient). It reads the log indexes record_events keeps (mail_store.h): the most selective
// filter's index gives the candidates in order (to, then from, domain, status, else all logs), and any other
// filter is checked on the record. So a page costs the keys before it plus its records, and X-Total-Count
// one key per candidate; only a combination of filters reads a record per candidate.

#include "core/ascii.h"
#include "core/mail/delivery.h"
#include "core/mail/send_request.h"
#include "core/validate.h"
#include "edge/app.h"
#include "edge/mail/mail_routes.h"
#include "edge/mail/mail_store.h"
#include "edge/platform/envelope.h"
#include "edge/platform/paging.h"
#include "edge/platform/record_json.h"

namespace edge::mail {
namespace {

struct LogFilter {
  std::string status, domain, from, to;  // empty: not filtered; addresses and domain lower-cased
};

core::Result<LogFilter> parse_filter(const Request& req) {
  LogFilter f;
  if (auto s = req.query_param("status")) {
    if (!core::mail::parse_recipient_status(*s))
      return core::make_error("invalid_field",
                              "query parameter 'status' must be one of queued, deferred, delivered, bounced, "
                              "suppressed");
    f.status = *s;
  }
  if (auto d = req.query_param("domain")) {
    if (!core::is_valid_domain_name(*d))
      return core::make_error("invalid_field", "query parameter 'domain' must be a domain name");
    f.domain = core::to_ascii_lower(*d);
  }
  for (auto [name, out] : {std::pair{"from", &f.from}, std::pair{"to", &f.to}}) {
    if (auto a = req.query_param(name)) {
      auto address = core::mail::parse_mail_address(*a);
      if (!address)
        return core::make_error("invalid_field",
                                "query parameter '" + std::string(name) + "' must be an email address");
      *out = core::to_ascii_lower(address->address);
    }
  }
  return f;
}

// Whether `log` passes the filters other than the one its index already applied.
bool passes(const json::object& log, const LogFilter& f, std::string_view indexed) {
  if (!f.status.empty() && indexed != "status" && record::str(log, "status") != f.status) return false;
  if (!f.domain.empty() && indexed != "domain" &&
      core::to_ascii_lower(record::str(log, "domain")) != f.domain)
    return false;
  if (!f.from.empty() && indexed != "from") {
    auto from = core::mail::parse_mail_address(record::str(log, "from"));
    if (!from || core::to_ascii_lower(from->address) != f.from) return false;
  }
  if (!f.to.empty() && indexed != "to") {
    bool any = false;
    for (const auto& a : record::strs(log, "to")) any |= core::to_ascii_lower(a) == f.to;
    if (!any) return false;
  }
  return true;
}

// The log id at the end of an index key, after `<16 digits>/`; empty for a key of another shape.
std::string_view log_id_of(std::string_view key, std::size_t prefix_size) {
  std::string_view rest = key.substr(prefix_size);
  if (rest.size() <= 17 || rest[16] != '/' || rest.find('/', 17) != std::string_view::npos) return {};
  return rest.substr(17);
}

json::object summary(json::object log) {
  log.erase("events");
  return log;
}

Response list(App& app, Request& req, const MailContext& ctx) {
  auto paging = parse_paging(req);
  if (!paging) return envelope_error(paging.error());
  auto filter = parse_filter(req);
  if (!filter) return envelope_error(filter.error());
  const std::string& cid = ctx.co().id;
  std::string field = "all", value;
  for (auto [name, v] : {std::pair{"to", &filter->to}, std::pair{"from", &filter->from},
                         std::pair{"domain", &filter->domain}, std::pair{"status", &filter->status}})
    if (!v->empty()) {
      field = name;
      value = *v;
      break;
    }
  const std::string prefix = log_index_prefix(cid, field, value);
  const int set =
      !filter->status.empty() + !filter->domain.empty() + !filter->from.empty() + !filter->to.empty();
  const bool more_filters = set > 1;  // a record read per candidate

  json::array page;
  std::size_t total = 0;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    page.clear();
    total = 0;
    txn.scan(app.mail_table, prefix, [&](std::string_view key, std::string_view) {
      const std::string_view id = log_id_of(key, prefix.size());
      if (id.empty()) return true;
      const bool in_page = total >= paging->skip && page.size() < paging->limit;
      if (!more_filters && !in_page) {
        ++total;
        return true;
      }
      auto log = get_object(txn, app.mail_table, company_key(cid, "log", id));
      if (!log || !passes(*log, *filter, field)) return true;
      if (in_page) page.emplace_back(summary(std::move(*log)));
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

}  // namespace

void register_log_routes(App& app) {
  add_mail_route(app, "GET", "/logs", "logs.view",
                 [&app](Request& req, const MailContext& ctx) { return list(app, req, ctx); });

  add_mail_route(app, "GET", "/logs/{id}", "logs.view",
                 [&app](Request& req, const MailContext& ctx) {
                   auto log = read_object(app, company_key(ctx.co().id, "log", req.param("id")));
                   if (!log) return envelope_error(log.error());
                   if (!*log) return envelope_error(404, "no such mail log");
                   return envelope_ok(std::move(**log));
                 },
                 {}, {.nonblocking = true});
}

}  // namespace edge::mail
