#pragma once
// The OpenID providers an auth project offers for social sign-in (docs/auth-social.md), one record each:
//
//   p/<pid>/idp/<providerId>   id, name, issuer, clientId, clientSecret (sealed), scopes, createdAt,
//   updatedAt
//
// The client secret is sealed (core/sealed.h) under the deployment's secret key, bound to the record's key,
// and never leaves this file in an API answer. Discovery and the network are the callers' business
// (social_oidc.h): these functions only validate, store and read.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/result.h"

namespace edge {
struct App;
}

namespace edge::auth_projects {

namespace json = core::json;
struct Project;

inline constexpr std::size_t kMaxProvidersPerProject = 20;

struct SocialProvider {
  std::string id, project_id, name, issuer, client_id;
  std::vector<std::string> scopes;  // "openid" first
  std::int64_t created_at = 0, updated_at = 0;
};

// The dashboard's view: every member but the client secret.
json::object to_api(const SocialProvider& p);

// The dashboard's fields of a provider: name, issuer, clientId, clientSecret, scopes. `creating`: all but
// scopes are required (scopes default to openid email profile). Absent members stay unset.
struct ProviderFields {
  std::optional<std::string> name, issuer, client_id, client_secret;
  std::optional<std::vector<std::string>> scopes;
};
// Errors (all 400): `missing_field`, `invalid_field` (wrong JSON type), `invalid_setting` (empty or too long
// text, a scope that is not a scope token, too many scopes), `invalid_url` (the issuer is not an http(s)
// URL, or has a query or fragment).
core::Result<ProviderFields> parse_provider_fields(const json::object& body, bool creating);

// Creates the provider from checked fields (the caller discovered the issuer). Errors: `not_found` (the
// project is gone), `conflict` (kMaxProvidersPerProject reached), `storage_error`.
core::Result<SocialProvider> create_provider(App& app, const Project& project, const ProviderFields& fields);
core::Result<std::vector<SocialProvider>> list_providers(App& app, std::string_view pid);
// `not_found`.
core::Result<SocialProvider> find_provider(App& app, std::string_view pid, std::string_view provider_id);
// Applies the present fields. `not_found`, `storage_error`.
core::Result<SocialProvider> update_provider(App& app, std::string_view pid, std::string_view provider_id,
                                             const ProviderFields& fields);
// Deletes the provider and every identity linked through it (the users stay). `not_found`, `storage_error`.
core::Status delete_provider(App& app, std::string_view pid, std::string_view provider_id);

// The provider's client secret in plaintext, for the token request. `not_found`, `sealed_invalid` (the
// deployment's secret key changed), `storage_error`.
core::Result<std::string> provider_client_secret(App& app, const SocialProvider& provider);

}  // namespace edge::auth_projects
