#include "edge/status/telegram_client.h"

#include "core/json.h"
#include "edge/platform/record_json.h"
#include "edge/status/delivery_http.h"

namespace edge::status {

bool is_bot_token(std::string_view token) {
  if (token.empty() || token.size() > 100) return false;
  const auto colon = token.find(':');
  if (colon == 0 || colon == std::string_view::npos || colon + 1 == token.size()) return false;
  for (std::size_t i = 0; i < colon; ++i)
    if (token[i] < '0' || token[i] > '9') return false;
  for (std::size_t i = colon + 1; i < token.size(); ++i) {
    const char c = token[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
      return false;
  }
  return true;
}

bool is_chat_id(std::string_view id) {
  if (id.empty() || id.size() > 64) return false;
  if (id.front() == '@') {
    if (id.size() < 2) return false;
    for (char c : id.substr(1))
      if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
        return false;
    return true;
  }
  std::string_view digits = id.front() == '-' ? id.substr(1) : id;
  if (digits.empty() || digits.size() > 20) return false;
  for (char c : digits)
    if (c < '0' || c > '9') return false;
  return true;
}

TelegramOutcome telegram_send_message(std::string_view api_base, std::string_view bot_token,
                                      std::string_view chat_id, std::string_view text,
                                      std::chrono::milliseconds timeout) {
  std::string base(api_base);
  while (!base.empty() && base.back() == '/') base.pop_back();
  const std::string url = base + "/bot" + std::string(bot_token) + "/sendMessage";
  core::json::object body{{"chat_id", chat_id}, {"text", text}, {"disable_web_page_preview", true}};
  auto r = http_post(url, core::to_json(body), {{"Content-Type", "application/json"}}, timeout);
  TelegramOutcome out;
  out.status = r.status;
  if (r.status == 0) {
    out.retry = true;
    out.error = "Telegram did not answer: " + r.error;
    return out;
  }
  auto answer = core::parse_json_object(r.answer);
  const bool ok =
      answer && answer->contains("ok") && answer->at("ok").is_bool() && answer->at("ok").get_bool();
  if (r.status >= 200 && r.status < 300 && ok) {
    out.ok = true;
    return out;
  }
  out.retry = r.status == 429 || r.status >= 500;
  std::string description = answer ? record::str(*answer, "description") : std::string();
  out.error = "Telegram answered " + std::to_string(r.status) +
              (description.empty() ? std::string() : ": " + answer_excerpt(description));
  return out;
}

}  // namespace edge::status
