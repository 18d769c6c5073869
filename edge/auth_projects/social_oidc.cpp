#include "edge/auth_projects/social_oidc.h"

namespace edge::auth_projects {

SocialOidc::SocialOidc(core::Clock& clock, native::oidc::FetchOptions options)
    : clock_(clock), options_(options), jwks_(clock, options) {}

core::Result<native::oidc::ProviderMetadata> SocialOidc::metadata(const std::string& issuer) {
  {
    std::lock_guard lock(mutex_);
    auto it = known_.find(issuer);
    if (it != known_.end() && clock_.now_ms() - it->second.fetched_at_ms < kMetadataMaxAgeMs)
      return it->second.metadata;
  }
  return rediscover(issuer);
}

core::Result<native::oidc::ProviderMetadata> SocialOidc::rediscover(const std::string& issuer) {
  auto found = native::oidc::discover(issuer, options_);
  if (!found) return found.error();
  std::lock_guard lock(mutex_);
  known_[issuer] = Known{*found, clock_.now_ms()};
  return found;
}

}  // namespace edge::auth_projects
