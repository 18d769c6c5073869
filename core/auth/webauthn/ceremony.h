#pragma once
// The relying party's two WebAuthn ceremonies (Level 2 §7.1 registration, §7.2 authentication), minus what
// needs storage: the caller issues and remembers the challenge, looks up the credential by its ID (and
// checks that it belongs to the user being signed in, and the userHandle if it needs to), refuses a
// credential ID that is already registered, and stores what verify_registration returns.

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/auth/webauthn/authenticator_data.h"
#include "core/auth/webauthn/cose_key.h"
#include "core/bytes.h"
#include "core/result.h"

namespace core::webauthn {

struct RegistrationInput {
  std::span<const std::uint8_t> client_data_json;    // response.clientDataJSON, as received
  std::span<const std::uint8_t> attestation_object;  // response.attestationObject, as received
  std::span<const std::uint8_t> expected_challenge;  // the challenge issued for this ceremony
  std::span<const std::string> allowed_origins;      // e.g. "https://login.example.com"; exact strings
  std::string_view rp_id;                            // e.g. "example.com"
  bool require_user_verification = false;
};

// What a relying party stores for a new credential.
struct RegisteredCredential {
  Bytes credential_id;
  Bytes public_key_cose;  // the COSE_Key exactly as the authenticator encoded it; AssertionInput takes it
  CosePublicKey public_key;
  CoseAlgorithm alg = CoseAlgorithm::es256;
  std::uint32_t sign_count = 0;
  std::array<std::uint8_t, 16> aaguid{};  // all zero when the authenticator or browser hides its model
  std::uint8_t flags = 0;                 // authenticatorData flags (kFlag*)
  std::string attestation_format;         // "none" or "packed" (self attestation)

  bool user_verified() const { return (flags & kFlagUserVerified) != 0; }
  // May be synced to other devices (a multi-device passkey).
  bool backup_eligible() const { return (flags & kFlagBackupEligible) != 0; }
  bool backed_up() const { return (flags & kFlagBackedUp) != 0; }
};

// Verifies a registration. Checks, in this order (the first failure decides the code):
//   clientDataJSON: `invalid_client_data`, `type_mismatch` ("webauthn.create"), `challenge_mismatch`,
//     `origin_not_allowed`, `cross_origin_not_allowed` (see check_client_data);
//   attestationObject: `invalid_cbor`, `invalid_attestation_object` (not a map with a text `fmt`, a map
//     `attStmt` and a byte string `authData`);
//   authenticatorData: `invalid_authenticator_data` / `invalid_cbor` (see parse_authenticator_data),
//     `rp_id_mismatch` (rpIdHash is not SHA-256 of `rp_id`), `user_not_present` (UP clear),
//     `user_not_verified` (UV clear while required), `missing_credential_data` (AT clear);
//   credential public key: `invalid_cbor`, `unsupported_key`, `invalid_key` (see parse_cose_key);
//   attestation statement: `unsupported_attestation` (a format other than "none" and "packed", or "packed"
//     with a certificate chain), `invalid_attestation` ("none" with a non-empty attStmt; "packed" whose
//     `alg` is not the credential's or whose `sig` does not verify with the credential key).
// Attestation is never trusted for anything: "packed" self attestation is accepted only because browsers
// pass it through where they would otherwise send "none", and proves nothing beyond the key itself.
Result<RegisteredCredential> verify_registration(const RegistrationInput& input);

struct AssertionInput {
  std::span<const std::uint8_t> client_data_json;    // response.clientDataJSON, as received
  std::span<const std::uint8_t> authenticator_data;  // response.authenticatorData, as received
  std::span<const std::uint8_t> signature;           // response.signature, as received
  std::span<const std::uint8_t> public_key_cose;     // RegisteredCredential::public_key_cose, as stored
  std::uint32_t stored_sign_count = 0;               // the counter stored with the credential
  std::span<const std::uint8_t> expected_challenge;
  std::span<const std::string> allowed_origins;
  std::string_view rp_id;
  bool require_user_verification = false;
};

struct VerifiedAssertion {
  std::uint32_t sign_count = 0;  // store it as the credential's new counter
  std::uint8_t flags = 0;

  bool user_verified() const { return (flags & kFlagUserVerified) != 0; }
  bool backup_eligible() const { return (flags & kFlagBackupEligible) != 0; }
  bool backed_up() const { return (flags & kFlagBackedUp) != 0; }  // may change over a credential's life
};

// Verifies an authentication. Checks, in this order (the first failure decides the code):
//   the stored key: `invalid_cbor`, `unsupported_key`, `invalid_key` (the relying party's data is broken);
//   clientDataJSON: `invalid_client_data`, `type_mismatch` ("webauthn.get"), `challenge_mismatch`,
//     `origin_not_allowed`, `cross_origin_not_allowed`;
//   authenticatorData: `invalid_authenticator_data` / `invalid_cbor`, `rp_id_mismatch`,
//     `user_not_present`, `user_not_verified`;
//   `invalid_signature`: the signature over authenticatorData || SHA-256(clientDataJSON) does not verify;
//   `sign_count_regressed` (§7.2 step 21): the stored or the new counter is non-zero and the new one is not
//     greater than the stored one, a sign that the credential may have been cloned. Two zero counters (an
//     authenticator without a counter, as synced passkeys are) pass.
Result<VerifiedAssertion> verify_assertion(const AssertionInput& input);

}  // namespace core::webauthn
