#include "native/crypto/rsa_key.h"

#include <doctest/doctest.h>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/jwk.h"
#include "core/rsa_verify.h"
#include "tests/core/jose_vectors.h"

using native::RsaSigningKey;

namespace {

// The private key of RFC 7515 Appendix A.2 (its JWK members n, e, d, p, q written as RSAPrivateKey with
// the CRT values computed from them, converted with `openssl rsa` / `openssl pkey`).
constexpr std::string_view kA2Pkcs1 =
    "-----BEGIN RSA PRIVATE KEY-----\n"
    "MIIEowIBAAKCAQEAofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd/wWJcyQoTbji9k0\n"
    "l8W26mPddxHmfHQp+Vaw+4qPCJrcS2mJPMEzP1Pt0Bm4d4QlL+yRT+SFd2lZS+pC\n"
    "gNMsD1W/YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb/7OMg0LOL+bSf63kpaSHSX\n"
    "ndS5z5rexMdbBYUsLA9e+KXBdQOS+UTo7WTBEMa2R2CapHg665xsmtdVMTBQY4uD\n"
    "Zlxvb3qCo5ZwKh9kG4LT6/I5IhlJH7aGhyxXFvUK+DWNmoudF8NAco9/h9iaGNj8\n"
    "q2ethFkMLs91kzk2PAcDTW9gb54h4FRWyuXpoQIDAQABAoIBABKucaRpzQorw35S\n"
    "bEUAVx8dYXUdZOlJcHtiWQ+dC6V8ljxAHj/PLyzTveyI5QO/xkObCyjIL303l2cf\n"
    "UhPu2MFaJdjVzqACXuOrLot/eSFvxjvqVidTtAZExqFRJ9mylUVAoLvhowVWmC1O\n"
    "n95fZCXxTUtxNEG1Xcc7m0rtzJKs45J+N/V9DP1edYH6USyPSWGp6wuA+KgHRnKK\n"
    "Vf9GRx80JQY7nVNkL17eHoTWEwga+lwi0FEoW9Y7lDtWXYmKBWhUE+U8PGxlJf8f\n"
    "40493HDw1WRQ/aSLoS4QTp3rn7gYgeHEvfJdkkf0UMhlknlo53M09EFPdadQ4TlU\n"
    "bjqKc50CgYEA4BzEEOtIpmVdVEZNCqS7baC4crd0pqnRH/5IB3jw3bcxGn6QLvnE\n"
    "tfdUdiYrqBdss1l58BQ3KhooKeQTa9AB0Hw/Py5PJdTJNPY8cQn7ouZ2KKDcmnPG\n"
    "BY5t7yLc1QlQ5xHdwW1VhvKn+nXqhJTBgIPgtldC+KDV5z+y2XDwGUcCgYEAuQPE\n"
    "fgmVtjL0Uyyx88GZFF1fOunH3+7cepKmtH4pxhtCoHqpWmT8YAmZxaewHgHAjLYs\n"
    "p1ZSe7zFYHj7C6ul7TjeLQeZD/YwD66t62wDmpe/HlB+TnBA+njbglfIsRLtXlnD\n"
    "zQkv5dTltRJ11BKBBypeeF6689rjcJIDEz9RWdcCgYAHAp9XcCSrn8wVkMVkKdb7\n"
    "DOX4IKjzdahm+ctDAJN4O/y7OW5FKebvUjdAIt2GuoTZ71iTG+7F0F+lP88jtjP4\n"
    "U4qe7VHoewl4MKOfXZKTe+YCS1XbNvfgwJ3Ltyl1OH9hWvu2yza7q+d5PCsDzqtm\n"
    "27kxuvULVeya+TEdAB1ijQKBgQCH/3r6YrVH/uCWGy6bzV1nGNOdjKc9tmkfOJmN\n"
    "54dxdixdpozCQ6U4OxZrsj3FcOhHBsqAHvX2uuYjagqvo3cOj1TRqNocX40omfCC\n"
    "Mx3bD1yPPf/6TI2XECva/ggqEY2mYzmIiA5LVVmc5nrybr+lssFKneeyxN2Wq93S\n"
    "0iJMdQKBgCGHewxzoa1r8ZMD0LETNrToK423K377UCYqXfg5XMclbrjPbEC3YI1Z\n"
    "NqMtuhdBJqUnBi6tjKMF+34Xf0CUN8ncuXGO2CAYvO8PdyCixHX52ybaDjy1FtCE\n"
    "6yUXjoKNXKvUm7MWGsAYH6f4IegOetN5NvmUMFStCSkh7ixZLkN1\n"
    "-----END RSA PRIVATE KEY-----\n";

constexpr std::string_view kA2Pkcs8 =
    "-----BEGIN PRIVATE KEY-----\n"
    "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCh+BYK4uPJtGXO\n"
    "jS1lYmM2K5J9vinh8CR3/BYlzJChNuOL2TSXxbbqY913EeZ8dCn5VrD7io8ImtxL\n"
    "aYk8wTM/U+3QGbh3hCUv7JFP5IV3aVlL6kKA0ywPVb9ilE8TA5a8bpvfbr3SvaNn\n"
    "juygxmj3AbONv/s4yDQs4v5tJ/reSlpIdJed1LnPmt7Ex1sFhSwsD174pcF1A5L5\n"
    "ROjtZMEQxrZHYJqkeDrrnGya11UxMFBji4NmXG9veoKjlnAqH2QbgtPr8jkiGUkf\n"
    "toaHLFcW9Qr4NY2ai50Xw0Byj3+H2JoY2PyrZ62EWQwuz3WTOTY8BwNNb2BvniHg\n"
    "VFbK5emhAgMBAAECggEAEq5xpGnNCivDflJsRQBXHx1hdR1k6Ulwe2JZD50LpXyW\n"
    "PEAeP88vLNO97IjlA7/GQ5sLKMgvfTeXZx9SE+7YwVol2NXOoAJe46sui395IW/G\n"
    "O+pWJ1O0BkTGoVEn2bKVRUCgu+GjBVaYLU6f3l9kJfFNS3E0QbVdxzubSu3Mkqzj\n"
    "kn439X0M/V51gfpRLI9JYanrC4D4qAdGcopV/0ZHHzQlBjudU2QvXt4ehNYTCBr6\n"
    "XCLQUShb1juUO1ZdiYoFaFQT5Tw8bGUl/x/jTj3ccPDVZFD9pIuhLhBOneufuBiB\n"
    "4cS98l2SR/RQyGWSeWjnczT0QU91p1DhOVRuOopznQKBgQDgHMQQ60imZV1URk0K\n"
    "pLttoLhyt3SmqdEf/kgHePDdtzEafpAu+cS191R2JiuoF2yzWXnwFDcqGigp5BNr\n"
    "0AHQfD8/Lk8l1Mk09jxxCfui5nYooNyac8YFjm3vItzVCVDnEd3BbVWG8qf6deqE\n"
    "lMGAg+C2V0L4oNXnP7LZcPAZRwKBgQC5A8R+CZW2MvRTLLHzwZkUXV866cff7tx6\n"
    "kqa0finGG0KgeqlaZPxgCZnFp7AeAcCMtiynVlJ7vMVgePsLq6XtON4tB5kP9jAP\n"
    "rq3rbAOal78eUH5OcED6eNuCV8ixEu1eWcPNCS/l1OW1EnXUEoEHKl54Xrrz2uNw\n"
    "kgMTP1FZ1wKBgAcCn1dwJKufzBWQxWQp1vsM5fggqPN1qGb5y0MAk3g7/Ls5bkUp\n"
    "5u9SN0Ai3Ya6hNnvWJMb7sXQX6U/zyO2M/hTip7tUeh7CXgwo59dkpN75gJLVds2\n"
    "9+DAncu3KXU4f2Fa+7bLNrur53k8KwPOq2bbuTG69QtV7Jr5MR0AHWKNAoGBAIf/\n"
    "evpitUf+4JYbLpvNXWcY052Mpz22aR84mY3nh3F2LF2mjMJDpTg7FmuyPcVw6EcG\n"
    "yoAe9fa65iNqCq+jdw6PVNGo2hxfjSiZ8IIzHdsPXI89//pMjZcQK9r+CCoRjaZj\n"
    "OYiIDktVWZzmevJuv6WywUqd57LE3Zar3dLSIkx1AoGAIYd7DHOhrWvxkwPQsRM2\n"
    "tOgrjbcrfvtQJipd+DlcxyVuuM9sQLdgjVk2oy26F0EmpScGLq2MowX7fhd/QJQ3\n"
    "ydy5cY7YIBi87w93IKLEdfnbJtoOPLUW0ITrJReOgo1cq9SbsxYawBgfp/gh6A56\n"
    "03k2+ZQwVK0JKSHuLFkuQ3U=\n"
    "-----END PRIVATE KEY-----\n";

// One generated 2048-bit key for the whole suite: generation is the slow part (0.1-0.5 s).
const std::string& generated_pem() {
  static const std::string pem = native::generate_rsa_pem(2048);
  return pem;
}

struct PkeyFree {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
using PkeyPtr = std::unique_ptr<EVP_PKEY, PkeyFree>;

PkeyPtr read_pem(std::string_view pem) {
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())),
                                                &BIO_free);
  return PkeyPtr(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr));
}

