#pragma once
// clientDataJSON (WebAuthn Level 2 §5.8.1): what the browser says about the ceremony it ran, checked
// against what the relying party asked for.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/result.h"

namespace core::webauthn {

enum class CeremonyType {
  create,  // registration: "webauthn.create"
  get,     // authentication: "webauthn.get"
};

// The members the checks use. Others (tokenBinding, topOrigin, future ones) are ignored.
struct CollectedClientData {
  std::string type;
  std::string challenge;  // base64url as sent
  std::string origin;
  bool cross_origin = false;
};

// Parses clientDataJSON (UTF-8 JSON; the bytes the signature covers through their hash). `type`,
// `challenge` and `origin` must be strings, `crossOrigin` a boolean when present.
// Errors: `invalid_client_data`.
Result<CollectedClientData> parse_client_data(std::span<const std::uint8_t> client_data_json);

// Checks §7.1 steps 7-9 (§7.2 steps 11-13) in that order:
// - `type` is "webauthn.create" / "webauthn.get" for `expected_type`: else `type_mismatch`;
// - `challenge` is the base64url form (no padding) of `expected_challenge`, compared in constant time;
//   an empty expected challenge matches nothing: else `challenge_mismatch`;
// - `origin` equals one of `allowed_origins` byte for byte (scheme, host and port, no normalisation); an
//   empty list allows nothing: else `origin_not_allowed`;
// - `crossOrigin` is absent or false (the platform's pages are never embedded in other sites' frames):
//   else `cross_origin_not_allowed`.
Status check_client_data(const CollectedClientData& client_data, CeremonyType expected_type,
                         std::span<const std::uint8_t> expected_challenge,
                         std::span<const std::string> allowed_origins);

}  // namespace core::webauthn
