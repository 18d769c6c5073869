// Mail: mailboxes and inbox (spec document 2) against a real Dovecot on loopback: mailbox CRUD writes
// Dovecot's users file (the mailbox's own password logs in over IMAP, a changed one replaces it, a deleted
// mailbox cannot log in), and the inbox is read through IMAP as the master user: list with `unread`, a
// message with its parts, mark read, move to trash; permissions `inbox.view` and `inbox.mailbox:<email>`,
// another company's mailbox (404).

#include <doctest/doctest.h>

#include "../native/dovecot_server.h"
#include "edge_process.h"
#include "mail_support.h"

using testing::TestEdge;
using namespace mail_test;

TEST_SUITE_BEGIN("mail");

namespace {

struct InboxEdge {
  std::unique_ptr<test_imap::DovecotServer> dovecot;
  std::unique_ptr<TestEdge> edge;
  std::string token, domain_id;

  InboxEdge() {
    std::string failure;
    dovecot = test_imap::DovecotServer::start(failure);
    REQUIRE_MESSAGE(dovecot, failure);
    edge::Config c;
    c.mail.delivery_workers = 0;
    c.mail.imap_address = "127.0.0.1:" + std::to_string(dovecot->port());
    c.mail.dovecot_dir = dovecot->layout().base_dir;
    edge = std::make_unique<TestEdge>(c);
    token = edge->token_with("acme", kAllMail);
    domain_id = verified_domain(*edge, token, "acme", "inbox.example.test");
  }

  testing::Reply create(const std::string& local, const std::string& password = "correct horse") {
    return edge->post("/api/companies/acme/mailboxes",
                      R"({"domainId":")" + domain_id + R"(","localPart":")" + local +
                          R"(","displayName":"Ali Veli","password":")" + password + R"(","quotaMb":10})",
                      token);
  }

  // Whether `user`/`password` logs in to IMAP (curl's exit status 67 is "login denied").
  int imap_login(const std::string& user, const std::string& password) const {
    return testing::run(
               "curl -s -o /dev/null --max-time 10 'imap://127.0.0.1:" + std::to_string(dovecot->port()) +
               "/' --user '" + user + ":" + password + "'; echo $?")
                       .out == "0\n"
               ? 0
               : 67;
  }

  std::string inbox(const std::string& address, const std::string& folder = "inbox") const {
    return "/api/companies/acme/inbox?mailbox=" + address + "&folder=" + folder;
  }
};

std::string message(const std::string& subject, const std::string& body) {
  return "From: Ayse <ayse@example.org>\r\nTo: ali@inbox.example.test\r\nSubject: " + subject +
         "\r\nDate: Mon, 23 Nov 2026 10:00:00 +0000\r\nMessage-ID: <" + subject +
         "@example.org>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b1\r\n\r\n--b1\r\n"
         "Content-Type: text/plain; charset=utf-8\r\n\r\n" +
         body +
         "\r\n--b1\r\nContent-Type: application/pdf\r\nContent-Disposition: attachment; filename=r.pdf\r\n"
         "Content-Transfer-Encoding: base64\r\n\r\nJVBERi0=\r\n--b1--\r\n";
}

}  // namespace

