// Secrets reach the edge through the environment or a file, never as a flag value that `ps` would show
// (edge/secret_source.h).

#include <doctest/doctest.h>
#include <httplib.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>

#include "edge/secret_source.h"
#include "edge_process.h"
#include "test_edge.h"

namespace {

void write_file(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

}  // namespace

TEST_CASE("secret flags: the value flags are gone and --help says where secrets go") {
  // `--listen nonsense` makes an accepted command line stop right after parsing, with its own message.
  std::string edge = std::string(EDGE_BIN) + " --listen nonsense ";
  for (const char* flag : {"--secret-key", "--oauth-rsa-private-key", "--oauth-rsa-private-key-previous",
                           "--oauth-id-token-secret"}) {
    auto refused = testing::run(edge + flag + " " + std::string(64, 'a') + " 2>&1");
    CHECK_MESSAGE(refused.exit_code != 0, flag);
    CHECK_MESSAGE(refused.out.find("--listen must be host:port") == std::string::npos, flag);
    CHECK_MESSAGE(refused.out.find(flag) != std::string::npos, refused.out);
  }
  auto help = testing::run(std::string(EDGE_BIN) + " --help");
  CHECK(help.exit_code == 0);
  for (const char* flag : {"--secret-key-file", "--oauth-rsa-private-key-file",
                           "--oauth-rsa-private-key-previous-file", "--oauth-id-token-secret-file"})
    CHECK_MESSAGE(help.out.find(flag) != std::string::npos, flag);
  for (const char* flag : {"--secret-key ", "--oauth-rsa-private-key ", "--oauth-rsa-private-key-previous ",
                           "--oauth-id-token-secret "})
    CHECK_MESSAGE(help.out.find(flag) == std::string::npos, flag);
  CHECK(help.out.find("Secrets are never flag values") != std::string::npos);
  CHECK(help.out.find("PLATFORM_SECRET_KEY holds them") != std::string::npos);
}

TEST_CASE("secret flags: the secret key from a file; the file and the variable together are refused") {
  testing::TempDir dir;
  std::string key_file = dir.path + "/secret-key";
  write_file(key_file, std::string(64, 'b') + "\n");
  {
    testing::EdgeProcess edge(dir.path, dir.path + "/data", {"--secret-key-file", key_file});
    httplib::Client client("127.0.0.1", edge.port);
    auto health = client.Get("/healthz");
    REQUIRE(health);
    CHECK(health->status == 200);
    CHECK(edge.stop(SIGTERM) == 0);
  }
  CHECK_FALSE(exists(dir.path + "/data/secret.key"));  // the configured key was used, none was made

  auto both = testing::run("PLATFORM_SECRET_KEY=" + std::string(64, 'c') + " " + EDGE_BIN +
                           " --listen 127.0.0.1:0 --data-dir " + dir.path + "/data2 --secret-key-file " +
                           key_file + " 2>&1");
  CHECK(both.exit_code == 2);
  CHECK(both.out == "edge: PLATFORM_SECRET_KEY and a file for it are both set; use one\n");
}

TEST_CASE("secret source: file contents without the trailing newline, else the variable") {
  testing::TempDir dir;
  ::unsetenv("EDGE_TEST_SECRET");
  CHECK(edge::read_secret("EDGE_TEST_SECRET", "").value_or("x") == "");
  ::setenv("EDGE_TEST_SECRET", "from the environment", 1);
  CHECK(edge::read_secret("EDGE_TEST_SECRET", "").value_or("") == "from the environment");
  write_file(dir.path + "/pem", "-----BEGIN KEY-----\nabc\n-----END KEY-----\r\n");
  auto both = edge::read_secret("EDGE_TEST_SECRET", dir.path + "/pem");
  REQUIRE_FALSE(both.ok());
  CHECK(both.error().code == "invalid_secret");
  ::unsetenv("EDGE_TEST_SECRET");
  CHECK(edge::read_secret("EDGE_TEST_SECRET", dir.path + "/pem").value_or("") ==
        "-----BEGIN KEY-----\nabc\n-----END KEY-----");
  auto missing = edge::read_secret("EDGE_TEST_SECRET", dir.path + "/nothing-here");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().code == "storage_error");
  CHECK(missing.error().message == "cannot read EDGE_TEST_SECRET from '" + dir.path + "/nothing-here'");
  write_file(dir.path + "/empty", "\n");
  auto empty = edge::read_secret("EDGE_TEST_SECRET", dir.path + "/empty");
  REQUIRE_FALSE(empty.ok());
  CHECK(empty.error().message == "EDGE_TEST_SECRET: '" + dir.path + "/empty' is empty");
}
