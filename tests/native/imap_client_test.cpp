// Platform mailboxes on a real Dovecot (tests/native/dovecot_server.h) with the platform's own
// configuration: mailbox users with argon2id hashes, the master user reading their mailboxes through the
// IMAP client (native/imap/imap_client.h), quota, and users files rewritten under a running server.
// Every case uses mailboxes of its own on one shared server.

#include <doctest/doctest.h>

#include <curl/curl.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "dovecot_server.h"
#include "native/crypto/password.h"
#include "native/imap/dovecot_users.h"
#include "native/imap/imap_client.h"

using native::imap::Folder;
using native::imap::MailboxUser;
using native::imap::MessageSummary;

namespace {

// The mailboxes every case starts with; each case owns the ones named after it.
const std::vector<std::string> kMailboxes = {
    "login@example.test", "list@example.test",  "fetch@example.test", "read@example.test",
    "trash@example.test", "quota@example.test", "sent@example.test",  "threads@example.test",
};

std::string password_of(const std::string& address) {
  return "pw-" + address.substr(0, address.find('@'));
}

std::vector<MailboxUser>& users() {
  static std::vector<MailboxUser> list;
  return list;
}

// Rewrites the users file from users() and waits until Dovecot reads it.
void publish_users(const test_imap::DovecotServer& server) {
  auto written = native::imap::write_users_file(server.paths().users_file, users());
  REQUIRE_MESSAGE(written.ok(), written.error().message);
  test_imap::DovecotServer::wait_for_passwd_reload();
}

MailboxUser mailbox(const std::string& address, std::int64_t quota_mb) {
  return MailboxUser{address, native::hash_password(password_of(address)), quota_mb};
}

test_imap::DovecotServer& server() {
  static std::string failure;
  static auto started = [] {
    auto s = test_imap::DovecotServer::start(failure);
    if (s != nullptr) {
      for (const auto& address : kMailboxes)
        users().push_back(mailbox(address, address == "quota@example.test" ? 1 : 100));
      if (!native::imap::write_users_file(s->paths().users_file, users()).ok()) s.reset();
      test_imap::DovecotServer::wait_for_passwd_reload();
    }
    return s;
  }();
  REQUIRE_MESSAGE(started != nullptr, failure);
  return *started;
}

size_t discard(char*, size_t size, size_t count, void*) {
  return size * count;
}

// Logs in with curl (LIST of the mailbox's folders) and returns curl's result: CURLE_OK or
// CURLE_LOGIN_DENIED.
CURLcode curl_login(const std::string& login, const std::string& password) {
  CURL* curl = curl_easy_init();
  std::string url = "imap://127.0.0.1:" + std::to_string(server().port()) + "/";
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_USERNAME, login.c_str());
  curl_easy_setopt(curl, CURLOPT_PASSWORD, password.c_str());
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, discard);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, 20000L);
  CURLcode rc = curl_easy_perform(curl);
  curl_easy_cleanup(curl);
  return rc;
}

std::string message(const std::string& subject, const std::string& body,
                    const std::string& from = "Bob <bob@example.org>", const std::string& date = "") {
  std::string m = "From: " + from + "\r\nTo: someone@example.test\r\nSubject: " + subject + "\r\n";
  if (!date.empty()) m += "Date: " + date + "\r\n";
  m += "Message-ID: <" + std::to_string(std::hash<std::string>()(subject + body)) + "@example.org>\r\n\r\n";
  return m + body;
}

void deliver(const std::string& address, const std::string& raw) {
  auto delivery = server().deliver(address, raw);
  REQUIRE_MESSAGE(delivery.exit_code == 0, delivery.output, server().log_tail());
}

std::vector<MessageSummary> list(const std::string& address, Folder folder,
                                 std::optional<bool> unread = std::nullopt) {
  auto listed = native::imap::list_messages(server().account(address), folder, unread);
  REQUIRE_MESSAGE(listed.ok(), listed.error().message);
  return *listed;
}

std::vector<std::uint32_t> uids(const std::vector<MessageSummary>& messages) {
  std::vector<std::uint32_t> out;
  for (const auto& m : messages) out.push_back(m.uid);
  return out;
}

// A body of about `bytes` bytes in 76-character lines.
std::string filler(std::size_t bytes) {
  std::string line = std::string(74, 'x') + "\r\n";
  std::string body;
  while (body.size() < bytes) body += line;
  return body;
}

}  // namespace

