#pragma once
// POST /send (spec document 2, "Mail: send"; docs/mail-send.md): a checked send becomes, in one
// transaction, a mail log (its recipients and timeline), the content to deliver, and one outbox job per
// recipient not on the suppression list; the answer is `queued` with jobId and mailLogId. Delivery is the
// worker's (delivery_worker.h).

#include <optional>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/mail/send_request.h"
#include "core/result.h"
#include "edge/http/message.h"
#include "edge/mail/mail_http.h"
#include "edge/platform/idempotency.h"

namespace edge {
struct App;
}

namespace edge::mail {
namespace json = core::json;

// One message for the delivery worker, as send and the products that mail through the mail product
// (auth projects' verify and reset mails) write it.
struct OutgoingMail {
  std::string company_id, domain_id, domain_name;
  std::string from_header;  // `address` or `"Name" <address>`
  std::vector<std::string> to;
  std::string subject, template_id;
  json::object content;  // mail_content(...) or send's own, with attachments
  std::string log_id, job_id;
  std::optional<std::int64_t> scheduled_at_ms;
};

// The content record of a message without attachments.
json::object mail_content(std::string subject, std::string html, std::string text);

// The name of `domain_id` when it is a verified domain of the company. Errors: `unprocessable` (unknown or
// not verified, said in the message), `storage_error`.
core::Result<std::string> verified_domain_name(App& app, const std::string& company_id,
                                               const std::string& domain_id);

// Writes, inside `txn`, the mail log with its recipients and timeline, the content, and one outbox job per
// recipient not on the suppression list; returns whether any job was queued (then wake the worker after
// the commit). `now`: the acceptance time.
bool queue_mail_in(App& app, store::WriteTxn& txn, const OutgoingMail& mail, std::int64_t now);

// Checks what needs the store (domain of the company and verified, `from` on it, template and its
// variables) and writes the send through `idem`. The response is the envelope to send: 201 with
// {jobId, mailLogId, status, scheduledAt?}, or the refusal (422 for an unverified or unknown domain, a
// `from` outside it, an unknown template or missing variables).
Response accept_send(App& app, const MailContext& ctx, const core::mail::SendRequest& send,
                     const IdempotentWrite& idem);

}  // namespace edge::mail
