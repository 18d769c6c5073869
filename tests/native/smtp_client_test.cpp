// SMTP delivery with libcurl against a real server: python3-aiosmtpd through the SmtpSink fixture, which
// stores what it accepts and refuses chosen recipients at RCPT or after DATA. Each case starts its own
// sink, so what it finds in the Maildir is its own.

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "native/mail/dkim_key.h"
#include "native/mail/dkim_signer.h"
#include "native/mail/mime_message.h"
#include "native/mail/smtp_client.h"
#include "tests/native/dnsmasq_zone.h"
#include "tests/native/mail_test_util.h"
#include "tests/native/smtp_sink.h"

using namespace std::chrono_literals;
using native::mail::SmtpOutcome;
using native::mail::SmtpTarget;
using Kind = SmtpOutcome::Kind;

namespace {

constexpr std::string_view kHelo = "mail.example.test";
constexpr std::string_view kBounces = "bounces+ml_01hf3k2v9q@example.test";

std::unique_ptr<test_smtp::SmtpSink> start_sink(const test_smtp::SmtpSinkOptions& options = {}) {
  std::string failure;
  auto sink = test_smtp::SmtpSink::start(options, failure);
  REQUIRE_MESSAGE(sink != nullptr, failure);
  return sink;
}

SmtpTarget target_of(const test_smtp::SmtpSink& sink) {
  return {sink.host(), sink.port()};
}

// The sample message with a 300 KB attachment of random bytes, DKIM-signed: what the worker sends.
std::string large_signed_message() {
  native::mail::OutgoingMessage m = mail_test::sample_message();
  std::mt19937 random(42);
  std::string bytes(300 * 1024, '\0');
  for (char& c : bytes) c = static_cast<char>(random());
  m.attachments = {{"data.bin", "application/octet-stream", bytes}};
  auto built = native::mail::build_mime(m);
  REQUIRE(built.ok());
  auto key = native::mail::generate_dkim_key(2048);
  REQUIRE(key.ok());
  auto signed_message = native::mail::dkim_sign(*built, {"example.test", "s1", key->private_key_pem});
  REQUIRE(signed_message.ok());
  return *signed_message;
}

std::string small_message() {
  auto built = native::mail::build_mime(mail_test::sample_message());
  REQUIRE(built.ok());
  return *built;
}

// A TCP socket listening on 127.0.0.1 and a port the kernel picks.
class Listener {
 public:
  Listener() {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    REQUIRE(::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    REQUIRE(::listen(fd_, 8) == 0);
    REQUIRE(::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) == 0);
    port_ = ntohs(addr.sin_port);
  }
  ~Listener() { ::close(fd_); }
  int fd() const { return fd_; }
  int port() const { return port_; }

 private:
  int fd_ = -1;
  int port_ = 0;
};

// An SMTP peer that follows a script, for replies aiosmtpd will not send: it accepts one connection, sends
// `greeting`, and answers each command line with the next of `replies` (the message after a 354 counts as
// one command, answered when its final "." arrives); when the script is out it closes the connection.
class ScriptedServer {
 public:
  ScriptedServer(std::string greeting, std::vector<std::string> replies)
      : greeting_(std::move(greeting)), replies_(std::move(replies)), thread_([this] { serve(); }) {}
  ~ScriptedServer() { thread_.join(); }
  int port() const { return listener_.port(); }
  // The command lines received, without CRLF; complete once the client has finished.
  std::vector<std::string> commands() {
    std::lock_guard lock(mutex_);
    return commands_;
  }