std::string to_pem(EVP_PKEY* pkey, const EVP_CIPHER* cipher = nullptr, const char* passphrase = nullptr) {
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), &BIO_free);
  PEM_write_bio_PrivateKey(bio.get(), pkey, cipher, nullptr, 0, nullptr, const_cast<char*>(passphrase));
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<std::size_t>(size));
}

// OpenSSL's own RS256 verification, independent of the core's BearSSL path.
bool openssl_verify(EVP_PKEY* pkey, std::string_view input, const core::Bytes& signature) {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  return EVP_DigestVerifyInit(ctx.get(), nullptr, EVP_sha256(), nullptr, pkey) == 1 &&
         EVP_DigestVerify(ctx.get(), signature.data(), signature.size(),
                          reinterpret_cast<const unsigned char*>(input.data()), input.size()) == 1;
}

std::string code_of(const core::Result<RsaSigningKey>& r) {
  return r ? "ok" : r.error().code;
}

}  // namespace

TEST_CASE("RFC 7515 A.2: the example key signs the example input to the example signature") {
  for (std::string_view pem : {kA2Pkcs1, kA2Pkcs8}) {
    auto key = RsaSigningKey::from_pem(pem);
    REQUIRE(key.ok());
    CHECK(core::base64url_encode(key->public_key().n) == vectors::kA2N);
    CHECK(key->public_key().e == core::Bytes{0x01, 0x00, 0x01});
    CHECK(key->public_key().kid == core::jwk_thumbprint(key->public_key()));
    CHECK(core::base64url_encode(key->sign_rs256(vectors::kA2SigningInput)) == vectors::kA2Signature);
  }
}

