#pragma once
// POST /send (spec document 2, "Mail: send"; docs/mail-send.md): a checked send becomes, in one
// transaction, a mail log (its recipients and timeline), the content to deliver, and one outbox job per
// recipient not on the suppression list; the answer is `queued` with jobId and mailLogId. Delivery is the
// worker's (delivery_worker.h).

#include "core/mail/send_request.h"
#include "core/result.h"
#include "edge/http/message.h"
#include "edge/mail/mail_http.h"
#include "edge/platform/idempotency.h"

namespace edge {
struct App;
}

namespace edge::mail {

// Checks what needs the store (domain of the company and verified, `from` on it, template and its
// variables) and writes the send through `idem`. The response is the envelope to send: 201 with
// {jobId, mailLogId, status, scheduledAt?}, or the refusal (422 for an unverified or unknown domain, a
// `from` outside it, an unknown template or missing variables).
Response accept_send(App& app, const MailContext& ctx, const core::mail::SendRequest& send,
                     const IdempotentWrite& idem);

}  // namespace edge::mail
