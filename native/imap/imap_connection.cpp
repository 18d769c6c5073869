#include "native/imap/imap_connection.h"

#include <curl/curl.h>
#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <mutex>
#include <utility>
#include <vector>

namespace native::imap {
namespace {

using Clock = std::chrono::steady_clock;

struct CurlCleanup {
  void operator()(CURL* handle) const { curl_easy_cleanup(handle); }
};
using CurlHandle = std::unique_ptr<CURL, CurlCleanup>;

void init_curl() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

core::Error imap_error(std::string_view where, std::string_view reason) {
  return core::make_error("imap_error", "IMAP " + std::string(where) + ": " + std::string(reason));
}

std::string url_host(const std::string& host) {
  return host.find(':') != std::string::npos ? "[" + host + "]" : host;
}

}  // namespace

struct ImapConnection::State {
  CurlHandle curl;
  curl_socket_t socket = CURL_SOCKET_BAD;
  Clock::time_point deadline;
  std::string where;  // "host:port" for messages
  ResponseFramer framer;
  unsigned next_tag = 1;
  std::string bye;  // text of an untagged BYE, to explain the close that follows
  std::vector<char> chunk = std::vector<char>(std::size_t{1} << 16);

  // Waits until the socket is ready for `events` or the deadline passes.
  core::Status wait(short events) {
    for (;;) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) return imap_error(where, "timed out");
      pollfd fd{socket, events, 0};
      int ready = ::poll(&fd, 1, static_cast<int>(std::min<long long>(left, INT_MAX)));
      if (ready > 0) return {};
      if (ready < 0 && errno != EINTR) return imap_error(where, "poll failed");
    }
  }

  core::Status send(std::string_view bytes) {
    while (!bytes.empty()) {
      std::size_t sent = 0;
      CURLcode rc = curl_easy_send(curl.get(), bytes.data(), bytes.size(), &sent);
      if (rc == CURLE_AGAIN) {
        CORE_TRY(wait(POLLOUT));
        continue;
      }
      if (rc != CURLE_OK) return imap_error(where, std::string("send failed: ") + curl_easy_strerror(rc));
      bytes.remove_prefix(sent);
    }
    return {};
  }

  core::Result<ImapResponse> receive() {
    for (;;) {
      auto framed = framer.next();
      if (!framed.ok()) return framed.error();
      if (*framed) {
        auto parsed = parse_response(**framed);
        if (!parsed.ok()) return imap_error(where, parsed.error().message);
        if (parsed->tag == "*" && parsed->status == "BYE") bye = parsed->text;
        return parsed;
      }
      std::size_t received = 0;
      CURLcode rc = curl_easy_recv(curl.get(), chunk.data(), chunk.size(), &received);
      if (rc == CURLE_AGAIN) {
        CORE_TRY(wait(POLLIN));
        continue;
      }
      if (rc != CURLE_OK) return imap_error(where, std::string("receive failed: ") + curl_easy_strerror(rc));
      if (received == 0)
        return imap_error(where, bye.empty() ? "connection closed by the server" : "server closed: " + bye);
      framer.append(std::string_view(chunk.data(), received));
    }
  }

  // Reads responses up to the completion tagged `tag`, collecting the untagged ones into `result`. With
  // `stop_at_continuation`, a continuation request also ends the wait (returns true).
  core::Result<bool> collect(const std::string& tag, CommandResult& result, bool stop_at_continuation) {
    for (;;) {
      auto response = receive();
      if (!response.ok()) return response.error();
      if (response->tag == tag) {
        result.completion = std::move(*response);
        return false;
      }
      if (response->tag == "*") {
        result.untagged.push_back(std::move(*response));
        continue;
      }
      if (response->tag == "+" && stop_at_continuation) return true;
      return imap_error(where, "unexpected response: " + response->tag);
    }
  }

  std::string new_tag() { return "p" + std::to_string(next_tag++); }
};