TEST_CASE("a mailbox user with an argon2id hash logs in with the right password and not a wrong one") {
  const std::string address = "login@example.test";
  server();
  CHECK(curl_login(address, password_of(address)) == CURLE_OK);
  CHECK(curl_login(address, "wrong") == CURLE_LOGIN_DENIED);
  // The platform's master login reaches the same mailbox; a wrong master password does not.
  auto account = server().account(address);
  CHECK(curl_login(account.login, account.password) == CURLE_OK);
  CHECK(curl_login(account.login, account.password + "x") == CURLE_LOGIN_DENIED);
  // A master login for a mailbox that does not exist is refused too (pass = yes).
  CHECK(curl_login(native::imap::master_login("nobody-here@example.test", "platform"), account.password) ==
        CURLE_LOGIN_DENIED);
}

TEST_CASE("the master user lists a mailbox newest first with decoded headers, all or by unread") {
  const std::string address = "list@example.test";
  CHECK(list(address, Folder::inbox).empty());
  deliver(address, message("=?UTF-8?B?SGVsbG8gd8O2cmxk?=", "first\r\n",
                           "=?ISO-8859-1?Q?J=F6rg?= <jorg@example.org>", "Mon, 24 Nov 2025 10:00:00 +0100"));
  deliver(address, message("second", "second\r\n"));
  deliver(address, message("third", "third\r\n"));

  auto all = list(address, Folder::inbox);
  REQUIRE(all.size() == 3);
  CHECK(all[0].subject == "third");
  CHECK(all[1].subject == "second");
  CHECK(all[0].uid > all[1].uid);
  CHECK(all[1].uid > all[2].uid);
  const auto& first = all[2];
  CHECK(first.subject == "Hello w\xc3\xb6rld");
  CHECK(first.from == "J\xc3\xb6rg <jorg@example.org>");
  CHECK(first.to == "someone@example.test");
  CHECK(first.date_iso == "2025-11-24T09:00:00Z");
  CHECK(first.unread);
  auto raw = native::imap::fetch_message(server().account(address), Folder::inbox, first.uid);
  REQUIRE(raw.ok());
  CHECK(first.size == raw->size());
  // No Date field: the arrival time, which is now.
  CHECK(all[0].date_iso.size() == 20);
  CHECK(all[0].date_iso.ends_with("Z"));

  REQUIRE(native::imap::mark_read(server().account(address), Folder::inbox, all[1].uid).ok());
  CHECK(uids(list(address, Folder::inbox, true)) == std::vector<std::uint32_t>{all[0].uid, all[2].uid});
  CHECK(uids(list(address, Folder::inbox, false)) == std::vector<std::uint32_t>{all[1].uid});
  CHECK(uids(list(address, Folder::inbox)) == uids(all));
  CHECK(list(address, Folder::sent, true).empty());
}

TEST_CASE("fetch returns the exact delivered bytes and leaves the message unread") {
  const std::string address = "fetch@example.test";
  // Body lines that look like IMAP responses and tags: a client that ends a command at a line starting
  // with its tag (curl's custom requests do) would cut this message short.
  std::string raw = message("exact",
                            "line one\r\np3 OK injected\r\nA004 OK injected\r\n* 9 FETCH (UID 77)\r\n{5}\r\n"
                            "\r\n.\r\nlast line without break");
  deliver(address, raw);
  auto listed = list(address, Folder::inbox);
  REQUIRE(listed.size() == 1);
  auto fetched = native::imap::fetch_message(server().account(address), Folder::inbox, listed[0].uid);
  REQUIRE_MESSAGE(fetched.ok(), fetched.error().message);
  CHECK(*fetched == raw);
  CHECK(list(address, Folder::inbox)[0].unread);

  // Several megabytes arrive in many reads; a 300 KB line needs no line buffer of that size.
  std::string big = message("big", filler(3 << 20) + std::string(300 << 10, 'y') + "\r\n");
  deliver(address, big);
  auto big_uid = list(address, Folder::inbox)[0].uid;
  auto big_fetched = native::imap::fetch_message(server().account(address), Folder::inbox, big_uid);
  REQUIRE(big_fetched.ok());
  CHECK(big_fetched->size() == big.size());
  CHECK(*big_fetched == big);
  REQUIRE(native::imap::move_to_trash(server().account(address), Folder::inbox, big_uid).ok());

  // Dovecot stores LF and serves CRLF: a message delivered with bare LF comes back with CRLF.
  deliver(address, "Subject: lf\nFrom: a@example.org\n\nbody\n");
  auto lf = list(address, Folder::inbox);
  REQUIRE(lf.size() == 2);
  auto crlf = native::imap::fetch_message(server().account(address), Folder::inbox, lf[0].uid);
  REQUIRE(crlf.ok());
  CHECK(*crlf == "Subject: lf\r\nFrom: a@example.org\r\n\r\nbody\r\n");
}

