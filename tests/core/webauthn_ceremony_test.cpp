// Registration and authentication ceremonies (core/auth/webauthn/ceremony.h) with responses made by real
// P-256 and RSA-2048 keys (tests/core/webauthn_vectors.h, tests/core/tools/webauthn_vectors.py).

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/auth/webauthn/ceremony.h"
#include "core/bytes.h"
#include "tests/core/webauthn_vectors.h"

using namespace core;
using namespace core::webauthn;
namespace v = webauthn_vectors;

namespace {

Bytes hex(std::string_view text) {
  return hex_decode(text).value();
}

const Bytes kChallenge = hex(v::kChallengeHex);
const std::vector<std::string> kOrigins{"https://example.com"};

// The relying party's side of one ceremony; each test changes what it needs.
struct Registration {
  Bytes client_data = Bytes(as_bytes(v::kCreateClientData).begin(), as_bytes(v::kCreateClientData).end());
  Bytes attestation_object;
  Bytes challenge = kChallenge;
  std::vector<std::string> origins = kOrigins;
  std::string rp_id{v::kRpId};
  bool require_uv = false;

  explicit Registration(std::string_view attestation_hex) : attestation_object(hex(attestation_hex)) {}

  Result<RegisteredCredential> verify() const {
    return verify_registration({client_data, attestation_object, challenge, origins, rp_id, require_uv});
  }
  std::string code() const {
    auto r = verify();
    return r ? "ok" : r.error().code;
  }
};

struct Assertion {
  Bytes client_data = Bytes(as_bytes(v::kGetClientData).begin(), as_bytes(v::kGetClientData).end());
  Bytes authenticator_data, signature, public_key;
  std::uint32_t stored_sign_count = 0;
  Bytes challenge = kChallenge;
  std::vector<std::string> origins = kOrigins;
  std::string rp_id{v::kRpId};
  bool require_uv = false;

  Assertion(std::string_view auth_data_hex, std::string_view signature_hex, std::string_view cose_hex,
            std::uint32_t stored)
      : authenticator_data(hex(auth_data_hex)),
        signature(hex(signature_hex)),
        public_key(hex(cose_hex)),
        stored_sign_count(stored) {}

  Result<VerifiedAssertion> verify() const {
    return verify_assertion({client_data, authenticator_data, signature, public_key, stored_sign_count,
                             challenge, origins, rp_id, require_uv});
  }
  std::string code() const {
    auto r = verify();
    return r ? "ok" : r.error().code;
  }
};

Assertion es256(std::uint32_t stored = 0) {
  return Assertion(v::kEs256AssertionAuthDataHex, v::kEs256AssertionSignatureHex, v::kEs256CoseHex, stored);
}
Assertion rs256(std::uint32_t stored = 0) {
  return Assertion(v::kRs256AssertionCounter0AuthDataHex, v::kRs256AssertionCounter0SignatureHex,
                   v::kRs256CoseHex, stored);
}

}  // namespace

TEST_CASE("registration with an ES256 passkey and \"none\" attestation") {
  auto credential = Registration(v::kEs256AttestationNoneHex).verify();
  REQUIRE_MESSAGE(credential.ok(), credential.error().message);
  CHECK(credential->credential_id == hex(v::kEs256CredentialIdHex));
  CHECK(credential->public_key_cose == hex(v::kEs256CoseHex));
  CHECK(credential->public_key == parse_cose_key(hex(v::kEs256CoseHex)).value());
  CHECK(credential->alg == CoseAlgorithm::es256);
  CHECK(credential->sign_count == 0);
  CHECK(Bytes(credential->aaguid.begin(), credential->aaguid.end()) == hex(v::kAaguidHex));
  CHECK(credential->flags == 0x5d);  // UP UV BE BS AT
  CHECK(credential->user_verified());
  CHECK(credential->backup_eligible());
  CHECK(credential->backed_up());
  CHECK(credential->attestation_format == "none");
}

TEST_CASE("registration with an RS256 key (Windows Hello's algorithm)") {
  auto credential = Registration(v::kRs256AttestationNoneHex).verify();
  REQUIRE_MESSAGE(credential.ok(), credential.error().message);
  CHECK(credential->credential_id == hex(v::kRs256CredentialIdHex));
  CHECK(credential->public_key_cose == hex(v::kRs256CoseHex));
  CHECK(credential->alg == CoseAlgorithm::rs256);
  CHECK(std::get<RsaPublicKey>(credential->public_key.key).e == Bytes{1, 0, 1});
  CHECK_FALSE(credential->backup_eligible());
  CHECK_FALSE(credential->backed_up());
}

TEST_CASE("registration whose authenticator data carries extensions after the key") {
  auto credential = Registration(v::kEs256AttestationWithExtensionsHex).verify();
  REQUIRE_MESSAGE(credential.ok(), credential.error().message);
  CHECK(credential->public_key_cose == hex(v::kEs256CoseHex));
  CHECK(credential->sign_count == 1);
}

