// SSH restart targets (native/restart/ssh_target.h) against a real sshd on a free loopback port
// (tests/native/sshd_server.h), with keys made by ssh-keygen. When sshd cannot start here every case says
// so in a SKIPPED message and checks nothing else.

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "native/restart/ssh_target.h"
#include "tests/native/child_process.h"
#include "tests/native/sshd_server.h"

using core::status::SshRestartTarget;
using native::restart::fire_ssh;
using native::restart::RestartOutcome;

namespace {

const std::string kPassphrase = "correct horse battery staple";

// One sshd and the keys for the whole suite, started on first use from the main thread (sshd dies with
// the thread that started it) and stopped at exit.
struct SshFixture {
  std::unique_ptr<test_ssh::SshdServer> sshd;
  std::string failure;           // why sshd or a key is missing; empty when all is ready
  test_ssh::KeyPair plain;       // ed25519, OpenSSH format, no passphrase; authorized
  test_ssh::KeyPair encrypted;   // ed25519 encrypted with kPassphrase; authorized
  test_ssh::KeyPair rsa_pem;     // RSA in the traditional PEM format; authorized
  test_ssh::KeyPair stranger;    // not authorized
  test_ssh::KeyPair other_host;  // another host key: a pin that does not match the server
  std::string keys_dir;

  SshFixture() {
    sshd = test_ssh::SshdServer::start(failure);
    if (sshd == nullptr) return;
    keys_dir = sshd->dir() + "/client";
    std::filesystem::create_directories(keys_dir);
    plain = test_ssh::generate_key(keys_dir + "/plain", "ed25519", "", false, failure);
    encrypted = test_ssh::generate_key(keys_dir + "/encrypted", "ed25519", kPassphrase, false, failure);
    rsa_pem = test_ssh::generate_key(keys_dir + "/rsa_pem", "rsa", "", true, failure);
    stranger = test_ssh::generate_key(keys_dir + "/stranger", "ed25519", "", false, failure);
    other_host = test_ssh::generate_key(keys_dir + "/other_host", "ed25519", "", false, failure);
    if (!failure.empty()) return;
    for (const auto* key : {&plain, &encrypted, &rsa_pem}) sshd->authorize(key->publicKeyLine);
  }
  bool ready() const { return sshd != nullptr && failure.empty(); }

  SshRestartTarget target(const std::string& command) const {
    SshRestartTarget target;
    target.host = "127.0.0.1";
    target.port = sshd->port();
    target.user = sshd->user();
    target.privateKeyPem = plain.privateKey;
    target.command = command;
    target.hostKeyFingerprint = sshd->host_key_fingerprint();
    target.timeoutMs = 10000;
    return target;
  }
};

SshFixture& fixture() {
  static SshFixture instance;
  return instance;
}

// sshd comes with the test command's packages (openssh-server): without it the case fails, never
// passes silently.
#define REQUIRE_SSHD() \
  REQUIRE_MESSAGE(fixture().ready(), "no sshd for the SSH restart tests: " << fixture().failure)

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

}  // namespace

