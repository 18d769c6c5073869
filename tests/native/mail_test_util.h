#pragma once
// What the native mail tests share: a typical outgoing message and readers for the raw bytes.

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "native/mail/mime_message.h"

namespace mail_test {

// 2023-11-14T22:13:20.000Z: "Tue, 14 Nov 2023 22:13:20 +0000".
inline constexpr std::int64_t kDateMs = 1700000000000;

// Text and HTML with non-ASCII in the subject and the display name, a reply-to and a log id header.
inline native::mail::OutgoingMessage sample_message() {
  native::mail::OutgoingMessage m;
  m.from = "Acme Störe <noreply@example.test>";
  m.to = {"Zoë Adams <zoe@dest.test>", "bob@dest.test"};
  m.reply_to = "Support <help@example.test>";
  m.subject = "Your receipt — order #42 ✓";
  m.text = "Hello Zoë,\n\nThanks for your order.\n.\nA line that starts with a dot.\n";
  m.html = "<p>Hello Zo&euml;,</p>\n<p>Thanks for your order.</p>\n";
  m.message_id = "ml_01hf3k2v9q@example.test";
  m.date_ms = kDateMs;
  m.headers = {{"X-Mail-Log-Id", "ml_01hf3k2v9q"}};
  return m;
}

// Every CR is followed by LF and every LF preceded by CR.
inline bool crlf_only(std::string_view bytes) {
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (bytes[i] == '\r' && (i + 1 == bytes.size() || bytes[i + 1] != '\n')) return false;
    if (bytes[i] == '\n' && (i == 0 || bytes[i - 1] != '\r')) return false;
  }
  return true;
}

// The length of the longest line, CRLF excluded.
inline std::size_t longest_line(std::string_view bytes) {
  std::size_t longest = 0;
  for (std::size_t pos = 0; pos < bytes.size();) {
    auto eol = bytes.find("\r\n", pos);
    if (eol == std::string_view::npos) eol = bytes.size();
    longest = std::max(longest, eol - pos);
    pos = eol + 2;
  }
  return longest;
}

// The header block, up to and including the CRLF before the empty line.
inline std::string_view header_block(std::string_view message) {
  auto end = message.find("\r\n\r\n");
  return end == std::string_view::npos ? message : message.substr(0, end + 2);
}

// The unfolded value of the first header field called `name` (compared without case), without the space
// after the colon.
inline std::optional<std::string> header_field(std::string_view message, std::string_view name) {
  std::string_view block = header_block(message);
  auto lower = [](std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
  };
  const std::string wanted = lower(name) + ":";
  for (std::size_t pos = 0; pos < block.size();) {
    auto eol = block.find("\r\n", pos);
    std::string_view line = block.substr(pos, eol - pos);
    pos = eol + 2;
    if (lower(line.substr(0, wanted.size())) != wanted) continue;
    std::string value(line.substr(wanted.size()));
    while (pos < block.size() && (block[pos] == ' ' || block[pos] == '\t')) {
      eol = block.find("\r\n", pos);
      value += block.substr(pos, eol - pos);
      pos = eol + 2;
    }
    if (!value.empty() && value.front() == ' ') value.erase(0, 1);
    return value;
  }
  return std::nullopt;
}

}  // namespace mail_test