 private:
  void serve() {
    pollfd ready{listener_.fd(), POLLIN, 0};
    if (::poll(&ready, 1, 10000) != 1) return;
    const int fd = ::accept(listener_.fd(), nullptr, nullptr);
    if (fd < 0) return;
    auto send_line = [fd](std::string text) {
      text += "\r\n";
      return ::send(fd, text.data(), text.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(text.size());
    };
    std::string buffer;
    std::size_t next = 0;
    bool in_data = false;
    bool open = send_line(greeting_);
    while (open && next < replies_.size()) {
      char chunk[4096];
      const ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
      if (n <= 0) break;
      buffer.append(chunk, static_cast<std::size_t>(n));
      for (auto eol = buffer.find("\r\n"); open && next < replies_.size() && eol != std::string::npos;
           eol = buffer.find("\r\n")) {
        const std::string line = buffer.substr(0, eol);
        buffer.erase(0, eol + 2);
        if (in_data && line != ".") continue;
        if (!in_data) {
          std::lock_guard lock(mutex_);
          commands_.push_back(line);
        }
        in_data = replies_[next].starts_with("354");
        open = send_line(replies_[next++]);
      }
    }
    ::close(fd);
  }

  Listener listener_;
  const std::string greeting_;
  const std::vector<std::string> replies_;
  std::mutex mutex_;
  std::vector<std::string> commands_;
  std::thread thread_;  // last: starts once everything it uses exists
};

}  // namespace

TEST_SUITE("smtp") {
  TEST_CASE("delivered: the signed message lands in the Maildir byte for byte, with its envelope") {
    auto sink = start_sink();
    const std::string message = large_signed_message();
    const SmtpOutcome sent =
        native::mail::smtp_send(target_of(*sink), kBounces, "zoe@dest.test", message, 10s, kHelo);
    CHECK(sent.kind == Kind::delivered);
    CHECK(sent.code == 250);
    CHECK(sent.reply == "250 2.0.0 queued as 1");

    const auto received = sink->received();
    REQUIRE(received.size() == 1);
    CHECK(received[0].mail_from == kBounces);
    CHECK(received[0].rcpt_to == std::vector<std::string>{"zoe@dest.test"});
    CHECK(received[0].data.size() == message.size());
    CHECK(received[0].data == message);  // lines starting with '.' included: dot-stuffing was undone
  }

  TEST_CASE("one transaction per recipient; the null reverse-path for bounces") {
    auto sink = start_sink();
    const std::string message = small_message();
    for (const char* rcpt : {"zoe@dest.test", "bob@dest.test"})
      CHECK(native::mail::smtp_send(target_of(*sink), "", rcpt, message, 10s, kHelo).kind == Kind::delivered);
    const auto received = sink->received();
    REQUIRE(received.size() == 2);
    CHECK(received[0].rcpt_to == std::vector<std::string>{"zoe@dest.test"});
    CHECK(received[1].rcpt_to == std::vector<std::string>{"bob@dest.test"});
    CHECK(received[0].mail_from.empty());
    CHECK(received[1].data == message);
  }

  TEST_CASE("refused at RCPT: 450 is transient, 550 permanent, each with the server's reply") {
    auto sink = start_sink({.tempfail_rcpt = {"later@dest.test"},
                            .permfail_rcpt = {"nobody@dest.test"},
                            .multiline_rcpt = {"gone@dest.test"}});
    const std::string message = small_message();
    const SmtpOutcome later =
        native::mail::smtp_send(target_of(*sink), kBounces, "later@dest.test", message, 10s, kHelo);
    CHECK(later.kind == Kind::transient);
    CHECK(later.code == 450);
    CHECK(later.reply == test_smtp::kTempfailRcptReply);
    const SmtpOutcome nobody =
        native::mail::smtp_send(target_of(*sink), kBounces, "Nobody@dest.test", message, 10s, kHelo);
    CHECK(nobody.kind == Kind::permanent);
    CHECK(nobody.code == 550);
    CHECK(nobody.reply == test_smtp::kPermfailRcptReply);
    const SmtpOutcome gone =
        native::mail::smtp_send(target_of(*sink), kBounces, "gone@dest.test", message, 10s, kHelo);
    CHECK(gone.kind == Kind::permanent);
    CHECK(gone.code == 550);
    CHECK(gone.reply == test_smtp::kMultilineRcptReply);
    CHECK(sink->received().empty());
  }

  TEST_CASE("refused after DATA: 451 is transient, 554 permanent") {
    auto sink = start_sink({.tempfail_data = {"slow@dest.test"}, .permfail_data = {"spam@dest.test"}});
    const std::string message = small_message();
    const SmtpOutcome slow =
        native::mail::smtp_send(target_of(*sink), kBounces, "slow@dest.test", message, 10s, kHelo);
    CHECK(slow.kind == Kind::transient);
    CHECK(slow.code == 451);
    CHECK(slow.reply == test_smtp::kTempfailDataReply);
    const SmtpOutcome spam =
        native::mail::smtp_send(target_of(*sink), kBounces, "spam@dest.test", message, 10s, kHelo);
    CHECK(spam.kind == Kind::permanent);
    CHECK(spam.code == 554);
    CHECK(spam.reply == test_smtp::kPermfailDataReply);
    CHECK(sink->received().empty());
  }

  TEST_CASE("nothing listening: transient, no code, libcurl's reason") {
    const int port = test_dns::free_port();
    REQUIRE(port != 0);
    const SmtpOutcome sent =
        native::mail::smtp_send({"127.0.0.1", port}, kBounces, "zoe@dest.test", small_message(), 5s, kHelo);
    CHECK(sent.kind == Kind::transient);
    CHECK(sent.code == 0);
    CHECK(sent.reply.find("onnect") != std::string::npos);
  }

  TEST_CASE("a server that never answers: transient once the timeout has passed") {
    Listener silent;  // connections complete in the kernel's backlog; nobody speaks
    const auto start = std::chrono::steady_clock::now();
    const SmtpOutcome sent = native::mail::smtp_send({"127.0.0.1", silent.port()}, kBounces, "zoe@dest.test",
                                                     small_message(), 300ms, kHelo);
    const auto took = std::chrono::steady_clock::now() - start;
    CHECK(sent.kind == Kind::transient);
    CHECK(sent.code == 0);
    CHECK(sent.reply.find("timed out") != std::string::npos);
    CHECK(took >= 250ms);
    CHECK(took < 3s);
  }

  TEST_CASE("the greeting decides too: 421 is transient, 554 permanent") {
    ScriptedServer busy("421 4.3.2 too busy, come back later", {});
    const SmtpOutcome later = native::mail::smtp_send({"127.0.0.1", busy.port()}, kBounces, "zoe@dest.test",
                                                      small_message(), 5s, kHelo);
    CHECK(later.kind == Kind::transient);
    CHECK(later.code == 421);
    CHECK(later.reply == "421 4.3.2 too busy, come back later");
    ScriptedServer closed("554 5.7.1 no service for you", {});
    const SmtpOutcome refused = native::mail::smtp_send({"127.0.0.1", closed.port()}, kBounces,
                                                        "zoe@dest.test", small_message(), 5s, kHelo);
    CHECK(refused.kind == Kind::permanent);
    CHECK(refused.code == 554);
  }

  TEST_CASE("a refused EHLO falls back to HELO and does not decide the outcome") {
    ScriptedServer old_server("220 old.test ready",
                              {"502 5.5.1 EHLO not implemented", "250 old.test", "250 2.1.0 ok",
                               "250 2.1.5 ok", "354 go ahead", "250 2.0.0 accepted", "221 2.0.0 bye"});
    const SmtpOutcome sent = native::mail::smtp_send({"127.0.0.1", old_server.port()}, kBounces,
                                                     "zoe@dest.test", small_message(), 5s, kHelo);
    CHECK(sent.kind == Kind::delivered);
    CHECK(sent.code == 250);
    CHECK(sent.reply == "250 2.0.0 accepted");
    const auto commands = old_server.commands();
    REQUIRE(commands.size() >= 5);
    CHECK(commands[0] == "EHLO mail.example.test");
    CHECK(commands[1] == "HELO mail.example.test");
    CHECK(commands[2].starts_with("MAIL FROM:<bounces+ml_01hf3k2v9q@example.test>"));
    CHECK(commands[3] == "RCPT TO:<zoe@dest.test>");
    CHECK(commands[4] == "DATA");
  }

  TEST_CASE("a hostile reply is cut to 4 KB of printable ASCII") {
    std::string flood;
    for (int i = 0; i < 300; ++i) flood += "550-5.7.1 " + std::string(100, 'x') + "\x01\xff\r\n";
    flood += "550 5.7.1 end";
    ScriptedServer hostile("220 hostile.test", {"250 hostile.test", "250 ok", flood});
    const SmtpOutcome sent = native::mail::smtp_send({"127.0.0.1", hostile.port()}, kBounces, "zoe@dest.test",
                                                     small_message(), 5s, kHelo);
    CHECK(sent.kind == Kind::permanent);
    CHECK(sent.code == 550);
    CHECK(sent.reply.size() <= 4096);
    CHECK(sent.reply.starts_with("550-5.7.1 xxx"));
    CHECK(sent.reply.find("x??\n550-") != std::string::npos);
    CHECK(std::all_of(sent.reply.begin(), sent.reply.end(),
                      [](char c) { return c == '\n' || (c >= ' ' && c < 127); }));
  }

  TEST_CASE(
      "malformed addresses are permanent before any connection; a bad HELO name or target is transient") {
    // A closed port: reaching it would be a transient connection failure, so `permanent` shows nothing was
    // tried.
    const SmtpTarget closed{"127.0.0.1", test_dns::free_port()};
    const std::string message = small_message();
    for (std::string_view rcpt : {std::string_view(""), std::string_view("a@b.test>\r\nRCPT TO:<c@d.test"),
                                  std::string_view("a b@dest.test"), std::string_view("<zoe@dest.test>")}) {
      CAPTURE(rcpt);
      const SmtpOutcome sent = native::mail::smtp_send(closed, kBounces, rcpt, message, 5s, kHelo);
      CHECK(sent.kind == Kind::permanent);
      CHECK(sent.code == 0);
      CHECK(sent.reply == "invalid recipient address");
    }
    CHECK(native::mail::smtp_send(closed, "a@b.test\r\nDATA", "zoe@dest.test", message, 5s, kHelo).kind ==
          Kind::permanent);
    for (std::string_view helo :
         {std::string_view(""), std::string_view("bad name"), std::string_view("a/b")}) {
      CAPTURE(helo);
      const SmtpOutcome sent = native::mail::smtp_send(closed, kBounces, "zoe@dest.test", message, 5s, helo);
      CHECK(sent.kind == Kind::transient);
      CHECK(sent.reply == "invalid HELO name");
    }
    CHECK(native::mail::smtp_send({"", 25}, kBounces, "zoe@dest.test", message, 5s, kHelo).kind ==
          Kind::transient);
    CHECK(native::mail::smtp_send({"127.0.0.1", 0}, kBounces, "zoe@dest.test", message, 5s, kHelo).kind ==
          Kind::transient);
  }

  TEST_CASE("an address literal as HELO name and several senders at once") {
    auto sink = start_sink();
    constexpr int kThreads = 4, kEach = 3;
    const std::string message = small_message();
    std::vector<std::vector<SmtpOutcome>> outcomes(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        for (int i = 0; i < kEach; ++i) {
          const std::string rcpt = "t" + std::to_string(t) + "m" + std::to_string(i) + "@dest.test";
          outcomes[t].push_back(
              native::mail::smtp_send(target_of(*sink), kBounces, rcpt, message, 10s, "[127.0.0.1]"));
        }
      });
    }
    for (auto& thread : threads) thread.join();
    for (const auto& list : outcomes)
      for (const auto& outcome : list) CHECK(outcome.kind == Kind::delivered);
    const auto received = sink->received();
    CHECK(received.size() == kThreads * kEach);
    for (const auto& mail : received) CHECK(mail.data == message);
  }
}