TEST_CASE("mark_read flips unread; marking a read message again succeeds") {
  const std::string address = "read@example.test";
  deliver(address, message("to read", "body\r\n"));
  auto before = list(address, Folder::inbox);
  REQUIRE(before.size() == 1);
  CHECK(before[0].unread);
  auto account = server().account(address);
  REQUIRE(native::imap::mark_read(account, Folder::inbox, before[0].uid).ok());
  CHECK_FALSE(list(address, Folder::inbox)[0].unread);
  CHECK(native::imap::mark_read(account, Folder::inbox, before[0].uid).ok());
  CHECK_FALSE(list(address, Folder::inbox)[0].unread);
}

TEST_CASE("move_to_trash moves to Trash; in Trash it deletes for good") {
  const std::string address = "trash@example.test";
  auto account = server().account(address);
  deliver(address, message("keep", "keep\r\n"));
  deliver(address, message("bin me", "bin\r\n"));
  auto inbox = list(address, Folder::inbox);
  REQUIRE(inbox.size() == 2);
  REQUIRE(inbox[0].subject == "bin me");

  REQUIRE(native::imap::move_to_trash(account, Folder::inbox, inbox[0].uid).ok());
  auto after = list(address, Folder::inbox);
  REQUIRE(after.size() == 1);
  CHECK(after[0].subject == "keep");
  auto trash = list(address, Folder::trash);
  REQUIRE(trash.size() == 1);
  CHECK(trash[0].subject == "bin me");
  CHECK(native::imap::fetch_message(account, Folder::inbox, inbox[0].uid).error().code == "not_found");
  CHECK(native::imap::move_to_trash(account, Folder::inbox, inbox[0].uid).error().code == "not_found");

  // In Trash: gone for good, and only that message.
  deliver(address, message("second bin", "bin\r\n"));
  auto second = list(address, Folder::inbox)[0];
  REQUIRE(native::imap::move_to_trash(account, Folder::inbox, second.uid).ok());
  REQUIRE(list(address, Folder::trash).size() == 2);
  REQUIRE(native::imap::move_to_trash(account, Folder::trash, trash[0].uid).ok());
  auto left = list(address, Folder::trash);
  REQUIRE(left.size() == 1);
  CHECK(left[0].subject == "second bin");
  CHECK(native::imap::move_to_trash(account, Folder::trash, trash[0].uid).error().code == "not_found");
  CHECK(list(address, Folder::inbox).size() == 1);
}

TEST_CASE("an unknown UID is not_found for fetch, mark_read and move_to_trash") {
  const std::string address = "read@example.test";
  auto account = server().account(address);
  for (std::uint32_t uid : {0u, 999u, 4294967295u}) {
    CAPTURE(uid);
    CHECK(native::imap::fetch_message(account, Folder::inbox, uid).error().code == "not_found");
    CHECK(native::imap::mark_read(account, Folder::inbox, uid).error().code == "not_found");
    CHECK(native::imap::move_to_trash(account, Folder::inbox, uid).error().code == "not_found");
    CHECK(native::imap::move_to_trash(account, Folder::trash, uid).error().code == "not_found");
  }
  // The UID of a message that exists in another folder is unknown in this one.
  deliver(address, message("only in inbox", "x\r\n"));
  auto inbox = list(address, Folder::inbox);
  CHECK(native::imap::fetch_message(account, Folder::sent, inbox[0].uid).error().code == "not_found");
}

TEST_CASE("quota: a message over the quota is refused on delivery and on APPEND") {
  const std::string address = "quota@example.test";  // 1 MB
  auto account = server().account(address);

  // Far over: dovecot-lda refuses for good (exit 77) and says why.
  auto refused = server().deliver(address, message("too big", filler(2 << 20)));
  CHECK(refused.exit_code == 77);
  CHECK(refused.output.find("Quota exceeded (mailbox for user is full)") != std::string::npos);
  CHECK(list(address, Folder::inbox).empty());

  // 600 KB fits; another 600 KB would reach 1.2 MB, past the 10% grace: APPEND is refused before the bytes
  // are sent, and so is the delivery.
  auto first =
      native::imap::append_message(account, Folder::inbox, message("fits", filler(600 << 10)), false);
  REQUIRE_MESSAGE(first.ok(), first.error().message);
  auto over = native::imap::append_message(account, Folder::inbox, message("over", filler(600 << 10)), false);
  REQUIRE_FALSE(over.ok());
  CHECK(over.error().code == "over_quota");
  CHECK(server().deliver(address, message("over", filler(600 << 10))).exit_code == 77);
  // The grace: under the quota before, a message may take the mailbox up to 110%.
  CHECK(server().deliver(address, message("grace", filler(450 << 10))).exit_code == 0);
  CHECK(native::imap::append_message(account, Folder::inbox, message("tiny", "x\r\n"), false).error().code ==
        "over_quota");
  CHECK(list(address, Folder::inbox).size() == 2);
}

