#pragma once
// The Telegram Bot API method the subscribers use (docs/status-subscribers.md, "Telegram"):
// `POST <api base>/bot<token>/sendMessage` with {chat_id, text}. The base URL is
// Config::Status::telegram_api_base (https://api.telegram.org by default; tests point it at a local server).

#include <chrono>
#include <string>
#include <string_view>

#include "core/result.h"

namespace edge::status {

// `123456:ABC-def_...`: digits, a colon, then base64url-like characters; at most 100 characters.
bool is_bot_token(std::string_view token);
// A chat id: an integer (negative for groups) or `@channelname`.
bool is_chat_id(std::string_view chat_id);

struct TelegramOutcome {
  bool ok = false;
  bool retry = false;  // no answer, 429 or 5xx: worth another try
  int status = 0;      // HTTP status, 0 without an answer
  std::string error;   // Telegram's description, or the transport's reason
};

TelegramOutcome telegram_send_message(std::string_view api_base, std::string_view bot_token,
                                      std::string_view chat_id, std::string_view text,
                                      std::chrono::milliseconds timeout);

}  // namespace edge::status