TEST_CASE("a generated key: signatures verify with the core (BearSSL) and with OpenSSL") {
  REQUIRE(generated_pem().starts_with("-----BEGIN PRIVATE KEY-----\n"));
  auto key = RsaSigningKey::from_pem(generated_pem());
  REQUIRE(key.ok());
  CHECK(core::bit_length(key->public_key().n) == 2048);
  CHECK(key->public_key().kid == core::jwk_thumbprint(key->public_key()));
  CHECK(key->public_key().kid.size() == 43);

  const std::string input = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1c3JfMSJ9";
  const core::Bytes signature = key->sign_rs256(input);
  CHECK(signature.size() == 256);
  CHECK(key->sign_rs256(input) == signature);  // PKCS#1 v1.5 is deterministic
  CHECK(core::rs256_verify(key->public_key(), input, signature));
  CHECK_FALSE(core::rs256_verify(key->public_key(), input + "x", signature));

  const PkeyPtr openssl_key = read_pem(generated_pem());
  REQUIRE(openssl_key);
  CHECK(openssl_verify(openssl_key.get(), input, signature));
  CHECK_FALSE(openssl_verify(openssl_key.get(), input + "x", signature));
}

TEST_CASE("sign_jwt: a token with the thumbprint kid that verify_rs256 accepts through the published JWK") {
  auto key = RsaSigningKey::from_pem(generated_pem()).value();
  const core::json::object claims{{"iss", "https://auth.example"}, {"sub", "usr_1"}, {"exp", 2000000000}};
  const std::string token = key.sign_jwt(claims);

  // What a relying party does: read the JWKS, select by kid, verify.
  const core::json::object jwks{{"keys", core::json::array{core::to_jwk(key.public_key())}}};
  auto keys = core::parse_jwks(jwks).value();
  auto jwt = core::verify_rs256(token, keys);
  REQUIRE(jwt.ok());
  CHECK(core::json::serialize(jwt->header) ==
        R"({"alg":"RS256","typ":"JWT","kid":")" + key.public_key().kid + "\"}");
  CHECK(jwt->claims == claims);

  // Rotation: the previous key (A.2) stays in the set; each token verifies with its own key only.
  const auto previous = RsaSigningKey::from_pem(kA2Pkcs8).value();
  keys.push_back(previous.public_key());
  CHECK(core::verify_rs256(previous.sign_jwt(claims), keys).ok());
  CHECK(core::verify_rs256(token, keys).ok());
  CHECK(core::verify_rs256(token, std::vector{previous.public_key()}).error().code == "unknown_kid");

  const PkeyPtr openssl_key = read_pem(generated_pem());
  CHECK(openssl_verify(openssl_key.get(), jwt->signing_input, jwt->signature));
}

