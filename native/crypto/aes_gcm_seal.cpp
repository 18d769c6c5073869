#include "native/crypto/aes_gcm_seal.h"

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>

#include <array>
#include <cstdint>
#include <memory>
#include <span>

#include "core/bytes.h"

namespace native::crypto {
namespace {

constexpr std::string_view kPrefix = "g1.";
constexpr std::string_view kInfo = "platform status secrets AES-256-GCM v1";
constexpr std::size_t kNonce = 12, kTag = 16;

using CipherCtx = std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)>;

// HKDF-SHA256(deployment key, info = kInfo), no salt. Computed per call: sealing is rare (a dashboard
// write, a delivery), and a derived key kept in memory would be one more copy of a secret.
std::array<std::uint8_t, 32> derive_key(const core::SecretKey& key) {
  std::array<std::uint8_t, 32> out{};
  EVP_KDF* kdf = EVP_KDF_fetch(nullptr, "HKDF", nullptr);
  EVP_KDF_CTX* ctx = kdf ? EVP_KDF_CTX_new(kdf) : nullptr;
  EVP_KDF_free(kdf);
  OSSL_PARAM params[] = {
      OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, const_cast<char*>("SHA256"), 0),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, const_cast<std::uint8_t*>(key.data()),
                                        key.size()),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, const_cast<char*>(kInfo.data()), kInfo.size()),
      OSSL_PARAM_construct_end()};
  // HKDF with SHA-256 is always present in OpenSSL 3's default provider; a failure here is a broken
  // installation, and an all-zero key must never be used, so it ends the process.
  if (!ctx || EVP_KDF_derive(ctx, out.data(), out.size(), params) != 1) std::abort();
  EVP_KDF_CTX_free(ctx);
  return out;
}

}  // namespace

std::string seal_aes_gcm(const core::SecretKey& key, std::string_view plaintext, std::string_view associated,
                         core::RandomSource& random) {
  auto k = derive_key(key);
  core::Bytes out(kNonce + plaintext.size() + kTag);
  random.fill(std::span(out.data(), kNonce));
  CipherCtx ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
  int len = 0;
  bool ok =
      ctx && EVP_EncryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, k.data(), out.data()) == 1 &&
      EVP_EncryptUpdate(ctx.get(), nullptr, &len, reinterpret_cast<const unsigned char*>(associated.data()),
                        static_cast<int>(associated.size())) == 1 &&
      EVP_EncryptUpdate(ctx.get(), out.data() + kNonce, &len,
                        reinterpret_cast<const unsigned char*>(plaintext.data()),
                        static_cast<int>(plaintext.size())) == 1 &&
      EVP_EncryptFinal_ex(ctx.get(), out.data() + kNonce + len, &len) == 1 &&
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, kTag, out.data() + kNonce + plaintext.size()) == 1;
  OPENSSL_cleanse(k.data(), k.size());
  if (!ok) std::abort();  // as in derive_key: AES-256-GCM cannot be missing from a working OpenSSL
  return std::string(kPrefix) + core::base64url_encode(out);
}

core::Result<std::string> unseal_aes_gcm(const core::SecretKey& key, std::string_view sealed,
                                         std::string_view associated) {
  auto invalid = [] { return core::make_error("sealed_invalid", "the sealed value cannot be opened"); };
  if (!sealed.starts_with(kPrefix)) return invalid();
  auto raw = core::base64url_decode(sealed.substr(kPrefix.size()));
  if (!raw || raw->size() < kNonce + kTag) return invalid();
  const std::size_t n = raw->size() - kNonce - kTag;
  auto k = derive_key(key);
  std::string plain(n, '\0');
  CipherCtx ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
  int len = 0;
  bool ok =
      ctx && EVP_DecryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, k.data(), raw->data()) == 1 &&
      EVP_DecryptUpdate(ctx.get(), nullptr, &len, reinterpret_cast<const unsigned char*>(associated.data()),
                        static_cast<int>(associated.size())) == 1 &&
      EVP_DecryptUpdate(ctx.get(), reinterpret_cast<unsigned char*>(plain.data()), &len, raw->data() + kNonce,
                        static_cast<int>(n)) == 1 &&
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, kTag, raw->data() + kNonce + n) == 1 &&
      EVP_DecryptFinal_ex(ctx.get(), reinterpret_cast<unsigned char*>(plain.data()) + len, &len) == 1;
  OPENSSL_cleanse(k.data(), k.size());
  if (!ok) {
    OPENSSL_cleanse(plain.data(), plain.size());
    return invalid();
  }
  return plain;
}

}  // namespace native::crypto