TEST_CASE("registration: the client data must be for this ceremony, challenge and origin") {
  Registration wrong_origin(v::kEs256AttestationNoneHex);
  wrong_origin.origins = {"https://login.example.com"};
  CHECK(wrong_origin.code() == "origin_not_allowed");

  Registration wrong_challenge(v::kEs256AttestationNoneHex);
  wrong_challenge.challenge.back() ^= 0x01;
  CHECK(wrong_challenge.code() == "challenge_mismatch");

  Registration wrong_type(v::kEs256AttestationNoneHex);
  wrong_type.client_data.assign(as_bytes(v::kGetClientData).begin(), as_bytes(v::kGetClientData).end());
  CHECK(wrong_type.code() == "type_mismatch");

  Registration not_json(v::kEs256AttestationNoneHex);
  not_json.client_data = {'{'};
  CHECK(not_json.code() == "invalid_client_data");
}

TEST_CASE("registration: the authenticator data must be for this RP ID, with the user present") {
  Registration wrong_rp(v::kEs256AttestationNoneHex);
  wrong_rp.rp_id = "login.example.com";
  auto r = wrong_rp.verify();
  CHECK(r.error().code == "rp_id_mismatch");
  CHECK(r.error().message == "the authenticator data was made for another relying party ID");

  CHECK(Registration(v::kEs256AttestationNoUpHex).code() == "user_not_present");
  CHECK(Registration(v::kEs256AttestationNoAtHex).code() == "missing_credential_data");
}

TEST_CASE("registration: user verification only when the policy requires it") {
  Registration no_uv(v::kEs256AttestationNoUvHex);
  CHECK(no_uv.code() == "ok");
  CHECK_FALSE(no_uv.verify()->user_verified());
  no_uv.require_uv = true;
  CHECK(no_uv.code() == "user_not_verified");
  Registration with_uv(v::kEs256AttestationNoneHex);
  with_uv.require_uv = true;
  CHECK(with_uv.code() == "ok");
}

TEST_CASE("registration: \"none\" attestation, or packed self attestation that verifies") {
  auto packed = Registration(v::kEs256AttestationPackedSelfHex).verify();
  REQUIRE_MESSAGE(packed.ok(), packed.error().message);
  CHECK(packed->attestation_format == "packed");
  CHECK(packed->credential_id == hex(v::kEs256CredentialIdHex));

  // Self attestation signs the client data hash too: other client data, other signed bytes.
  Registration other_client_data(v::kEs256AttestationPackedSelfHex);
  other_client_data.client_data.insert(other_client_data.client_data.end() - 1, {' '});
  CHECK(other_client_data.code() == "invalid_attestation");

  CHECK(Registration(v::kEs256AttestationPackedBadSigHex).code() == "invalid_attestation");
  CHECK(Registration(v::kEs256AttestationPackedWrongAlgHex).code() == "invalid_attestation");
  CHECK(Registration(v::kEs256AttestationNoneWithStatementHex).code() == "invalid_attestation");
  auto chain = Registration(v::kEs256AttestationPackedX5cHex).verify();
  CHECK(chain.error().code == "unsupported_attestation");
  CHECK(chain.error().message ==
        "packed attestation with a certificate chain is not accepted; ask for \"none\" attestation");
  CHECK(Registration(v::kEs256AttestationFidoU2fHex).code() == "unsupported_attestation");
}

TEST_CASE("registration: the attestation object must be the expected CBOR map") {
  CHECK(Registration("").code() == "invalid_cbor");
  CHECK(Registration("a0").code() == "invalid_attestation_object");
  CHECK(Registration("80").code() == "invalid_attestation_object");
  // {"fmt": "none", "attStmt": {}} without authData.
  CHECK(Registration("a263666d74646e6f6e656761747453746d74a0").code() == "invalid_attestation_object");
  // {"fmt": 1, "attStmt": {}, "authData": h''}
  CHECK(Registration("a363666d74016761747453746d74a068617574684461746140").code() ==
        "invalid_attestation_object");
  // {"fmt": "none", "attStmt": {}, "authData": h'00'}: authenticator data too short.
  CHECK(Registration("a363666d74646e6f6e656761747453746d74a068617574684461746141"
                     "00")
            .code() == "invalid_authenticator_data");
  Bytes trailing = hex(v::kEs256AttestationNoneHex);
  trailing.push_back(0);
  Registration with_trailing("");
  with_trailing.attestation_object = trailing;
  CHECK(with_trailing.code() == "invalid_cbor");
}

TEST_CASE("registration: checks run in the documented order") {
  Registration r(v::kEs256AttestationNoUpHex);
  r.rp_id = "other.example";
  r.origins = {};
  CHECK(r.code() == "origin_not_allowed");
  r.origins = kOrigins;
  CHECK(r.code() == "rp_id_mismatch");
  r.rp_id = v::kRpId;
  CHECK(r.code() == "user_not_present");
}

TEST_CASE("authentication with ES256: the signature verifies and the counter advances") {
  auto result = es256(4).verify();
  REQUIRE_MESSAGE(result.ok(), result.error().message);
  CHECK(result->sign_count == 5);
  CHECK(result->user_verified());
  CHECK(es256(0).code() == "ok");
}