TEST_SUITE("restart") {
  TEST_CASE("SSH target: `true` succeeds on a pinned host") {
    REQUIRE_SSHD();
    const RestartOutcome outcome = fire_ssh(fixture().target("true"));
    CHECK_MESSAGE(outcome.ok, outcome.detail, "\nsshd log: ", fixture().sshd->log_tail());
    CHECK(outcome.detail == "exit status 0");
    CHECK(outcome.hostKeyFingerprint == fixture().sshd->host_key_fingerprint());
    CHECK_FALSE(outcome.hostKeyLearned);
    CHECK(outcome.durationMs < 10000);
  }

  TEST_CASE("SSH target: the command really runs") {
    REQUIRE_SSHD();
    const std::string file = fixture().keys_dir + "/ran.txt";
    std::filesystem::remove(file);
    const RestartOutcome outcome = fire_ssh(fixture().target("echo hi > " + file));
    CHECK(outcome.ok);
    CHECK(read_file(file) == "hi\n");
  }

  TEST_CASE("SSH target: a non-zero exit status fails with the status and the last line of stderr") {
    REQUIRE_SSHD();
    RestartOutcome outcome = fire_ssh(fixture().target("exit 3"));
    CHECK_FALSE(outcome.ok);
    CHECK(outcome.detail == "exit status 3");
    outcome = fire_ssh(fixture().target("echo starting; echo 'unit api.service not found' >&2; exit 5"));
    CHECK_FALSE(outcome.ok);
    CHECK(outcome.detail == "exit status 5: unit api.service not found");
    outcome = fire_ssh(fixture().target("echo only stdout; false"));
    CHECK(outcome.detail == "exit status 1: only stdout");
  }

  TEST_CASE("SSH target: large output is read to the end and bounded") {
    REQUIRE_SSHD();
    // 1 MiB on each stream: the command must not block on a full channel window.
    const RestartOutcome outcome =
        fire_ssh(fixture().target("head -c 1048576 /dev/zero; head -c 1048576 /dev/zero >&2"));
    CHECK(outcome.ok);
    CHECK(outcome.detail == "exit status 0");
  }

  TEST_CASE("SSH target: a key the server does not know is refused") {
    REQUIRE_SSHD();
    SshRestartTarget target = fixture().target("true");
    target.privateKeyPem = fixture().stranger.privateKey;
    const RestartOutcome outcome = fire_ssh(target);
    CHECK_FALSE(outcome.ok);
    CHECK(outcome.detail == "authentication refused: the server did not accept the key");
    CHECK(outcome.detail.find("PRIVATE") == std::string::npos);
  }

  TEST_CASE("SSH target: a changed host key is refused and the command does not run") {
    REQUIRE_SSHD();
    const std::string file = fixture().keys_dir + "/must_not_exist.txt";
    std::filesystem::remove(file);
    SshRestartTarget target = fixture().target("touch " + file);
    target.hostKeyFingerprint = fixture().other_host.fingerprint;
    target.trustOnFirstUse = true;  // does not apply: a key is pinned
    const RestartOutcome outcome = fire_ssh(target);
    CHECK_FALSE(outcome.ok);
    CHECK(outcome.detail == "host key changed: expected " + fixture().other_host.fingerprint + ", got " +
                                fixture().sshd->host_key_fingerprint());
    CHECK_FALSE(outcome.hostKeyLearned);
    CHECK_FALSE(std::filesystem::exists(file));
  }

  TEST_CASE("SSH target: trust on first use reports the key as ssh-keygen prints it") {
    REQUIRE_SSHD();
    SshRestartTarget target = fixture().target("true");
    target.hostKeyFingerprint = "";
    target.trustOnFirstUse = true;
    RestartOutcome outcome = fire_ssh(target);
    CHECK(outcome.ok);
    CHECK(outcome.hostKeyLearned);
    CHECK(outcome.hostKeyFingerprint == fixture().sshd->host_key_fingerprint());
    // Without trust on first use an unpinned target is invalid: it could never connect.
    target.trustOnFirstUse = false;
    outcome = fire_ssh(target);
    CHECK_FALSE(outcome.ok);
    CHECK(outcome.detail == "invalid target: invalid_host_key");
  }

  TEST_CASE("SSH target: an encrypted key with its passphrase, a wrong one, none") {
    REQUIRE_SSHD();
    SshRestartTarget target = fixture().target("true");
    target.privateKeyPem = fixture().encrypted.privateKey;
    target.passphrase = kPassphrase;
    RestartOutcome outcome = fire_ssh(target);
    CHECK_MESSAGE(outcome.ok, outcome.detail);

    target.passphrase = "not-the-passphrase";
    outcome = fire_ssh(target);
    CHECK_FALSE(outcome.ok);
    CHECK(outcome.detail == "private key could not be read (wrong passphrase, or not a supported key)");
    CHECK(outcome.hostKeyFingerprint.empty());  // nothing was sent

    target.passphrase = "";
    outcome = fire_ssh(target);
    CHECK_FALSE(outcome.ok);
    CHECK(outcome.detail.starts_with("private key could not be read"));
  }

  TEST_CASE("SSH target: an RSA key in the traditional PEM format") {
    REQUIRE_SSHD();
    REQUIRE(fixture().rsa_pem.privateKey.starts_with("-----BEGIN RSA PRIVATE KEY-----"));
    SshRestartTarget target = fixture().target("true");
    target.privateKeyPem = fixture().rsa_pem.privateKey;
    const RestartOutcome outcome = fire_ssh(target);
    CHECK_MESSAGE(outcome.ok, outcome.detail);
  }

  TEST_CASE("SSH target: a command that outlives the timeout") {
    REQUIRE_SSHD();
    SshRestartTarget target = fixture().target("sleep 30");
    target.timeoutMs = 1000;
    const RestartOutcome outcome = fire_ssh(target);
    CHECK_FALSE(outcome.ok);
    CHECK(outcome.detail == "timed out after 1000 ms (the command did not finish)");
    CHECK(outcome.durationMs >= 1000);
    CHECK(outcome.durationMs < 3000);
  }

  TEST_CASE("SSH target: nothing listening, and a key that is not a key") {
    REQUIRE_SSHD();
    SshRestartTarget target = fixture().target("true");
    target.port = test_process::free_tcp_port();
    RestartOutcome outcome = fire_ssh(target);
    CHECK_FALSE(outcome.ok);
    CHECK(outcome.detail.starts_with("connect to 127.0.0.1 port " + std::to_string(target.port) + ": "));
    MESSAGE("refused: " << outcome.detail);

    target = fixture().target("true");
    target.privateKeyPem =
        "-----BEGIN OPENSSH PRIVATE KEY-----\nbm90IGEga2V5\n-----END OPENSSH PRIVATE KEY-----\n";
    outcome = fire_ssh(target);
    CHECK_FALSE(outcome.ok);
    CHECK(outcome.detail.starts_with("private key could not be read"));
  }
}
