#include "core/auth/webauthn/ceremony.h"

#include <utility>

#include "core/auth/webauthn/authenticator_data.h"
#include "core/auth/webauthn/cbor.h"
#include "core/auth/webauthn/client_data.h"
#include "core/auth/webauthn/signature.h"
#include "core/crypto.h"

namespace core::webauthn {
namespace {

Status check_client(std::span<const std::uint8_t> client_data_json, CeremonyType type,
                    std::span<const std::uint8_t> expected_challenge,
                    std::span<const std::string> allowed_origins) {
  auto client_data = parse_client_data(client_data_json);
  if (!client_data) return client_data.error();
  return check_client_data(*client_data, type, expected_challenge, allowed_origins);
}

// §7.1 steps 13-15, §7.2 steps 15-17: the data was made for this relying party, with the user present
// and, when the policy asks for it, verified.
Status check_rp_and_user(const AuthenticatorData& data, std::string_view rp_id,
                         bool require_user_verification) {
  if (!constant_time_equal(data.rp_id_hash, sha256(rp_id))) {
    return make_error("rp_id_mismatch", "the authenticator data was made for another relying party ID");
  }
  if (!data.has(kFlagUserPresent)) {
    return make_error("user_not_present", "the authenticator did not confirm that the user was present");
  }
  if (require_user_verification && !data.has(kFlagUserVerified)) {
    return make_error("user_not_verified", "the authenticator did not verify the user, which is required");
  }
  return {};
}

// authenticatorData || SHA-256(clientDataJSON): what assertion and attestation signatures cover.
Bytes signed_data(std::span<const std::uint8_t> authenticator_data,
                  std::span<const std::uint8_t> client_data_json) {
  Bytes out(authenticator_data.begin(), authenticator_data.end());
  const Digest client_data_hash = sha256(client_data_json);
  out.insert(out.end(), client_data_hash.begin(), client_data_hash.end());
  return out;
}

Error invalid_attestation_object(std::string message) {
  return make_error("invalid_attestation_object", std::move(message));
}

// §8.7 and §8.2: "none" carries nothing; "packed" without `x5c` is self attestation, a signature by the
// credential key itself.
Status check_attestation_statement(const std::string& fmt, const CborValue& statement,
                                   const CosePublicKey& key, const Bytes& to_sign) {
  if (fmt == "none") {
    if (!statement.entries.empty()) {
      return make_error("invalid_attestation", "a \"none\" attestation must have an empty statement");
    }
    return {};
  }
  if (fmt != "packed") {
    return make_error("unsupported_attestation",
                      "only \"none\" attestation (and packed self attestation) is accepted");
  }
  if (statement.find("x5c")) {
    return make_error(
        "unsupported_attestation",
        "packed attestation with a certificate chain is not accepted; ask for \"none\" attestation");
  }
  const CborValue* alg = statement.find("alg");
  const CborValue* sig = statement.find("sig");
  if (!alg || !sig || sig->type != CborType::byte_string || !alg->as_int64()) {
    return make_error("invalid_attestation",
                      "a packed attestation statement must have an integer alg and a byte string sig");
  }
  if (*alg->as_int64() != static_cast<std::int64_t>(key.alg)) {
    return make_error("invalid_attestation", "the packed attestation's algorithm is not the credential's");
  }
  if (!verify_signature(key, to_sign, sig->bytes)) {
    return make_error("invalid_attestation", "the packed self attestation's signature does not verify");
  }
  return {};
}

}  // namespace

Result<RegisteredCredential> verify_registration(const RegistrationInput& input) {
  CORE_TRY(check_client(input.client_data_json, CeremonyType::create, input.expected_challenge,
                        input.allowed_origins));

  auto object = decode_cbor(input.attestation_object);
  if (!object) return object.error();
  if (object->type != CborType::map)
    return invalid_attestation_object("the attestation object is not a CBOR map");
  const CborValue* fmt = object->find("fmt");
  const CborValue* statement = object->find("attStmt");
  const CborValue* auth_data_bytes = object->find("authData");
  if (!fmt || fmt->type != CborType::text_string) {
    return invalid_attestation_object("the attestation object has no text \"fmt\"");
  }
  if (!statement || statement->type != CborType::map) {
    return invalid_attestation_object("the attestation object has no map \"attStmt\"");
  }
  if (!auth_data_bytes || auth_data_bytes->type != CborType::byte_string) {
    return invalid_attestation_object("the attestation object has no byte string \"authData\"");
  }

  auto auth_data = parse_authenticator_data(auth_data_bytes->bytes);
  if (!auth_data) return auth_data.error();
  CORE_TRY(check_rp_and_user(*auth_data, input.rp_id, input.require_user_verification));
  if (!auth_data->attested_credential) {
    return make_error("missing_credential_data", "the authenticator data holds no new credential");
  }
  AttestedCredentialData& credential = *auth_data->attested_credential;
  auto key = parse_cose_key(credential.credential_public_key);
  if (!key) return key.error();

  CORE_TRY(check_attestation_statement(fmt->text, *statement, *key,
                                       signed_data(auth_data_bytes->bytes, input.client_data_json)));

  RegisteredCredential out;
  out.credential_id = std::move(credential.credential_id);
  out.public_key_cose = std::move(credential.credential_public_key);
  out.alg = key->alg;
  out.public_key = std::move(*key);
  out.sign_count = auth_data->sign_count;
  out.aaguid = credential.aaguid;
  out.flags = auth_data->flags;
  out.attestation_format = fmt->text;
  return out;
}

Result<VerifiedAssertion> verify_assertion(const AssertionInput& input) {
  auto key = parse_cose_key(input.public_key_cose);
  if (!key) return key.error();
  CORE_TRY(check_client(input.client_data_json, CeremonyType::get, input.expected_challenge,
                        input.allowed_origins));
  auto auth_data = parse_authenticator_data(input.authenticator_data);
  if (!auth_data) return auth_data.error();
  CORE_TRY(check_rp_and_user(*auth_data, input.rp_id, input.require_user_verification));
  if (!verify_signature(*key, signed_data(input.authenticator_data, input.client_data_json),
                        input.signature)) {
    return make_error("invalid_signature",
                      "the assertion's signature does not verify with the credential's key");
  }
  const std::uint32_t stored = input.stored_sign_count;
  const std::uint32_t received = auth_data->sign_count;
  if ((stored != 0 || received != 0) && received <= stored) {
    return make_error(
        "sign_count_regressed",
        "the authenticator's signature counter did not increase, so the credential may have been cloned");
  }
  return VerifiedAssertion{received, auth_data->flags};
}

}  // namespace core::webauthn