TEST_CASE("mailboxes: create, conflict, update and delete follow into Dovecot") {
  InboxEdge t;
  auto r = t.create("Ali");
  REQUIRE(r.status == 201);
  CHECK(str(r.data(), "address") == "ali@inbox.example.test");
  CHECK(str(r.data(), "localPart") == "ali");
  CHECK(str(r.data(), "domainId") == t.domain_id);
  CHECK(r.data().at("quotaMb").as_int64() == 10);
  CHECK(r.body.find("password") == std::string::npos);  // write-only
  CHECK(r.body.find("argon2") == std::string::npos);
  const std::string id = str(r.data(), "id");

  auto dup = t.create("ALI");
  CHECK(dup.status == 409);
  CHECK(dup.error() == "mailbox ali@inbox.example.test already exists");
  CHECK(t.create("bad local").status == 400);
  CHECK(t.create(".ali").status == 400);
  CHECK(t.create("short", "1234567").status == 400);
  auto pending = t.edge->post("/api/companies/acme/domains", R"({"name":"new.example.test"})", t.token);
  CHECK(t.edge
            ->post("/api/companies/acme/mailboxes",
                   R"({"domainId":")" + str(pending.data(), "id") +
                       R"(","localPart":"x","password":"12345678"})",
                   t.token)
            .status == 422);
  // The product form takes the domain by name.
  auto by_name =
      t.edge->post("/api/mail/mailboxes",
                   R"({"domain":"inbox.example.test","localPart":"bob","password":"bob password"})", t.token);
  CHECK(by_name.status == 201);
  CHECK(by_name.data().at("quotaMb").as_int64() == 1024);

  test_imap::DovecotServer::wait_for_passwd_reload();
  CHECK(t.imap_login("ali@inbox.example.test", "correct horse") == 0);
  CHECK(t.imap_login("ali@inbox.example.test", "wrong horse") == 67);

  auto u = t.edge->patch("/api/companies/acme/mailboxes/" + id,
                         R"({"password":"battery staple","quotaMb":20,"displayName":"Ali"})", t.token);
  REQUIRE(u.status == 200);
  CHECK(u.data().at("quotaMb").as_int64() == 20);
  CHECK(str(u.data(), "displayName") == "Ali");
  CHECK(t.edge->patch("/api/companies/acme/mailboxes/" + id, R"({"localPart":"other"})", t.token).status ==
        400);
  CHECK(t.edge->patch("/api/companies/acme/mailboxes/" + id, R"({})", t.token).status == 400);
  test_imap::DovecotServer::wait_for_passwd_reload();
  CHECK(t.imap_login("ali@inbox.example.test", "correct horse") == 67);
  CHECK(t.imap_login("ali@inbox.example.test", "battery staple") == 0);

  auto list = t.edge->get("/api/companies/acme/mailboxes", t.token);
  CHECK(list.data().as_array().size() == 2);
  CHECK(t.edge->del("/api/companies/acme/mailboxes/" + id, t.token).status == 200);
  CHECK(t.edge->del("/api/companies/acme/mailboxes/" + id, t.token).status == 404);
  test_imap::DovecotServer::wait_for_passwd_reload();
  CHECK(t.imap_login("ali@inbox.example.test", "battery staple") == 67);

  // Another company cannot see or change them.
  auto globex = t.edge->token_with("globex", kAllMail);
  const std::string bob = str(by_name.data(), "id");
  CHECK(t.edge->patch("/api/mail/mailboxes/" + bob, R"({"quotaMb":1})", globex).status == 404);
  CHECK(t.edge->del("/api/companies/globex/mailboxes/" + bob, globex).status == 404);
  CHECK(t.edge->get("/api/mail/mailboxes", globex).data().as_array().empty());
  CHECK(t.edge->get("/api/companies/acme/mailboxes", t.edge->token_with("acme", {"inbox.view"})).status ==
        403);
}