TEST_CASE("authentication with RS256 and an authenticator without a counter (0 and 0)") {
  auto result = rs256(0).verify();
  REQUIRE_MESSAGE(result.ok(), result.error().message);
  CHECK(result->sign_count == 0);
  CHECK(result->backup_eligible());
  CHECK(result->backed_up());
}

TEST_CASE("a counter that does not increase means a possibly cloned authenticator") {
  auto same = es256(5).verify();
  CHECK(same.error().code == "sign_count_regressed");
  CHECK(same.error().message ==
        "the authenticator's signature counter did not increase, so the credential may have been cloned");
  CHECK(es256(6).code() == "sign_count_regressed");
  CHECK(es256(0xffffffff).code() == "sign_count_regressed");
  // A counter that was seen once and is now 0.
  CHECK(rs256(3).code() == "sign_count_regressed");
}

TEST_CASE("authentication: a tampered signature, data or key does not verify") {
  Assertion flipped = es256();
  flipped.signature[flipped.signature.size() - 5] ^= 0x01;
  CHECK(flipped.code() == "invalid_signature");

  Assertion rsa_flipped = rs256();
  rsa_flipped.signature[100] ^= 0x80;
  CHECK(rsa_flipped.code() == "invalid_signature");

  Assertion truncated = es256();
  truncated.signature.pop_back();
  CHECK(truncated.code() == "invalid_signature");

  Assertion empty = es256();
  empty.signature.clear();
  CHECK(empty.code() == "invalid_signature");

  Assertion counter_changed = es256();
  counter_changed.authenticator_data[36] = 6;  // the last counter byte
  CHECK(counter_changed.code() == "invalid_signature");

  Assertion client_data_changed = es256();
  client_data_changed.client_data.insert(client_data_changed.client_data.end() - 1, {' '});
  CHECK(client_data_changed.code() == "invalid_signature");

  Assertion other_key = es256();
  other_key.public_key = hex(v::kRs256CoseHex);
  CHECK(other_key.code() == "invalid_signature");

  Assertion raw_ecdsa = es256();  // r || s instead of DER is not what WebAuthn sends
  raw_ecdsa.signature = Bytes(64, 0x11);
  CHECK(raw_ecdsa.code() == "invalid_signature");
}

TEST_CASE("authentication: relying party, user presence and verification") {
  Assertion wrong_rp = es256();
  wrong_rp.rp_id = "example.org";
  CHECK(wrong_rp.code() == "rp_id_mismatch");

  Assertion no_up = es256();
  no_up.authenticator_data[32] &= static_cast<std::uint8_t>(~0x01);
  CHECK(no_up.code() == "user_not_present");

  Assertion up_only(v::kEs256AssertionUpOnlyAuthDataHex, v::kEs256AssertionUpOnlySignatureHex,
                    v::kEs256CoseHex, 0);
  auto result = up_only.verify();
  REQUIRE(result.ok());
  CHECK(result->sign_count == 7);
  CHECK_FALSE(result->user_verified());
  up_only.require_uv = true;
  CHECK(up_only.code() == "user_not_verified");
}

TEST_CASE("authentication: client data for this ceremony, challenge and origin") {
  Assertion wrong_type = es256();
  wrong_type.client_data.assign(as_bytes(v::kCreateClientData).begin(), as_bytes(v::kCreateClientData).end());
  CHECK(wrong_type.code() == "type_mismatch");

  Assertion wrong_challenge = es256();
  wrong_challenge.challenge = Bytes(32, 0);
  CHECK(wrong_challenge.code() == "challenge_mismatch");

  Assertion wrong_origin = es256();
  wrong_origin.origins = {"https://example.org"};
  CHECK(wrong_origin.code() == "origin_not_allowed");
  // Several allowed origins: any one of them.
  wrong_origin.origins = {"https://example.org", "https://example.com"};
  CHECK(wrong_origin.code() == "ok");
}

TEST_CASE("authentication: a stored key that cannot be read is reported first") {
  Assertion broken = es256();
  broken.public_key = {0xa1};
  broken.origins = {};
  CHECK(broken.code() == "invalid_cbor");
  broken.public_key = hex("a201010327");  // OKP, EdDSA
  CHECK(broken.code() == "unsupported_key");
}

TEST_CASE("authentication: the first failing check decides the code") {
  Assertion a = es256(9);
  a.signature.clear();
  a.require_uv = true;
  a.authenticator_data[32] = 0x00;
  a.rp_id = "example.org";
  a.origins = {};
  CHECK(a.code() == "origin_not_allowed");
  a.origins = kOrigins;
  CHECK(a.code() == "rp_id_mismatch");
  a.rp_id = v::kRpId;
  CHECK(a.code() == "user_not_present");
  a.authenticator_data[32] = 0x01;
  CHECK(a.code() == "user_not_verified");
  a.require_uv = false;
  CHECK(a.code() == "invalid_signature");
  a.signature = hex(v::kEs256AssertionSignatureHex);
  a.authenticator_data[32] = 0x05;
  CHECK(a.code() == "sign_count_regressed");
}
