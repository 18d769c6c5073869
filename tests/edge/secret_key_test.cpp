// The deployment's key for sealed secrets: from PLATFORM_SECRET_KEY, or a 0600 file made on first start.

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <fstream>

#include "core/bytes.h"
#include "native/crypto/secret_key.h"
#include "test_edge.h"

TEST_CASE("without a configured key, a key file is created once with mode 0600 and reused") {
  testing::TempDir dir;
  native::SystemRandom random;
  auto first = native::load_secret_key("", dir.path + "/data", random);
  REQUIRE(first.ok());
  struct stat st {};
  REQUIRE(::stat((dir.path + "/data/secret.key").c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  auto again = native::load_secret_key("", dir.path + "/data", random);
  REQUIRE(again.ok());
  CHECK(*again == *first);
}

TEST_CASE("a configured key wins; a malformed one is refused and the server does not start") {
  testing::TempDir dir;
  native::SystemRandom random;
  std::string hex(64, 'a');
  auto configured = native::load_secret_key(hex, dir.path, random);
  REQUIRE(configured.ok());
  CHECK(core::hex_encode(*configured) == hex);
  auto bad = native::load_secret_key("abcd", dir.path, random);
  CHECK(bad.error().code == "invalid_secret_key");
  CHECK(bad.error().message == "PLATFORM_SECRET_KEY must hold 64 hex characters (32 bytes)");

  edge::Config config;
  config.listen_port = 0;
  config.data_dir = dir.path + "/data";
  config.secret_key_hex = "not-hex";
  core::ManualClock clock(0);
  auto server = edge::EdgeServer::start(config, clock, random);
  CHECK_FALSE(server.ok());
}
