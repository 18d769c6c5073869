#include "edge/status/delivery_channels.h"

#include <charconv>

#include "core/status/webhook.h"
#include "edge/app.h"
#include "edge/status/delivery_http.h"
#include "native/mail/mime_message.h"
#include "native/mail/smtp_client.h"

namespace edge::status {
namespace {

std::string host_of(std::string_view url) {
  if (auto p = url.find("://"); p != std::string_view::npos) url.remove_prefix(p + 3);
  return std::string(url.substr(0, url.find_first_of(":/")));
}

const std::string& relay_of(const App& app) {
  return app.config.status.smtp_relay.empty() ? app.config.mail.relay : app.config.status.smtp_relay;
}

native::mail::SmtpTarget relay_target(const std::string& relay) {
  auto colon = relay.rfind(':');
  if (colon == std::string::npos) return {relay, 25};
  int port = 25;
  std::from_chars(relay.data() + colon + 1, relay.data() + relay.size(), port);
  return {relay.substr(0, colon), port};
}

// A bare address: the From header and the envelope sender alike.
std::string status_mail_from(const App& app) {
  if (!app.config.status.mail_from.empty()) return app.config.status.mail_from;
  std::string host = host_of(app.config.status_url);
  if (host.find_first_not_of("0123456789.") == std::string::npos || host.find('.') == std::string::npos)
    host = "status.localhost.localdomain";
  return "status@" + host;
}

}  // namespace

ChannelOutcome post_webhook(const App& app, const std::string& url, const std::string& body,
                            std::string_view event, std::string_view management_token,
                            std::string_view delivery_id) {
  auto r = http_post(
      url, body,
      {{"Content-Type", "application/json"},
       {std::string(core::status::kEventHeader), std::string(event)},
       {std::string(core::status::kSignatureHeader), core::status::sign_webhook(body, management_token)},
       {"X-Service-Delivery", std::string(delivery_id)}},
      std::chrono::milliseconds(app.config.status.delivery_timeout_ms));
  ChannelOutcome out;
  out.status = r.status;
  if (r.status >= 200 && r.status < 300) {
    out.kind = ChannelOutcome::Kind::delivered;
  } else if (r.status != 0) {
    out.error = "HTTP " + std::to_string(r.status);
    if (!r.answer.empty()) out.error += ": " + answer_excerpt(r.answer);
  } else {
    out.error = r.error;
  }
  return out;
}

bool status_mail_configured(const App& app) {
  return !relay_of(app).empty();
}

ChannelOutcome send_status_mail(const App& app, const std::string& to, const std::string& subject,
                                const std::string& text, const std::string& message_id, std::int64_t date_ms,
                                const std::vector<std::pair<std::string, std::string>>& headers) {
  ChannelOutcome out;
  native::mail::OutgoingMessage m;
  const std::string from = status_mail_from(app);
  m.from = from;
  m.to = {to};
  m.subject = subject;
  m.text = text;
  m.message_id = message_id;
  m.date_ms = date_ms;
  auto mime = native::mail::build_mime(m);
  if (!mime) {
    out.kind = ChannelOutcome::Kind::failed;
    out.error = mime.error().message;
    return out;
  }
  // Written as they are, above GMime's header: GMime encodes a header it cannot fold (a URL longer than a
  // line has no space to fold at) as RFC 2047 words, which no mail client reads as a List-Unsubscribe URL.
  std::string raw;
  for (const auto& [name, value] : headers) {
    if (value.find_first_of("\r\n") != std::string::npos) continue;
    raw += name + ": " + value + "\r\n";
  }
  mime->insert(0, raw);
  std::string helo =
      app.config.mail.helo_name.empty() ? host_of(app.config.status_url) : app.config.mail.helo_name;
  if (helo.empty()) helo = "localhost";
  auto r = native::mail::smtp_send(relay_target(relay_of(app)), from, to, *mime,
                                   std::chrono::milliseconds(app.config.mail.smtp_timeout_ms), helo);
  out.status = r.code;
  switch (r.kind) {
    case native::mail::SmtpOutcome::Kind::delivered:
      out.kind = ChannelOutcome::Kind::delivered;
      break;
    case native::mail::SmtpOutcome::Kind::permanent:
      out.kind = ChannelOutcome::Kind::failed;
      out.error = r.reply;
      break;
    case native::mail::SmtpOutcome::Kind::transient:
      out.error = r.reply;
      break;
  }
  return out;
}

}  // namespace edge::status