TEST_CASE("from_pem reads PKCS#1 and PKCS#8 forms of the same key alike") {
  const PkeyPtr generated = read_pem(generated_pem());
  REQUIRE(generated);
  const std::string pkcs8 = to_pem(generated.get());
  auto a = RsaSigningKey::from_pem(pkcs8);
  auto b = RsaSigningKey::from_pem(generated_pem());
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(a->public_key() == b->public_key());

  const std::string pkcs1 = native::generate_rsa_pem(2048, native::PemFormat::pkcs1);
  CHECK(pkcs1.starts_with("-----BEGIN RSA PRIVATE KEY-----\n"));
  CHECK(code_of(RsaSigningKey::from_pem(pkcs1)) == "ok");
}

TEST_CASE("from_pem takes a PEM whose line breaks are written as \\n, and surrounding text") {
  std::string one_line;
  for (char c : kA2Pkcs1) {
    if (c == '\n') {
      one_line += "\\n";
    } else {
      one_line.push_back(c);
    }
  }
  auto key = RsaSigningKey::from_pem(one_line);
  REQUIRE(key.ok());
  CHECK(core::base64url_encode(key->public_key().n) == vectors::kA2N);
  CHECK(code_of(RsaSigningKey::from_pem("comment line\n" + std::string(kA2Pkcs8) + "\n")) == "ok");
}

TEST_CASE("from_pem refuses small, non-RSA, encrypted, public and malformed keys with invalid_key") {
  CHECK(code_of(RsaSigningKey::from_pem(native::generate_rsa_pem(1024))) == "invalid_key");
  CHECK(RsaSigningKey::from_pem(native::generate_rsa_pem(1024)).error().message ==
        "the RSA key has 1024 bits; 2048 to 4096 are supported");

  const PkeyPtr ec(EVP_EC_gen("P-256"));
  REQUIRE(ec);
  CHECK(code_of(RsaSigningKey::from_pem(to_pem(ec.get()))) == "invalid_key");
  CHECK(RsaSigningKey::from_pem(to_pem(ec.get())).error().message == "the private key is not an RSA key");
  const PkeyPtr ed(EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519"));
  REQUIRE(ed);
  CHECK(code_of(RsaSigningKey::from_pem(to_pem(ed.get()))) == "invalid_key");

  // Encrypted: refused, and never a prompt on the terminal.
  const PkeyPtr rsa = read_pem(kA2Pkcs8);
  const std::string encrypted = to_pem(rsa.get(), EVP_aes_256_cbc(), "passphrase");
  REQUIRE(encrypted.starts_with("-----BEGIN ENCRYPTED PRIVATE KEY-----"));
  CHECK(code_of(RsaSigningKey::from_pem(encrypted)) == "invalid_key");

  // A public key only.
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), &BIO_free);
  PEM_write_bio_PUBKEY(bio.get(), rsa.get());
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio.get(), &data);
  CHECK(code_of(RsaSigningKey::from_pem(std::string(data, static_cast<std::size_t>(size)))) == "invalid_key");

  std::string truncated(kA2Pkcs1);
  truncated.erase(truncated.size() / 2, 200);
  for (const std::string& garbage :
       {std::string(), std::string("not a key"), truncated,
        std::string("-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n"),
        std::string(70 * 1024, 'A')}) {
    CHECK(code_of(RsaSigningKey::from_pem(garbage)) == "invalid_key");
  }
}

TEST_CASE("sign_rs256 is safe to call from several threads on one key, and copies share the key") {
  const auto key = RsaSigningKey::from_pem(generated_pem()).value();
  std::atomic<int> verified{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      const RsaSigningKey copy = key;
      for (int i = 0; i < 10; ++i) {
        const std::string input = "thread " + std::to_string(t) + " message " + std::to_string(i);
        if (core::rs256_verify(copy.public_key(), input, copy.sign_rs256(input))) ++verified;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  CHECK(verified == 40);

  RsaSigningKey moved = RsaSigningKey::from_pem(kA2Pkcs1).value();
  RsaSigningKey target = std::move(moved);
  CHECK(core::base64url_encode(target.sign_rs256(vectors::kA2SigningInput)) == vectors::kA2Signature);
}
