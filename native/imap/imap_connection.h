#pragma once
// One logged-in IMAP session. libcurl connects and logs in (CURLOPT_CONNECT_ONLY: greeting, CAPABILITY,
// AUTHENTICATE PLAIN); commands and responses then go through curl_easy_send/curl_easy_recv with our own
// tags, and ResponseFramer counts literal bytes. Why not curl's custom requests (CURLOPT_CUSTOMREQUEST):
// curl ends a custom command at the first line that starts with its tag, even inside a literal, so a message
// body holding a line such as "A004 OK" cut a fetch short while curl reported success (checked with curl
// 7.88; docs/mailboxes.md, "IMAP client").

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "native/imap/imap_client.h"
#include "native/imap/imap_response.h"

namespace native::imap {

// The responses to one command: the untagged ones in arrival order, then its tagged completion.
struct CommandResult {
  std::vector<ImapResponse> untagged;
  ImapResponse completion;
  bool ok() const { return completion.status == "OK"; }
};

class ImapConnection {
 public:
  // Connects and logs in. The account's timeout starts now and bounds everything done with the connection.
  // Errors: `imap_error` (cannot connect, login refused, deadline passed).
  static core::Result<ImapConnection> open(const ImapAccount& account);

  ImapConnection(ImapConnection&&) noexcept;
  ImapConnection& operator=(ImapConnection&&) noexcept;
  ~ImapConnection();

  // Sends `command` (no tag, no line end, no literal) and reads up to its tagged completion. A NO or BAD
  // completion is a result for the caller to judge. Errors: `imap_error` when the connection fails or
  // closes, the deadline passes or a response cannot be parsed.
  core::Result<CommandResult> run(std::string_view command);

  // `command` followed by a synchronizing literal holding `literal` (RFC 3501 §7.5): the bytes are sent
  // only after the server's continuation request. When the server completes the command instead (APPEND
  // over quota: `NO [OVERQUOTA]`), that completion is returned and the bytes are never sent.
  core::Result<CommandResult> run_with_literal(std::string_view command, std::string_view literal);

  // Sends LOGOUT and waits for its completion, ignoring failures; the connection closes on destruction
  // either way.
  void logout();

 private:
  struct State;
  explicit ImapConnection(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace native::imap