TEST_CASE("inbox: list with unread, read a message with its parts, mark read, move to trash") {
  InboxEdge t;
  REQUIRE(t.create("ali").status == 201);
  test_imap::DovecotServer::wait_for_passwd_reload();
  const std::string ali = "ali@inbox.example.test";
  REQUIRE(t.dovecot->deliver(ali, message("first", "Merhaba Ali")).exit_code == 0);
  REQUIRE(t.dovecot->deliver(ali, message("second", "Second one")).exit_code == 0);

  auto list = t.edge->get(t.inbox(ali), t.token);
  REQUIRE(list.status == 200);
  const auto& items = list.data().as_array();
  REQUIRE(items.size() == 2);
  CHECK(str(items[0], "subject") == "second");  // newest first
  CHECK(items[0].at("unread").as_bool());
  CHECK(str(items[1], "from") == "Ayse <ayse@example.org>");
  CHECK(str(items[1], "date") == "2026-11-23T10:00:00.000Z");
  const std::int64_t first = items[1].at("uid").as_int64();

  auto msg = t.edge->get(
      "/api/companies/acme/inbox/" + std::to_string(first) + "?mailbox=" + ali + "&folder=inbox", t.token);
  REQUIRE(msg.status == 200);
  CHECK(str(msg.data(), "subject") == "first");
  CHECK(str(msg.data(), "messageId") == "first@example.org");
  CHECK(str(msg.data(), "text").rfind("Merhaba Ali", 0) == 0);
  REQUIRE(msg.data().at("attachments").as_array().size() == 1);
  CHECK(str(msg.data().at("attachments").as_array()[0], "filename") == "r.pdf");
  CHECK(msg.data().at("attachments").as_array()[0].at("size").as_int64() == 5);

  const std::string item = "/api/companies/acme/inbox/" + std::to_string(first);
  const std::string query = "?mailbox=" + ali + "&folder=inbox";
  CHECK(t.edge->get(t.inbox(ali) + "&unread=true", t.token).data().as_array().size() == 2);
  auto read = t.edge->post(item + "/read" + query, "", t.token);
  CHECK(read.status == 200);
  CHECK(t.edge->get(t.inbox(ali) + "&unread=true", t.token).data().as_array().size() == 1);
  CHECK(t.edge->get(t.inbox(ali) + "&unread=false", t.token).data().as_array().size() == 1);

  auto trashed = t.edge->del(item + query, t.token);
  CHECK(trashed.status == 200);
  CHECK(str(trashed.data(), "movedTo") == "trash");
  CHECK(t.edge->get(t.inbox(ali), t.token).data().as_array().size() == 1);
  auto trash = t.edge->get(t.inbox(ali, "trash"), t.token);
  REQUIRE(trash.data().as_array().size() == 1);
  CHECK(str(trash.data().as_array()[0], "subject") == "first");
  CHECK(t.edge->get(item + query, t.token).status == 404);  // gone from the inbox

  // Bad input.
  CHECK(t.edge->get("/api/companies/acme/inbox?mailbox=" + ali, t.token).status == 400);
  CHECK(t.edge->get(t.inbox(ali, "spam"), t.token).status == 400);
  CHECK(t.edge->get(t.inbox(ali) + "&unread=yes", t.token).status == 400);
  CHECK(t.edge->get("/api/companies/acme/inbox/abc" + query, t.token).status == 404);
  CHECK(t.edge->get("/api/companies/acme/inbox/999" + query, t.token).status == 404);
  CHECK(t.edge->get(t.inbox("nobody@inbox.example.test"), t.token).status == 404);
}

TEST_CASE("inbox permissions: inbox.view, one mailbox by inbox.mailbox:<email>, other companies") {
  InboxEdge t;
  REQUIRE(t.create("ali").status == 201);
  REQUIRE(t.create("bob").status == 201);
  const std::string ali = "ali@inbox.example.test", bob = "bob@inbox.example.test";

  auto one = t.edge->token_with("acme", {"inbox.mailbox:" + ali});
  CHECK(t.edge->get(t.inbox(ali), one).status == 200);
  auto refused = t.edge->get(t.inbox(bob), one);
  CHECK(refused.status == 403);
  CHECK(refused.error() == "access token lacks permission 'inbox.view'");
  auto all = t.edge->token_with("acme", {"inbox.view"});
  CHECK(t.edge->get(t.inbox(bob), all).status == 200);
  CHECK(t.edge->get(t.inbox(ali), t.edge->token_with("acme", {"mailboxes.manage"})).status == 403);

  auto globex = t.edge->token_with("globex", kAllMail);
  CHECK(t.edge->get("/api/companies/globex/inbox?mailbox=" + ali + "&folder=inbox", globex).status == 404);
  CHECK(t.edge->get("/api/mail/inbox?mailbox=" + ali + "&folder=inbox", globex).status == 404);
  CHECK(t.edge->get("/api/mail/inbox?mailbox=" + ali + "&folder=inbox", t.token).status == 200);
}

TEST_SUITE_END();
