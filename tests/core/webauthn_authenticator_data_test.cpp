// authenticatorData (core/auth/webauthn/authenticator_data.h): header, attested credential data and
// extensions, laid out as the flags say.

#include <doctest/doctest.h>

#include <string>

#include "core/auth/webauthn/authenticator_data.h"
#include "core/bytes.h"
#include "core/crypto.h"
#include "tests/core/webauthn_vectors.h"

using namespace core;
using namespace core::webauthn;
namespace v = webauthn_vectors;

namespace {

Bytes hex(std::string_view text) {
  return hex_decode(text).value();
}

// The 37-byte header for example.com with the given flags and counter bytes.
Bytes header(std::uint8_t flags, Bytes counter = {0, 0, 0, 0}) {
  const Digest rp = sha256("example.com");
  Bytes out(rp.begin(), rp.end());
  out.push_back(flags);
  out.insert(out.end(), counter.begin(), counter.end());
  return out;
}

// Attested credential data with the vectors' AAGUID, a credential ID of `id_length` bytes and `key`.
Bytes attested(std::size_t id_length, const Bytes& key) {
  Bytes out = hex(v::kAaguidHex);
  out.push_back(static_cast<std::uint8_t>(id_length >> 8));
  out.push_back(static_cast<std::uint8_t>(id_length));
  out.insert(out.end(), id_length, 0xc1);
  out.insert(out.end(), key.begin(), key.end());
  return out;
}

Bytes concat(Bytes a, const Bytes& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

std::string refusal(const Bytes& data) {
  auto r = parse_authenticator_data(data);
  return r ? "accepted" : r.error().code + ": " + r.error().message;
}

}  // namespace

TEST_CASE("an assertion's authenticator data is the 37-byte header alone") {
  auto data = parse_authenticator_data(hex(v::kEs256AssertionAuthDataHex));
  REQUIRE(data.ok());
  const Digest rp = sha256("example.com");
  CHECK(data->rp_id_hash == rp);
  CHECK(data->flags == (kFlagUserPresent | kFlagUserVerified));
  CHECK(data->has(kFlagUserPresent));
  CHECK_FALSE(data->has(kFlagAttestedData));
  CHECK(data->sign_count == 5);
  CHECK_FALSE(data->attested_credential.has_value());
  CHECK_FALSE(data->extensions.has_value());
}

TEST_CASE("the signature counter is big-endian") {
  CHECK(parse_authenticator_data(header(0x01, {0x01, 0x02, 0x03, 0x04}))->sign_count == 0x01020304u);
  CHECK(parse_authenticator_data(header(0x01, {0xff, 0xff, 0xff, 0xff}))->sign_count == 0xffffffffu);
}

TEST_CASE("with AT and ED: credential ID, the key's exact bytes, then the extensions map") {
  auto data = parse_authenticator_data(hex(v::kEs256AuthDataWithExtensionsHex));
  REQUIRE(data.ok());
  CHECK(data->has(kFlagAttestedData));
  CHECK(data->has(kFlagExtensionData));
  CHECK(data->sign_count == 1);
  REQUIRE(data->attested_credential.has_value());
  const AttestedCredentialData& credential = *data->attested_credential;
  CHECK(Bytes(credential.aaguid.begin(), credential.aaguid.end()) == hex(v::kAaguidHex));
  CHECK(credential.credential_id == hex(v::kEs256CredentialIdHex));
  CHECK(credential.credential_public_key == hex(v::kEs256CoseHex));
  REQUIRE(data->extensions.has_value());
  CHECK(data->extensions->find("credProtect")->as_int64() == 2);
}

TEST_CASE("credential IDs up to 1023 bytes") {
  const Bytes key = hex(v::kEs256CoseHex);
  auto longest = parse_authenticator_data(concat(header(0x41), attested(1023, key)));
  REQUIRE(longest.ok());
  CHECK(longest->attested_credential->credential_id.size() == 1023);
  CHECK(longest->attested_credential->credential_public_key == key);
  CHECK(refusal(concat(header(0x41), attested(1024, key))) ==
        "invalid_authenticator_data: the credential ID is 1024 bytes long; at most 1023 are allowed");
}

TEST_CASE("malformed authenticator data is refused") {
  const Bytes key = hex(v::kEs256CoseHex);
  CHECK(refusal(Bytes(36, 0)) ==
        "invalid_authenticator_data: authenticator data is 36 bytes long; it must have at least 37");
  CHECK(refusal({}) ==
        "invalid_authenticator_data: authenticator data is 0 bytes long; it must have at least 37");
  CHECK(
      refusal(header(0x41)) ==
      "invalid_authenticator_data: authenticator data announces attested credential data but ends before it");
  Bytes id_past_end = concat(header(0x41), attested(16, {}));
  id_past_end.resize(id_past_end.size() - 1);
  CHECK(refusal(id_past_end) ==
        "invalid_authenticator_data: authenticator data ends inside the credential ID");
  // AT with an ID but no key: the key's CBOR is truncated.
  CHECK(refusal(concat(header(0x41), attested(16, {}))) ==
        "invalid_cbor: CBOR data ends in the middle of an item");
  Bytes cut_key = concat(header(0x41), attested(16, key));
  cut_key.pop_back();
  CHECK(refusal(cut_key).starts_with("invalid_cbor: "));
  // Bytes after the key without ED, after the header without AT.
  CHECK(refusal(concat(concat(header(0x41), attested(16, key)), {0xa0})) ==
        "invalid_authenticator_data: authenticator data has 1 unexpected trailing byte");
  CHECK(refusal(concat(header(0x01), {0x00, 0x00})) ==
        "invalid_authenticator_data: authenticator data has 2 unexpected trailing bytes");
  // ED: exactly one map.
  CHECK(refusal(header(0x81)) ==
        "invalid_authenticator_data: authenticator data announces extensions but ends before them");
  CHECK(refusal(concat(header(0x81), {0x01})) ==
        "invalid_authenticator_data: authenticator extensions are not a CBOR map");
  CHECK(refusal(concat(header(0x81), {0xa0, 0xa0})) ==
        "invalid_cbor: CBOR data has 1 trailing byte after its item");
  CHECK(refusal(concat(header(0x81), {0xa0})) == "accepted");
}

TEST_CASE("backed up (BS) without backup eligible (BE) is impossible") {
  CHECK(refusal(header(0x11)) ==
        "invalid_authenticator_data: authenticator data sets the backed-up flag without the backup-eligible "
        "flag");
  CHECK(refusal(header(0x19)) == "accepted");
  CHECK(refusal(header(0x09)) == "accepted");
}

TEST_CASE("reserved flag bits are ignored") {
  auto data = parse_authenticator_data(header(0x01 | 0x02 | 0x20));
  REQUIRE(data.ok());
  CHECK(data->flags == 0x23);
}
