#pragma once
// What social sign-in keeps of the providers between requests (docs/auth-social.md, "Providers"): each
// issuer's discovery document, for an hour, and its signing keys (native/oidc/jwks_cache.h). One instance
// serves every project; the routes of social_routes.h share it.

#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "core/clock.h"
#include "native/oidc/relying_party.h"

namespace edge::auth_projects {

class SocialOidc {
 public:
  static constexpr std::int64_t kMetadataMaxAgeMs = 3600 * 1000;

  // `clock` must outlive this object.
  explicit SocialOidc(core::Clock& clock, native::oidc::FetchOptions options = {});

  // The discovery document of `issuer`, from memory while younger than kMetadataMaxAgeMs, else fetched
  // again. Errors: those of native::oidc::discover. Thread-safe; the network is used outside any lock.
  core::Result<native::oidc::ProviderMetadata> metadata(const std::string& issuer);
  // Fetches the discovery document now and keeps it (a provider is created or its issuer changed).
  core::Result<native::oidc::ProviderMetadata> rediscover(const std::string& issuer);

  native::oidc::JwksCache& jwks() { return jwks_; }
  const native::oidc::FetchOptions& fetch_options() const { return options_; }

 private:
  struct Known {
    native::oidc::ProviderMetadata metadata;
    std::int64_t fetched_at_ms = 0;
  };

  core::Clock& clock_;
  native::oidc::FetchOptions options_;
  native::oidc::JwksCache jwks_;
  std::mutex mutex_;
  std::map<std::string, Known, std::less<>> known_;
};

}  // namespace edge::auth_projects