ImapConnection::ImapConnection(std::unique_ptr<State> state) : state_(std::move(state)) {}
ImapConnection::ImapConnection(ImapConnection&&) noexcept = default;
ImapConnection& ImapConnection::operator=(ImapConnection&&) noexcept = default;
ImapConnection::~ImapConnection() = default;

core::Result<ImapConnection> ImapConnection::open(const ImapAccount& account) {
  init_curl();
  auto state = std::make_unique<State>();
  state->deadline = Clock::now() + account.timeout;
  state->where = url_host(account.host) + ":" + std::to_string(account.port);
  bool host_ok = !account.host.empty() && std::all_of(account.host.begin(), account.host.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '-' || c == ':';
  });
  if (account.port < 1 || account.port > 65535 || !host_ok)
    return imap_error(state->where, "invalid host or port");
  state->curl.reset(curl_easy_init());
  CURL* curl = state->curl.get();
  if (curl == nullptr) return imap_error(state->where, "cannot create a curl handle");

  std::string url = "imap://" + state->where + "/";
  long timeout_ms = static_cast<long>(std::max<long long>(1, account.timeout.count()));
  char error_text[CURL_ERROR_SIZE] = {};
  bool set = curl_easy_setopt(curl, CURLOPT_URL, url.c_str()) == CURLE_OK &&
             curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "imap") == CURLE_OK &&
             curl_easy_setopt(curl, CURLOPT_USERNAME, account.login.c_str()) == CURLE_OK &&
             curl_easy_setopt(curl, CURLOPT_PASSWORD, account.password.c_str()) == CURLE_OK &&
             curl_easy_setopt(curl, CURLOPT_CONNECT_ONLY, 1L) == CURLE_OK &&
             curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L) == CURLE_OK &&
             curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, timeout_ms) == CURLE_OK &&
             curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error_text) == CURLE_OK;
  if (!set) return imap_error(state->where, "cannot configure curl");

  CURLcode rc = curl_easy_perform(curl);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, nullptr);  // error_text goes out of scope
  if (rc == CURLE_LOGIN_DENIED) return imap_error(state->where, "login refused for " + account.login);
  if (rc == CURLE_OPERATION_TIMEDOUT) return imap_error(state->where, "timed out");
  if (rc != CURLE_OK)
    return imap_error(state->where, std::string(curl_easy_strerror(rc)) +
                                        (error_text[0] != '\0' ? std::string(": ") + error_text : ""));
  if (curl_easy_getinfo(curl, CURLINFO_ACTIVESOCKET, &state->socket) != CURLE_OK ||
      state->socket == CURL_SOCKET_BAD)
    return imap_error(state->where, "no connected socket");
  return ImapConnection(std::move(state));
}

core::Result<CommandResult> ImapConnection::run(std::string_view command) {
  std::string tag = state_->new_tag();
  CORE_TRY(state_->send(tag + " " + std::string(command) + "\r\n"));
  CommandResult result;
  auto done = state_->collect(tag, result, false);
  if (!done.ok()) return done.error();
  return result;
}

core::Result<CommandResult> ImapConnection::run_with_literal(std::string_view command,
                                                             std::string_view literal) {
  std::string tag = state_->new_tag();
  CORE_TRY(state_->send(tag + " " + std::string(command) + " {" + std::to_string(literal.size()) + "}\r\n"));
  CommandResult result;
  auto continuing = state_->collect(tag, result, true);
  if (!continuing.ok()) return continuing.error();
  if (!*continuing) return result;  // completed without wanting the bytes
  CORE_TRY(state_->send(literal));
  CORE_TRY(state_->send("\r\n"));
  auto done = state_->collect(tag, result, false);
  if (!done.ok()) return done.error();
  return result;
}

void ImapConnection::logout() {
  if (state_ == nullptr) return;
  (void)run("LOGOUT");
}

}  // namespace native::imap
