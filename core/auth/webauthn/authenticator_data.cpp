#include "core/auth/webauthn/authenticator_data.h"

#include <algorithm>
#include <string>
#include <utility>

namespace core::webauthn {
namespace {

constexpr std::size_t kHeaderLength = 32 + 1 + 4;      // rpIdHash, flags, signCount
constexpr std::size_t kAttestedHeaderLength = 16 + 2;  // aaguid, credentialIdLength

Error invalid_data(std::string message) {
  return make_error("invalid_authenticator_data", std::move(message));
}

}  // namespace

Result<AuthenticatorData> parse_authenticator_data(std::span<const std::uint8_t> data) {
  if (data.size() < kHeaderLength) {
    return invalid_data("authenticator data is " + std::to_string(data.size()) +
                        " bytes long; it must have at least 37");
  }
  AuthenticatorData out;
  std::copy_n(data.begin(), 32, out.rp_id_hash.begin());
  out.flags = data[32];
  out.sign_count = (std::uint32_t{data[33]} << 24) | (std::uint32_t{data[34]} << 16) |
                   (std::uint32_t{data[35]} << 8) | std::uint32_t{data[36]};
  // Level 3 §6.1.3: a credential that cannot be backed up cannot be backed up now.
  if (out.has(kFlagBackedUp) && !out.has(kFlagBackupEligible)) {
    return invalid_data("authenticator data sets the backed-up flag without the backup-eligible flag");
  }
  std::span<const std::uint8_t> rest = data.subspan(kHeaderLength);

  if (out.has(kFlagAttestedData)) {
    if (rest.size() < kAttestedHeaderLength) {
      return invalid_data("authenticator data announces attested credential data but ends before it");
    }
    AttestedCredentialData credential;
    std::copy_n(rest.begin(), 16, credential.aaguid.begin());
    const std::size_t id_length = (std::size_t{rest[16]} << 8) | rest[17];
    rest = rest.subspan(kAttestedHeaderLength);
    if (id_length > kMaxCredentialIdLength) {
      return invalid_data("the credential ID is " + std::to_string(id_length) +
                          " bytes long; at most 1023 are allowed");
    }
    if (id_length > rest.size()) return invalid_data("authenticator data ends inside the credential ID");
    credential.credential_id.assign(rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(id_length));
    rest = rest.subspan(id_length);
    auto key = decode_cbor_prefix(rest);
    if (!key) return key.error();
    credential.credential_public_key.assign(rest.begin(),
                                            rest.begin() + static_cast<std::ptrdiff_t>(key->consumed));
    rest = rest.subspan(key->consumed);
    out.attested_credential = std::move(credential);
  }

  if (out.has(kFlagExtensionData)) {
    if (rest.empty()) return invalid_data("authenticator data announces extensions but ends before them");
    auto extensions = decode_cbor(rest);
    if (!extensions) return extensions.error();
    if (extensions->type != CborType::map) return invalid_data("authenticator extensions are not a CBOR map");
    out.extensions = std::move(*extensions);
    rest = {};
  }

  if (!rest.empty()) {
    return invalid_data("authenticator data has " + std::to_string(rest.size()) + " unexpected trailing " +
                        (rest.size() == 1 ? "byte" : "bytes"));
  }
  return out;
}

}  // namespace core::webauthn
