// SSH restart targets fired by probe verdicts against a real sshd on a free loopback port
// (tests/native/sshd_server.h), keys made by ssh-keygen. When sshd cannot start here every case says so in
// a SKIPPED message and checks nothing else.

#include <doctest/doctest.h>

#include <filesystem>

#include "status_restart_support.h"
#include "tests/native/sshd_server.h"

using namespace restart_test;

namespace {

const std::string kPassphrase = "ssh-passphrase-that-must-not-leak";

// One sshd and the keys for the whole suite, started on first use from the main thread (sshd dies with
// the thread that started it).
struct SshFixture {
  std::unique_ptr<test_ssh::SshdServer> sshd;
  std::string failure;
  test_ssh::KeyPair plain, encrypted;
  std::string dir;

  SshFixture() {
    sshd = test_ssh::SshdServer::start(failure);
    if (sshd == nullptr) return;
    dir = sshd->dir() + "/client";
    std::filesystem::create_directories(dir);
    plain = test_ssh::generate_key(dir + "/plain", "ed25519", "", false, failure);
    encrypted = test_ssh::generate_key(dir + "/encrypted", "ed25519", kPassphrase, false, failure);
    if (!failure.empty()) return;
    sshd->authorize(plain.publicKeyLine);
    sshd->authorize(encrypted.publicKeyLine);
  }
  bool ready() const { return sshd != nullptr && failure.empty(); }
};

SshFixture& fixture() {
  static SshFixture instance;
  return instance;
}

// sshd comes with the test command's packages (openssh-server): without it the case fails, never
// passes silently.
#define REQUIRE_SSHD() \
  REQUIRE_MESSAGE(fixture().ready(), "no sshd for the SSH restart tests: " << fixture().failure)

// A target body bound to `check_id`; `extra` adds settings members (after a comma).
std::string ssh_body(const std::string& check_id, int threshold, const std::string& command,
                     const test_ssh::KeyPair& key, const std::string& extra) {
  const SshFixture& f = fixture();
  return R"({"name":"Box","type":"ssh","checkId":")" + check_id + R"(","threshold":)" +
         std::to_string(threshold) + R"(,"settings":{"host":"127.0.0.1","port":)" +
         std::to_string(f.sshd->port()) + R"(,"user":")" + f.sshd->user() + R"(","command":)" +
         quoted(command) + R"(,"privateKeyPem":)" + quoted(key.privateKey) + R"(,"timeoutMs":20000)" + extra +
         "}}";
}

std::string pinned() {
  return R"(,"hostKeyFingerprint":")" + fixture().sshd->host_key_fingerprint() + R"(")";
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

}  // namespace

TEST_SUITE("status_restart_ssh") {
  TEST_CASE("an SSH target runs its command on a real sshd after N consecutive failures") {
    REQUIRE_SSHD();
    RestartEdge edge;
    const std::string file = fixture().dir + "/fired.txt";
    std::filesystem::remove(file);
    edge.add_target(ssh_body(edge.check_id, 2, "echo fired >> " + file, fixture().plain, pinned()));
    edge.verdict(testing::TestEdge::kStart, kDown);
    CHECK_FALSE(std::filesystem::exists(file));
    edge.verdict(testing::TestEdge::kStart + kMinute, kDown);
    CHECK(read_text(file) == "fired\n");
    auto history = edge.firings();
    REQUIRE(history.size() == 1);
    CHECK_MESSAGE(history[0].at("status") == "succeeded", core::to_json(history[0]),
                  "\nsshd log: ", fixture().sshd->log_tail());
    CHECK(history[0].at("type") == "ssh");
    CHECK(history[0].at("detail") == "exit status 0");
    CHECK(history[0].at("exitStatus") == 0);
    CHECK(history[0].at("httpStatus").is_null());
    // Within the cooldown the command does not run again.
    edge.verdict(testing::TestEdge::kStart + 2 * kMinute, kDown);
    CHECK(read_text(file) == "fired\n");
  }

  TEST_CASE("a failing command is a failed firing with its exit status and last line") {
    REQUIRE_SSHD();
    RestartEdge edge;
    edge.add_target(ssh_body(edge.check_id, 1, "echo starting; echo 'unit api.service not found' >&2; exit 5",
                             fixture().plain, pinned()));
    edge.verdict(testing::TestEdge::kStart, kDown);
    auto history = edge.firings();
    REQUIRE(history.size() == 1);
    CHECK(history[0].at("status") == "failed");
    CHECK(history[0].at("exitStatus") == 5);
    CHECK(history[0].at("detail") == "exit status 5: unit api.service not found");
  }

  TEST_CASE("an encrypted key with its passphrase; trust on first use stores the host key as the pin") {
    REQUIRE_SSHD();
    RestartEdge edge;
    const std::string id =
        edge.add_target(ssh_body(edge.check_id, 1, "true", fixture().encrypted,
                                 R"(,"trustOnFirstUse":true,"passphrase":")" + kPassphrase + "\""));
    auto before = edge.get(edge.target(id), edge.token);
    CHECK(before.json.at("settings").at("hostKeyFingerprint") == "");
    CHECK(before.json.at("settings").at("hasPassphrase") == true);
    edge.verdict(testing::TestEdge::kStart, kDown);
    auto history = edge.firings();
    REQUIRE(history.size() == 1);
    CHECK_MESSAGE(history[0].at("status") == "succeeded", core::to_json(history[0]));
    auto after = edge.get(edge.target(id), edge.token);
    CHECK(text(after.json.at("settings").at("hostKeyFingerprint")) == fixture().sshd->host_key_fingerprint());

    // A pin that does not match is refused; the command does not run.
    const std::string file = fixture().dir + "/never.txt";
    std::filesystem::remove(file);
    auto repinned = edge.patch(edge.target(id),
                               R"({"settings":{"hostKeyFingerprint":")" + fixture().plain.fingerprint +
                                   R"(","command":"touch )" + file + R"("}})",
                               edge.token);
    REQUIRE(repinned.status == 200);
    edge.verdict(testing::TestEdge::kStart + 10 * kMinute, kDown);
    history = edge.firings();
    REQUIRE(history.size() == 2);
    CHECK(history[0].at("status") == "failed");
    CHECK(text(history[0].at("detail")) == "host key changed: expected " + fixture().plain.fingerprint +
                                               ", got " + fixture().sshd->host_key_fingerprint());
    CHECK_FALSE(std::filesystem::exists(file));

    // Neither the key nor its passphrase is in a response or in the LMDB file in clear.
    const std::string key_line = fixture().encrypted.privateKey.substr(40, 60);
    const std::string listed = edge.get(edge.targets(), edge.token).body;
    const std::string bytes = edge.store_bytes();
    for (const std::string& secret : {key_line, kPassphrase}) {
      CHECK(before.body.find(secret) == std::string::npos);
      CHECK(listed.find(secret) == std::string::npos);
      CHECK(bytes.find(secret) == std::string::npos);
    }
  }
}