TEST_CASE("Sent and Trash exist for a new mailbox; append stores a copy and returns its UID") {
  const std::string address = "sent@example.test";
  auto account = server().account(address);
  CHECK(list(address, Folder::sent).empty());
  CHECK(list(address, Folder::trash).empty());
  std::string raw = message("sent copy", "hello\r\n");
  auto uid = native::imap::append_message(account, Folder::sent, raw, true);
  REQUIRE_MESSAGE(uid.ok(), uid.error().message);
  auto sent = list(address, Folder::sent);
  REQUIRE(sent.size() == 1);
  CHECK(sent[0].uid == *uid);
  CHECK_FALSE(sent[0].unread);
  CHECK(*native::imap::fetch_message(account, Folder::sent, *uid) == raw);
  auto unread_copy = native::imap::append_message(account, Folder::sent, raw, false);
  REQUIRE(unread_copy.ok());
  CHECK(uids(list(address, Folder::sent, true)) == std::vector<std::uint32_t>{*unread_copy});
  CHECK(native::imap::append_message(account, Folder::sent, std::string("a\0b", 3), true).error().code ==
        "imap_error");
}

TEST_CASE("rewriting the users file adds, changes and removes mailboxes without restarting Dovecot") {
  auto& s = server();
  pid_t pid = s.pid();
  const std::string added = "added@example.test";
  CHECK(curl_login(added, password_of(added)) == CURLE_LOGIN_DENIED);

  users().push_back(mailbox(added, 10));
  publish_users(s);
  CHECK(curl_login(added, password_of(added)) == CURLE_OK);
  CHECK(list(added, Folder::inbox).empty());

  // Two versions of the same size within one second, Dovecot reading the first in between: only the mtime
  // the writer moves on tells Dovecot about the second.
  std::string first_hash = native::hash_password("pw-first");
  std::string second_hash = native::hash_password("pw-second");
  REQUIRE(first_hash.size() == second_hash.size());
  test_imap::DovecotServer::wait_for_passwd_reload();
  users().back().password_hash = first_hash;
  REQUIRE(native::imap::write_users_file(s.paths().users_file, users()).ok());
  CHECK(curl_login(added, "pw-first") == CURLE_OK);
  users().back().password_hash = second_hash;
  REQUIRE(native::imap::write_users_file(s.paths().users_file, users()).ok());
  test_imap::DovecotServer::wait_for_passwd_reload();
  CHECK(curl_login(added, "pw-second") == CURLE_OK);

  users().pop_back();
  publish_users(s);
  CHECK(curl_login(added, "pw-second") == CURLE_LOGIN_DENIED);
  auto gone = native::imap::list_messages(s.account(added), Folder::inbox, std::nullopt);
  REQUIRE_FALSE(gone.ok());
  CHECK(gone.error().code == "imap_error");
  CHECK(gone.error().message.find("login refused") != std::string::npos);

  CHECK(s.running());
  CHECK(s.pid() == pid);
}

TEST_CASE("calls from many threads at once each get their own session") {
  const std::string address = "threads@example.test";
  for (int i = 0; i < 3; ++i) deliver(address, message("m" + std::to_string(i), "x\r\n"));
  auto account = server().account(address);  // doctest assertions stay on this thread
  std::atomic<int> good{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 3; ++i) {
        auto listed = native::imap::list_messages(account, Folder::inbox, true);
        if (listed.ok() && listed->size() == 3) ++good;
      }
    });
  for (auto& t : threads) t.join();
  CHECK(good == 24);
}

TEST_CASE("no server or a wrong master password is imap_error") {
  auto account = server().account("list@example.test");
  auto closed = account;
  closed.port = 1;  // nothing listens there
  auto refused = native::imap::list_messages(closed, Folder::inbox, std::nullopt);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().code == "imap_error");

  auto odd_host = account;
  odd_host.host = "127.0.0.1/INBOX";
  CHECK(native::imap::list_messages(odd_host, Folder::inbox, std::nullopt).error().code == "imap_error");

  auto wrong = account;
  wrong.password = "not the master password";
  auto denied = native::imap::fetch_message(wrong, Folder::inbox, 1);
  REQUIRE_FALSE(denied.ok());
  CHECK(denied.error().code == "imap_error");
  CHECK(denied.error().message.find("login refused") != std::string::npos);

  // A deadline shorter than Dovecot's 2 s delay before a refusal ends the call first.
  wrong.timeout = std::chrono::milliseconds(300);
  auto late = native::imap::mark_read(wrong, Folder::inbox, 1);
  REQUIRE_FALSE(late.ok());
  CHECK(late.error().message.find("timed out") != std::string::npos);
}

TEST_CASE("Dovecot logged no warning or error while serving this suite") {
  std::string log = server().log();
  INFO(log);
  CHECK(log.find(": Warning:") == std::string::npos);
  CHECK(log.find(": Error:") == std::string::npos);
  CHECK(log.find(": Fatal:") == std::string::npos);
}
