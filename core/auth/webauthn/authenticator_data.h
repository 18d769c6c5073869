#pragma once
// authenticatorData (WebAuthn Level 2 §6.1): what the authenticator signs about itself and the relying
// party: the RP ID hash, the flags, the signature counter and, at registration, the new credential.

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "core/auth/webauthn/cbor.h"
#include "core/bytes.h"
#include "core/result.h"

namespace core::webauthn {

// Flag bits (§6.1; BE and BS from Level 3 §6.1, reserved bits in Level 2).
inline constexpr std::uint8_t kFlagUserPresent = 0x01;     // UP
inline constexpr std::uint8_t kFlagUserVerified = 0x04;    // UV
inline constexpr std::uint8_t kFlagBackupEligible = 0x08;  // BE
inline constexpr std::uint8_t kFlagBackedUp = 0x10;        // BS
inline constexpr std::uint8_t kFlagAttestedData = 0x40;    // AT
inline constexpr std::uint8_t kFlagExtensionData = 0x80;   // ED

// Credential IDs are at most 1023 bytes (Level 3 §5.1 "credential ID").
inline constexpr std::size_t kMaxCredentialIdLength = 1023;

// §6.5.1: present when the AT flag is set.
struct AttestedCredentialData {
  std::array<std::uint8_t, 16> aaguid{};
  Bytes credential_id;
  // The COSE_Key exactly as the authenticator encoded it: what a relying party stores. Parsed by
  // parse_cose_key.
  Bytes credential_public_key;
};

struct AuthenticatorData {
  std::array<std::uint8_t, 32> rp_id_hash{};
  std::uint8_t flags = 0;
  std::uint32_t sign_count = 0;
  std::optional<AttestedCredentialData> attested_credential;  // AT
  std::optional<CborValue> extensions;                        // ED: a CBOR map

  bool has(std::uint8_t flag) const { return (flags & flag) != 0; }
};

// Splits authenticatorData into its parts. The flags decide the layout: with AT, attested credential data
// follows the 37-byte header (its public key is one CBOR item, whose length is known only by decoding it);
// with ED, exactly one CBOR map of extensions ends the data. Nothing may follow. Reserved flag bits are
// ignored. The public key is not interpreted here (parse_cose_key).
// Errors: `invalid_authenticator_data` (shorter than 37 bytes, AT or ED set without their data, a credential
// ID longer than kMaxCredentialIdLength or running past the end, extensions that are not a map, trailing
// bytes, BS set without BE); `invalid_cbor` (the public key or the extensions are not well-formed CBOR).
Result<AuthenticatorData> parse_authenticator_data(std::span<const std::uint8_t> data);

}  // namespace core::webauthn
