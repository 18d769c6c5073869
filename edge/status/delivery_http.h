#pragma once
// The HTTP POST of the subscriber channels (webhooks, the Telegram Bot API): cpp-httplib, no redirects
// followed, at most 64 KiB of the answer read, every wait bounded by `timeout`.

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace edge::status {

struct PostResult {
  int status = 0;      // 0: no answer
  std::string answer;  // the first 64 KiB of the body
  std::string error;   // the transport's reason when status is 0
};

// `url` passed core::validate_http_url.
PostResult http_post(const std::string& url, const std::string& body,
                     const std::vector<std::pair<std::string, std::string>>& headers,
                     std::chrono::milliseconds timeout);

// Printable ASCII of at most 200 bytes of an answer, for a delivery log.
std::string answer_excerpt(std::string_view body);

}  // namespace edge::status
