#include "native/crypto/rsa_key.h"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/encoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include <climits>
#include <utility>

#include "core/jwt.h"
#include "core/rsa_verify.h"
#include "native/crypto/openssl_owners.h"

namespace native {
namespace {

// PEM of larger size is not a single RSA key of at most 4096 bits.
constexpr std::size_t kMaxPemLength = 64 * 1024;

core::Error invalid_key(std::string message) {
  // OpenSSL queues its reasons per thread; drop them so they do not surface in an unrelated later call.
  ERR_clear_error();
  return core::make_error("invalid_key", std::move(message));
}

// Refuses to prompt: OpenSSL's default callback would read a passphrase from the terminal.
int no_passphrase(char*, int, int, void*) {
  return -1;
}

core::Bytes bignum_bytes(const EVP_PKEY* pkey, const char* param) {
  BIGNUM* raw = nullptr;
  if (EVP_PKEY_get_bn_param(pkey, param, &raw) != 1) return {};
  openssl::Bignum bn(raw);
  core::Bytes out(static_cast<std::size_t>(BN_num_bytes(bn.get())));
  BN_bn2bin(bn.get(), out.data());  // big-endian, no leading zero bytes
  return out;
}

std::string bio_contents(BIO* bio) {
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio, &data);
  return size > 0 ? std::string(data, static_cast<std::size_t>(size)) : std::string();
}

}  // namespace

struct RsaSigningKey::State {
  openssl::Pkey pkey;
  core::RsaPublicKey public_key;
};

RsaSigningKey::RsaSigningKey(std::shared_ptr<const State> state) : state_(std::move(state)) {}
RsaSigningKey::~RsaSigningKey() = default;

core::Result<RsaSigningKey> RsaSigningKey::from_pem(std::string_view pem) {
  if (pem.size() > kMaxPemLength) return invalid_key("RSA private key PEM is too long");
  std::string text(pem);
  if (text.find('\n') == std::string::npos) {
    for (std::size_t at = text.find("\\n"); at != std::string::npos; at = text.find("\\n", at + 1)) {
      text.replace(at, 2, 1,
                   '\n');  // (count, char): g++ 12 -O3 falsely warns -Wrestrict on the const char* form
    }
  }
  openssl::Bio bio(BIO_new_mem_buf(text.data(), static_cast<int>(text.size())));
  if (!bio) return invalid_key("cannot read the RSA private key");
  openssl::Pkey pkey(PEM_read_bio_PrivateKey(bio.get(), nullptr, no_passphrase, nullptr));
  if (!pkey) {
    return invalid_key(
        "not a PEM private key (PKCS#1 'RSA PRIVATE KEY' or unencrypted PKCS#8 'PRIVATE KEY')");
  }
  if (EVP_PKEY_is_a(pkey.get(), "RSA") != 1) return invalid_key("the private key is not an RSA key");
  const int bits = EVP_PKEY_get_bits(pkey.get());
  if (bits < static_cast<int>(core::kMinRsaBits) || bits > static_cast<int>(core::kMaxRsaBits)) {
    return invalid_key("the RSA key has " + std::to_string(bits) + " bits; 2048 to 4096 are supported");
  }

  auto state = std::make_shared<State>();
  state->public_key.n = bignum_bytes(pkey.get(), OSSL_PKEY_PARAM_RSA_N);
  state->public_key.e = bignum_bytes(pkey.get(), OSSL_PKEY_PARAM_RSA_E);
  if (state->public_key.n.empty() || state->public_key.e.empty()) {
    return invalid_key("cannot read the RSA key's public numbers");
  }
  state->public_key.kid = core::jwk_thumbprint(state->public_key);
  state->pkey = std::move(pkey);
  RsaSigningKey key(std::move(state));

  // A key whose private part does not match its public numbers (a damaged file) would sign tokens nobody
  // can verify; find out now, with the verifier the relying parties use.
  constexpr std::string_view kProbe = "platform rsa key self-test";
  if (!core::rs256_verify(key.public_key(), kProbe, key.sign_rs256(kProbe))) {
    return invalid_key("the RSA private key does not match its public key");
  }
  return key;
}

core::Bytes RsaSigningKey::sign_rs256(std::string_view signing_input) const {
  openssl::MdCtx ctx(EVP_MD_CTX_new());
  std::size_t length = 0;
  // RSA keys sign with PKCS#1 v1.5 padding unless told otherwise.
  if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, state_->pkey.get()) != 1 ||
      EVP_DigestSign(ctx.get(), nullptr, &length,
                     reinterpret_cast<const unsigned char*>(signing_input.data()),
                     signing_input.size()) != 1) {
    ERR_clear_error();
    return {};
  }
  core::Bytes signature(length);
  if (EVP_DigestSign(ctx.get(), signature.data(), &length,
                     reinterpret_cast<const unsigned char*>(signing_input.data()),
                     signing_input.size()) != 1) {
    ERR_clear_error();
    return {};
  }
  signature.resize(length);
  return signature;
}

std::string RsaSigningKey::sign_jwt(const core::json::object& claims) const {
  core::json::object header;
  header["alg"] = "RS256";
  header["typ"] = "JWT";
  header["kid"] = state_->public_key.kid;
  bool failed = false;
  std::string token = core::encode_jwt(header, claims, [&](std::string_view signing_input) {
    core::Bytes signature = sign_rs256(signing_input);
    failed = signature.empty();
    return signature;
  });
  return failed ? std::string() : token;
}

const core::RsaPublicKey& RsaSigningKey::public_key() const {
  return state_->public_key;
}

std::string generate_rsa_pem(int bits, PemFormat format) {
  openssl::Pkey pkey(EVP_RSA_gen(static_cast<unsigned int>(bits)));
  openssl::Bio bio(BIO_new(BIO_s_mem()));
  if (!pkey || !bio) {
    ERR_clear_error();
    return {};
  }
  bool written = false;
  if (format == PemFormat::pkcs8) {
    written = PEM_write_bio_PrivateKey(bio.get(), pkey.get(), nullptr, nullptr, 0, nullptr, nullptr) == 1;
  } else {
    // "type-specific" is PKCS#1's RSAPrivateKey for RSA keys (OpenSSL 3 deprecates
    // PEM_write_bio_RSAPrivateKey).
    openssl::EncoderCtx encoder(OSSL_ENCODER_CTX_new_for_pkey(pkey.get(), OSSL_KEYMGMT_SELECT_KEYPAIR, "PEM",
                                                              "type-specific", nullptr));
    written = encoder && OSSL_ENCODER_to_bio(encoder.get(), bio.get()) == 1;
  }
  if (!written) {
    ERR_clear_error();
    return {};
  }
  return bio_contents(bio.get());
}

}  // namespace native
