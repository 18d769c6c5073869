#include "native/crypto/aes_gcm_seal.h"

#include <doctest/doctest.h>

#include <string>

#include "tests/core/counting_random.h"

using native::crypto::seal_aes_gcm;
using native::crypto::unseal_aes_gcm;

namespace {

core::SecretKey counting_key() {
  core::SecretKey key{};
  for (std::size_t i = 0; i < key.size(); ++i) key[i] = static_cast<std::uint8_t>(i);
  return key;
}

constexpr std::string_view kPlain = "-----BEGIN OPENSSH PRIVATE KEY-----";
constexpr std::string_view kPlace = "c/co_1/restart/pg_1/rt_1#sshKey";

}  // namespace

TEST_SUITE("aes_gcm_seal") {
  TEST_CASE("matches an independent AES-256-GCM with HKDF-SHA256 (Python's cryptography package)") {
    // Expected text computed with cryptography 48: HKDF(SHA256, length 32, salt None, info "platform
    // status secrets AES-256-GCM v1") of the key 00..1f, then AESGCM(k).encrypt(nonce a0..ab, plain, place).
    testing::CountingRandom random(0xa0);
    CHECK(seal_aes_gcm(counting_key(), kPlain, kPlace, random) ==
          "g1.oKGio6SlpqeoqaqrEG5esjZI0RAsbJ6tfebotF5muTrxUveDwS2lOFcUiHdL4BKjTI1nCEpaSgQfcd4RbcVp");
  }

  TEST_CASE("opens what it sealed, and only at the same place under the same key") {
    testing::CountingRandom random(7);
    std::string sealed = seal_aes_gcm(counting_key(), kPlain, kPlace, random);
    auto opened = unseal_aes_gcm(counting_key(), sealed, kPlace);
    REQUIRE(opened);
    CHECK(*opened == kPlain);
    CHECK(unseal_aes_gcm(counting_key(), sealed, "c/co_2/restart/pg_1/rt_1#sshKey").error().code ==
          "sealed_invalid");
    core::SecretKey other = counting_key();
    other[0] ^= 1;
    CHECK(unseal_aes_gcm(other, sealed, kPlace).error().code == "sealed_invalid");
  }

  TEST_CASE("a changed byte, a cut text or another format does not open") {
    testing::CountingRandom random(1);
    std::string sealed = seal_aes_gcm(counting_key(), kPlain, kPlace, random);
    for (std::size_t i = 3; i < sealed.size(); ++i) {
      std::string altered = sealed;
      altered[i] = altered[i] == 'A' ? 'B' : 'A';
      CHECK_MESSAGE(!unseal_aes_gcm(counting_key(), altered, kPlace), "position ", i);
    }
    CHECK(!unseal_aes_gcm(counting_key(), sealed.substr(0, sealed.size() - 4), kPlace));
    CHECK(!unseal_aes_gcm(counting_key(), "g1.", kPlace));
    CHECK(!unseal_aes_gcm(counting_key(), sealed.substr(3), kPlace));
    CHECK(!unseal_aes_gcm(counting_key(), "g1.!!!", kPlace));
  }

  TEST_CASE("an empty value seals and opens; every seal uses a fresh nonce") {
    testing::CountingRandom random(3);
    std::string a = seal_aes_gcm(counting_key(), "", kPlace, random);
    std::string b = seal_aes_gcm(counting_key(), "", kPlace, random);
    CHECK(a != b);
    CHECK(unseal_aes_gcm(counting_key(), a, kPlace).value() == "");
  }
}
