#include "core/auth/webauthn/client_data.h"

#include <algorithm>
#include <utility>

#include "core/bytes.h"
#include "core/crypto.h"
#include "core/json.h"

namespace core::webauthn {
namespace {

Error invalid_client_data(std::string message) {
  return make_error("invalid_client_data", std::move(message));
}

Result<std::string> require_member(const json::object& o, std::string_view key) {
  auto it = o.find(key);
  if (it == o.end()) return invalid_client_data("client data has no \"" + std::string(key) + "\" member");
  const json::string* s = it->value().if_string();
  if (!s) return invalid_client_data("client data member \"" + std::string(key) + "\" is not a string");
  return std::string(s->data(), s->size());
}

}  // namespace

Result<CollectedClientData> parse_client_data(std::span<const std::uint8_t> client_data_json) {
  auto object = parse_json_object(to_string(client_data_json));
  if (!object) return invalid_client_data("client data is not a JSON object");
  CollectedClientData out;
  auto type = require_member(*object, "type");
  if (!type) return type.error();
  auto challenge = require_member(*object, "challenge");
  if (!challenge) return challenge.error();
  auto origin = require_member(*object, "origin");
  if (!origin) return origin.error();
  out.type = std::move(*type);
  out.challenge = std::move(*challenge);
  out.origin = std::move(*origin);
  if (auto it = object->find("crossOrigin"); it != object->end()) {
    if (!it->value().is_bool())
      return invalid_client_data("client data member \"crossOrigin\" is not a boolean");
    out.cross_origin = it->value().get_bool();
  }
  return out;
}

Status check_client_data(const CollectedClientData& client_data, CeremonyType expected_type,
                         std::span<const std::uint8_t> expected_challenge,
                         std::span<const std::string> allowed_origins) {
  const std::string_view wanted_type =
      expected_type == CeremonyType::create ? "webauthn.create" : "webauthn.get";
  if (client_data.type != wanted_type) {
    return make_error("type_mismatch", "the client data's type is not \"" + std::string(wanted_type) + "\"");
  }
  // Compared as text: base64url_encode writes the one canonical form, so a padded or otherwise re-encoded
  // challenge does not match.
  const std::string expected = base64url_encode(expected_challenge);
  if (expected_challenge.empty() || !constant_time_equal(client_data.challenge, expected)) {
    return make_error("challenge_mismatch", "the challenge in the client data is not the one issued");
  }
  if (std::find(allowed_origins.begin(), allowed_origins.end(), client_data.origin) ==
      allowed_origins.end()) {
    return make_error("origin_not_allowed", "the ceremony ran on an origin that is not allowed");
  }
  if (client_data.cross_origin) {
    return make_error("cross_origin_not_allowed",
                      "the ceremony ran in a cross-origin frame, which is not allowed");
  }
  return {};
}

}  // namespace core::webauthn
