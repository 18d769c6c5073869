#include "native/mail/smtp_client.h"

#include <curl/curl.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "core/ascii.h"
#include "native/os/curl_handles.h"

namespace native::mail {
namespace {

SmtpOutcome outcome(SmtpOutcome::Kind kind, int code, std::string reply) {
  return SmtpOutcome{kind, code, std::move(reply)};
}

// Printable ASCII without space and angle brackets: what a path inside `<...>` may hold here. CR, LF and
// NUL especially: they would let an address inject SMTP commands.
bool is_path_text(std::string_view address) {
  return std::all_of(address.begin(), address.end(),
                     [](char c) { return c > ' ' && c < 127 && c != '<' && c != '>'; });
}

bool is_host_text(std::string_view host) {
  return !host.empty() && host.size() <= 253 && std::all_of(host.begin(), host.end(), [](char c) {
    return core::is_ascii_alnum(c) || c == '.' || c == '-' || c == ':';
  });
}

// A host name, or an address literal in brackets (RFC 5321 §4.1.3).
bool is_helo_text(std::string_view name) {
  if (name.size() > 2 && name.front() == '[' && name.back() == ']')
    return is_host_text(name.substr(1, name.size() - 2));
  return is_host_text(name) && name.find(':') == std::string_view::npos;
}

// The replies the server sent up to our QUIT, seen through libcurl's debug callback: libcurl reports a
// reply code (CURLINFO_RESPONSE_CODE) but not its text, and it sends QUIT itself after a refusal, so the
// `221` that answers QUIT must not replace the reply that decided. The text comes from an untrusted server
// and ends up in logs and webhooks: it is kept to printable ASCII ('?' for anything else, RFC 5321 replies
// are ASCII) and to kMaxReply bytes, however much the server sends.
struct Transcript {
  static constexpr std::size_t kMaxReply = 4096;
  std::string line;        // the line being received
  std::string reply;       // the lines of the reply being received, joined by LF
  std::string last_reply;  // the last complete reply before QUIT
  int last_code = 0;
  bool quit_sent = false;

  void sent(std::string_view command) {
    if (command.size() >= 4 && core::ascii_iequals(command.substr(0, 4), "QUIT")) quit_sent = true;
  }

  void received(std::string_view bytes) {
    if (quit_sent) return;
    for (char c : bytes) {
      if (c == '\n') {
        end_line();
      } else if (c != '\r' && line.size() < kMaxReply) {
        line.push_back(c >= ' ' && c < 127 ? c : '?');
      }
    }
  }

