#include "core/sealed.h"

#include <sodium.h>

#include "core/bytes.h"

namespace core {
namespace {

constexpr std::size_t kNonce = crypto_aead_xchacha20poly1305_ietf_NPUBBYTES;
constexpr std::size_t kTag = crypto_aead_xchacha20poly1305_ietf_ABYTES;

Error invalid() {
  return make_error("sealed_invalid", "sealed value cannot be opened");
}

}  // namespace

std::string seal(const SecretKey& key, std::string_view plaintext, std::string_view associated,
                 RandomSource& random) {
  Bytes out(kNonce + plaintext.size() + kTag);
  random.fill(std::span<std::uint8_t>(out.data(), kNonce));
  unsigned long long written = 0;
  crypto_aead_xchacha20poly1305_ietf_encrypt(
      out.data() + kNonce, &written, reinterpret_cast<const unsigned char*>(plaintext.data()),
      plaintext.size(), reinterpret_cast<const unsigned char*>(associated.data()), associated.size(), nullptr,
      out.data(), key.data());
  out.resize(kNonce + written);
  return base64url_encode(out);
}

Result<std::string> unseal(const SecretKey& key, std::string_view sealed, std::string_view associated) {
  auto raw = base64url_decode(sealed);
  if (!raw || raw->size() < kNonce + kTag) return invalid();
  std::string plain(raw->size() - kNonce - kTag, '\0');
  unsigned long long written = 0;
  if (crypto_aead_xchacha20poly1305_ietf_decrypt(reinterpret_cast<unsigned char*>(plain.data()), &written,
                                                 nullptr, raw->data() + kNonce, raw->size() - kNonce,
                                                 reinterpret_cast<const unsigned char*>(associated.data()),
                                                 associated.size(), raw->data(), key.data()) != 0)
    return invalid();
  plain.resize(written);
  return plain;
}

}  // namespace core
