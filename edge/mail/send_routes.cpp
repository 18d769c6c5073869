// Mail: send (spec document 2). Permission: send.execute. Bodies up to the attachment cap in base64 plus
// room for the rest; attachments above 25 MB once decoded answer 413 as well.

#include "edge/app.h"
#include "edge/mail/mail_routes.h"
#include "edge/mail/mail_store.h"
#include "edge/mail/send.h"
#include "edge/platform/envelope.h"

namespace edge::mail {

// 25 MB of attachments in base64 (4/3) plus 2 MiB for the rest of the message.
inline constexpr std::size_t kMaxSendBody = core::mail::kMaxAttachmentBytes / 3 * 4 + 8 + (2u << 20);

void register_send_routes(App& app) {
  add_mail_route(app, "POST", "/send", "send.execute",
                 [&app](Request& req, const MailContext& ctx) {
                   IdempotentWrite idem(
                       app.mail_table, "c/" + ctx.co().id + "/idem",
                       [](int status, std::string_view code, std::string_view message) {
                         if (status == 500)
                           return envelope_error(core::Error{std::string(code), std::string(message)});
                         return envelope_error(status, message);
                       });
                   if (auto answered = idem.begin(app, req, "POST /send")) return std::move(*answered);
                   auto body = core::parse_json_object(req.body);
                   if (!body) return envelope_error(body.error());
                   auto send = core::mail::parse_send_request(*body, app.clock.now_ms());
                   if (!send) return envelope_error(send.error());
                   return accept_send(app, ctx, *send, idem);
                 },
                 {}, {.max_body = kMaxSendBody});
}

}  // namespace edge::mail