 private:
  void end_line() {
    if (reply.size() < kMaxReply) {
      if (!reply.empty()) reply.push_back('\n');
      reply.append(line, 0, kMaxReply - reply.size());
    }
    const bool more = line.size() >= 4 && line[3] == '-';  // `250-...`: more lines follow
    if (!more) {
      last_code = line.size() >= 3 && std::all_of(line.begin(), line.begin() + 3, core::is_ascii_digit)
                      ? (line[0] - '0') * 100 + (line[1] - '0') * 10 + (line[2] - '0')
                      : 0;
      last_reply = std::move(reply);
      reply.clear();
    }
    line.clear();
  }
};

int on_debug(CURL*, curl_infotype type, char* data, size_t size, void* user) {
  auto* transcript = static_cast<Transcript*>(user);
  if (type == CURLINFO_HEADER_OUT) transcript->sent(std::string_view(data, size));
  if (type == CURLINFO_HEADER_IN) transcript->received(std::string_view(data, size));
  return 0;
}

struct Upload {
  std::string_view data;
  std::size_t offset = 0;
};

size_t on_read(char* buffer, size_t size, size_t count, void* user) {
  auto* upload = static_cast<Upload*>(user);
  const std::size_t n = std::min(size * count, upload->data.size() - upload->offset);
  std::memcpy(buffer, upload->data.data() + upload->offset, n);
  upload->offset += n;
  return n;
}

}  // namespace

SmtpOutcome smtp_send(const SmtpTarget& target, std::string_view mail_from, std::string_view rcpt_to,
                      std::string_view message, std::chrono::milliseconds timeout,
                      std::string_view helo_name) {
  using Kind = SmtpOutcome::Kind;
  // The message's fault: retrying cannot help.
  if (rcpt_to.empty() || !is_path_text(rcpt_to))
    return outcome(Kind::permanent, 0, "invalid recipient address");
  if (!is_path_text(mail_from)) return outcome(Kind::permanent, 0, "invalid sender address");
  // Ours (configuration or a strange MX name): not the recipient's, so not a reason to bounce.
  if (!is_host_text(target.host) || target.port < 1 || target.port > 65535)
    return outcome(Kind::transient, 0, "invalid SMTP target " + target.host);
  if (!is_helo_text(helo_name)) return outcome(Kind::transient, 0, "invalid HELO name");
  if (timeout.count() <= 0) return outcome(Kind::transient, 0, "timeout must be positive");
  if (!curl_ready()) return outcome(Kind::transient, 0, "libcurl could not be initialised");

  std::unique_ptr<CURL, CurlCleanup> curl(curl_easy_init());
  if (curl == nullptr) return outcome(Kind::transient, 0, "libcurl could not make a handle");
  CURL* h = curl.get();

  // libcurl takes the EHLO name from the URL's path, decoded.
  std::unique_ptr<char, CurlFree> helo(
      curl_easy_escape(h, helo_name.data(), static_cast<int>(helo_name.size())));
  const bool ipv6 = target.host.find(':') != std::string::npos;
  const std::string url = "smtp://" + (ipv6 ? "[" + target.host + "]" : target.host) + ":" +
                          std::to_string(target.port) + "/" + (helo ? helo.get() : "");
  const std::string from = "<" + std::string(mail_from) + ">";
  std::unique_ptr<curl_slist, SlistFree> recipients(
      curl_slist_append(nullptr, ("<" + std::string(rcpt_to) + ">").c_str()));
  if (recipients == nullptr) return outcome(Kind::transient, 0, "out of memory");

  Transcript transcript;
  Upload upload{message};
  char error[CURL_ERROR_SIZE] = {0};
  const long timeout_ms = static_cast<long>(timeout.count());
  curl_easy_setopt(h, CURLOPT_URL, url.c_str());
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "smtp");
  curl_easy_setopt(h, CURLOPT_MAIL_FROM, from.c_str());
  curl_easy_setopt(h, CURLOPT_MAIL_RCPT, recipients.get());
  curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
  curl_easy_setopt(h, CURLOPT_READFUNCTION, on_read);
  curl_easy_setopt(h, CURLOPT_READDATA, &upload);
  curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(message.size()));
  curl_easy_setopt(h, CURLOPT_USE_SSL, static_cast<long>(CURLUSESSL_TRY));
  curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 0L);
  curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 0L);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, timeout_ms);
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
  // The closing QUIT is not bounded by CURLOPT_TIMEOUT_MS but by this (default 120 s; whole seconds).
  curl_easy_setopt(h, CURLOPT_SERVER_RESPONSE_TIMEOUT, std::max(1L, (timeout_ms + 999) / 1000));
  // Close (QUIT) inside curl_easy_perform, under the timeouts, rather than in curl_easy_cleanup.
  curl_easy_setopt(h, CURLOPT_FORBID_REUSE, 1L);
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error);
  // The debug callback only runs in verbose mode; with a callback set, nothing is printed.
  curl_easy_setopt(h, CURLOPT_VERBOSE, 1L);
  curl_easy_setopt(h, CURLOPT_DEBUGFUNCTION, on_debug);
  curl_easy_setopt(h, CURLOPT_DEBUGDATA, &transcript);

  const CURLcode result = curl_easy_perform(h);
  const int code = transcript.last_code;
  if (result == CURLE_OK && code >= 200 && code < 300)
    return outcome(Kind::delivered, code, transcript.last_reply);
  if (result != CURLE_OK && code >= 400 && code < 500)
    return outcome(Kind::transient, code, transcript.last_reply);
  if (result != CURLE_OK && code >= 500 && code < 600)
    return outcome(Kind::permanent, code, transcript.last_reply);
  std::string reason = error[0] != '\0' ? error : curl_easy_strerror(result);
  if (result == CURLE_OK) reason = "unexpected final reply: " + transcript.last_reply;
  return outcome(Kind::transient, 0, std::move(reason));
}

}  // namespace native::mail
