#include "edge/mail/send.h"

#include <algorithm>

#include "core/bytes.h"
#include "core/date.h"
#include "core/id.h"
#include "core/mail/delivery.h"
#include "edge/app.h"
#include "edge/mail/delivery_worker.h"
#include "edge/mail/mail_events.h"
#include "edge/mail/mail_store.h"
#include "edge/mail/suppressions.h"
#include "edge/mail/templates.h"
#include "edge/platform/envelope.h"
#include "edge/platform/record_json.h"

namespace edge::mail {
namespace {

using core::mail::RecipientStatus;

// What the worker delivers: rendered once at accept time, so a template edited later does not change mail
// already queued.
json::object content_record(const core::mail::SendRequest& send, std::string subject, std::string html,
                            std::string text) {
  json::array files;
  for (const auto& a : send.attachments)
    files.emplace_back(json::object{{"filename", a.filename},
                                    {"contentType", a.content_type},
                                    {"content", core::base64_encode(core::as_bytes(a.content))}});
  json::object o{{"subject", std::move(subject)},
                 {"html", std::move(html)},
                 {"text", std::move(text)},
                 {"attachments", std::move(files)}};
  if (send.reply_to)
    o["replyTo"] = send.reply_to->display_name.empty()
                       ? send.reply_to->address
                       : "\"" + send.reply_to->display_name + "\" <" + send.reply_to->address + ">";
  return o;
}

}  // namespace

json::object mail_content(std::string subject, std::string html, std::string text) {
  return json::object{{"subject", std::move(subject)},
                      {"html", std::move(html)},
                      {"text", std::move(text)},
                      {"attachments", json::array{}}};
}

core::Result<std::string> verified_domain_name(App& app, const std::string& company_id,
                                               const std::string& domain_id) {
  auto domain = read_object(app, company_key(company_id, "domain", domain_id));
  if (!domain) return domain.error();
  if (!*domain) return core::make_error("unprocessable", "domainId names no domain of this company");
  std::string name = record::str(**domain, "name");
  if (record::str(**domain, "status") != "verified")
    return core::make_error("unprocessable",
                            "domain '" + name + "' is not verified; verify it before sending");
  return name;
}

bool queue_mail_in(App& app, store::WriteTxn& txn, const OutgoingMail& mail, std::int64_t now) {
  const std::string& cid = mail.company_id;
  const std::int64_t due = mail.scheduled_at_ms.value_or(now);
  bool queued_any = false;
  std::vector<MailEvent> events{{"queued", mail.log_id, "", "", now}};
  json::array recipients;
  for (std::size_t i = 0; i < mail.to.size(); ++i) {
    const std::string& to = mail.to[i];
    RecipientStatus status = RecipientStatus::queued;
    if (auto entry = find_suppression(app, txn, cid, to)) {
      status = RecipientStatus::suppressed;
      events.push_back({"suppressed", mail.log_id, to,
                        "on the suppression list (" + record::str(*entry, "reason") + ")", now});
    } else {
      txn.put(app.mail_table, outbox_key(due, cid, mail.log_id, i), "");
      queued_any = true;
    }
    recipients.emplace_back(
        json::object{{"address", to}, {"status", core::mail::to_string(status)}, {"attempts", 0}});
  }
  std::vector<RecipientStatus> statuses;
  for (const auto& r : recipients)
    statuses.push_back(*core::mail::parse_recipient_status(record::str(r.get_object(), "status")));
  json::array timeline;
  for (const auto& e : events) timeline.emplace_back(e.to_json());
  json::object log{
      {"id", mail.log_id},
      {"jobId", mail.job_id},
      {"domainId", mail.domain_id},
      {"domain", mail.domain_name},
      {"from", mail.from_header},
      {"to", record::array_of(mail.to)},
      {"subject", mail.subject},
      {"templateId", mail.template_id.empty() ? json::value(nullptr) : json::value(mail.template_id)},
      {"status", core::mail::to_string(core::mail::log_status(statuses))},
      {"messageId", mail.log_id + "@" + mail.domain_name},
      {"createdAt", core::format_timestamp(now)},
      {"scheduledAt", mail.scheduled_at_ms ? json::value(core::format_timestamp(due)) : json::value(nullptr)},
      {"recipients", std::move(recipients)},
      {"events", std::move(timeline)}};
  put_object(txn, app.mail_table, company_key(cid, "log", mail.log_id), log);
  if (queued_any) put_object(txn, app.mail_table, company_key(cid, "body", mail.log_id), mail.content);
  record_events(app, txn, cid, events);
  return queued_any;
}

Response accept_send(App& app, const MailContext& ctx, const core::mail::SendRequest& send,
                     const IdempotentWrite& idem) {
  const std::string& cid = ctx.co().id;
  auto verified = verified_domain_name(app, cid, send.domain_id);
  if (!verified) return envelope_error(verified.error());
  const std::string& domain_name = *verified;
  if (auto st = core::mail::check_from_domain(send.from, domain_name); !st.ok())
    return envelope_error(422, st.error().message);

  std::string subject = send.subject, html = send.html, text = send.text;
  std::string template_id;
  if (send.template_id) {
    auto tpl = load_template(app, cid, *send.template_id);
    if (!tpl) {
      if (tpl.error().code == "not_found")
        return envelope_error(422, "templateId names no template of this company");
      return envelope_error(tpl.error());
    }
    auto missing = tpl->compiled->missing_variables(send.locale, send.variables);
    if (!missing.empty()) {
      std::string names;
      for (const auto& n : missing) names += (names.empty() ? "" : ", ") + n;
      return envelope_error(422, "missing variables: " + names);
    }
    auto rendered = tpl->compiled->render(send.locale, send.variables);
    if (!rendered) return envelope_error(422, rendered.error().message);
    subject = std::move(rendered->subject);
    html = std::move(rendered->html);
    template_id = *send.template_id;
  }

  const std::int64_t now = app.clock.now_ms();
  OutgoingMail mail;
  mail.company_id = cid;
  mail.domain_id = send.domain_id;
  mail.domain_name = domain_name;
  mail.from_header = send.from.display_name.empty()
                         ? send.from.address
                         : "\"" + send.from.display_name + "\" <" + send.from.address + ">";
  mail.to = send.to;
  mail.subject = subject;
  mail.template_id = template_id;
  mail.content = content_record(send, subject, std::move(html), std::move(text));
  mail.log_id = core::make_time_ordered_id("log_", now, app.random);
  mail.job_id = core::make_id("job_", app.random);
  mail.scheduled_at_ms = send.scheduled_at_ms;

  json::object answer{{"jobId", mail.job_id}, {"mailLogId", mail.log_id}, {"status", "queued"}};
  if (send.scheduled_at_ms) answer["scheduledAt"] = core::format_timestamp(*send.scheduled_at_ms);

  bool queued_any = false;
  auto written = idem.write(app, [&](store::WriteTxn& txn) -> core::Result<Response> {
    queued_any = queue_mail_in(app, txn, mail, now);
    return envelope_ok(answer, 201);
  });
  if (!written) return envelope_error(written.error());
  if (queued_any && app.mail_delivery) app.mail_delivery->wake();
  return std::move(*written);
}

}  // namespace edge::mail
