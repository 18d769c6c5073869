#include "native/mail/dkim_key.h"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "native/crypto/openssl_owners.h"

namespace native::mail {
namespace {

core::Error generation_failed(const char* step) {
  // OpenSSL queues its reasons per thread; drop them so they do not surface in an unrelated later call.
  ERR_clear_error();
  return core::make_error("key_generation_failed", std::string("OpenSSL failed to ") + step);
}

std::string base64(const unsigned char* data, int size) {
  std::string out(static_cast<std::size_t>(4 * ((size + 2) / 3)), '\0');
  const int written = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), data, size);
  out.resize(static_cast<std::size_t>(written));
  return out;
}

}  // namespace

core::Result<DkimKeyPair> generate_dkim_key(int bits) {
  if (bits < 1024 || bits > 4096)
    return core::make_error("invalid_key_size", "DKIM keys are 1024 to 4096 bits");
  openssl::Pkey key(EVP_RSA_gen(static_cast<unsigned>(bits)));
  if (key == nullptr) return generation_failed("generate an RSA key");

  openssl::Bio pem(BIO_new(BIO_s_mem()));
  if (pem == nullptr ||
      PEM_write_bio_PrivateKey(pem.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1)
    return generation_failed("write the private key");
  char* pem_data = nullptr;
  const long pem_size = BIO_get_mem_data(pem.get(), &pem_data);
  if (pem_size <= 0) return generation_failed("write the private key");

  unsigned char* der_raw = nullptr;
  const int der_size = i2d_PUBKEY(key.get(), &der_raw);
  openssl::Buffer der(der_raw);
  if (der_size <= 0) return generation_failed("encode the public key");

  return DkimKeyPair{std::string(pem_data, static_cast<std::size_t>(pem_size)), base64(der.get(), der_size)};
}

}  // namespace native::mail
