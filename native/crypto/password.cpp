#include "native/crypto/password.h"

#include <sodium.h>

namespace native {

std::string hash_password(std::string_view password) {
  if (sodium_init() < 0) return {};
  char out[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str_alg(out, password.data(), password.size(), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                            crypto_pwhash_MEMLIMIT_INTERACTIVE, crypto_pwhash_ALG_ARGON2ID13) != 0)
    return {};
  return out;
}

bool verify_password(std::string_view stored_hash, std::string_view password) {
  if (stored_hash.size() >= crypto_pwhash_STRBYTES) return false;
  std::string terminated(stored_hash);  // libsodium wants a NUL-terminated string
  return crypto_pwhash_str_verify(terminated.c_str(), password.data(), password.size()) == 0;
}

const std::string& decoy_password_hash() {
  static const std::string hash = [] {
    unsigned char random[32];
    randombytes_buf(random, sizeof random);
    return hash_password(std::string_view(reinterpret_cast<const char*>(random), sizeof random));
  }();
  return hash;
}

}  // namespace native
