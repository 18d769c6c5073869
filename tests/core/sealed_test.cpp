#include "core/sealed.h"

#include <doctest/doctest.h>

#include "counting_random.h"

#include "core/bytes.h"

namespace {

core::SecretKey key_of(std::uint8_t fill) {
  core::SecretKey k;
  k.fill(fill);
  return k;
}

}  // namespace

TEST_CASE("a sealed secret opens only with its key and associated data, and not after tampering") {
  testing::CountingRandom random(1);
  auto key = key_of(7);
  std::string sealed = core::seal(key, "bot-token-123", "vault/prj_1/API_KEY", random);
  // 24-byte nonce + 13 bytes + 16-byte tag = 53 bytes -> 71 base64url characters.
  CHECK(sealed.size() == 71);
  CHECK(sealed.find("bot-token") == std::string::npos);

  auto opened = core::unseal(key, sealed, "vault/prj_1/API_KEY");
  REQUIRE(opened.ok());
  CHECK(*opened == "bot-token-123");

  CHECK(core::unseal(key_of(8), sealed, "vault/prj_1/API_KEY").error().code == "sealed_invalid");
  CHECK_FALSE(core::unseal(key, sealed, "vault/prj_2/API_KEY").ok());
  std::string altered = sealed;
  altered[40] = altered[40] == 'A' ? 'B' : 'A';
  CHECK_FALSE(core::unseal(key, altered, "vault/prj_1/API_KEY").ok());
  CHECK_FALSE(core::unseal(key, "short", "vault/prj_1/API_KEY").ok());
  CHECK_FALSE(core::unseal(key, "!!!", "").ok());
}

TEST_CASE("sealing the same value twice gives different texts (fresh nonce each time)") {
  testing::CountingRandom random(1);
  auto key = key_of(1);
  std::string a = core::seal(key, "", "x", random), b = core::seal(key, "", "x", random);
  CHECK(a != b);
  CHECK(*core::unseal(key, a, "x") == "");
  CHECK(*core::unseal(key, b, "x") == "");
}
