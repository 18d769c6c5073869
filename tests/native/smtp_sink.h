#pragma once
// A real SMTP server that captures mail, for the native mail tests and the edge's delivery tests:
// python3-aiosmtpd (Debian's, run with /usr/bin/python3) with the handler in smtp_sink.py, on 127.0.0.1
// and a port the kernel picks, writing each accepted message into a Maildir of its own temporary folder.
// Chosen recipients can be refused, at RCPT or after DATA, with the replies below. No doctest here: link
// the `native_test_servers` library.

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tests/native/child_process.h"
#include "tests/native/temp_dir.h"

namespace test_smtp {

// The replies of the scripted refusals (smtp_sink.py sends exactly these).
inline constexpr std::string_view kTempfailRcptReply = "450 4.2.1 try later";
inline constexpr std::string_view kPermfailRcptReply = "550 5.1.1 no such user";
// Two lines on the wire (`550-...` then `550 ...`); here as SmtpOutcome::reply gives them, joined by LF.
inline constexpr std::string_view kMultilineRcptReply =
    "550-5.1.1 The account you tried to reach does not exist.\n550 5.1.1 Check the address.";
inline constexpr std::string_view kTempfailDataReply = "451 4.3.0 try again later";
inline constexpr std::string_view kPermfailDataReply = "554 5.7.1 message refused";

struct SmtpSinkOptions {
  std::vector<std::string> tempfail_rcpt{};       // RCPT TO these answers kTempfailRcptReply
  std::vector<std::string> permfail_rcpt{};       // RCPT TO these answers kPermfailRcptReply
  std::vector<std::string> multiline_rcpt{};      // RCPT TO these answers kMultilineRcptReply
  std::vector<std::string> tempfail_rcpt_once{};  // the first RCPT TO one of these: kTempfailRcptReply
  std::vector<std::string> tempfail_data{};  // a message to one of these gets kTempfailDataReply after DATA
  std::vector<std::string> permfail_data{};  // ... kPermfailDataReply
};

struct ReceivedMail {
  std::string mail_from;             // the reverse-path without brackets ("" for the null path <>)
  std::vector<std::string> rcpt_to;  // accepted recipients, without brackets
  std::string data;                  // the message exactly as received (dot-stuffing undone, CRLF kept)
};

class SmtpSink {
 public:
  // Starts the server and waits until it accepts connections (about 0.3 s). Null, with the reason in
  // `failure`, when it cannot be started.
  static std::unique_ptr<SmtpSink> start(const SmtpSinkOptions& options, std::string& failure);

  // Stops the server and removes its folder. The server also dies with the thread that started it
  // (test_process::ChildProcess).
  ~SmtpSink();
  SmtpSink(const SmtpSink&) = delete;
  SmtpSink& operator=(const SmtpSink&) = delete;

  std::string host() const { return "127.0.0.1"; }
  int port() const { return port_; }
  std::string maildir() const { return (dir_.path() / "Maildir").string(); }

  // Every accepted message so far, in order of arrival. A message is on disk before the server answers
  // the end of its DATA, so whatever a client was told was accepted is here.
  std::vector<ReceivedMail> received() const;

  // received() once it holds at least `count` messages, or whatever it holds after `timeout` (for
  // senders running in the background, such as the edge's delivery worker).
  std::vector<ReceivedMail> wait_for(std::size_t count, std::chrono::milliseconds timeout) const;

 private:
  SmtpSink() = default;
  store_test::TempDir dir_;
  std::unique_ptr<test_process::ChildProcess> server_;
  int port_ = 0;
};

}  // namespace test_smtp
