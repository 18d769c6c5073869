#include "edge/platform/host_map.h"

#include <algorithm>

#include "core/ascii.h"

namespace edge {
namespace {

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

}  // namespace

std::vector<Product> products_of_path(std::string_view p) {
  using enum Product;
  if (starts_with(p, "/oauth/") || starts_with(p, "/.well-known/") || starts_with(p, "/api/v1/auth/"))
    return {auth};
  // Document 2: mail and storage paths live under the platform root and on their own hosts.
  if (starts_with(p, "/api/mail/")) return {platform, mail};
  if (starts_with(p, "/api/storage/")) return {platform, storage};
  if (starts_with(p, "/f/")) return {cdn};
  // The status service owns /api/v1/ (public snapshot and dashboard API) once /api/v1/auth/ is taken.
  if (starts_with(p, "/api/v1/") || starts_with(p, "/p/") || p == "/d" || starts_with(p, "/d/"))
    return {status};
  if (starts_with(p, "/api/")) return {platform};
  if (starts_with(p, "/en/profile/") || starts_with(p, "/tr/profile/")) return {site, platform};
  return {};
}

std::string host_of_url(std::string_view url) {
  auto scheme = url.find("://");
  if (scheme != std::string_view::npos) url.remove_prefix(scheme + 3);
  url = url.substr(0, url.find_first_of("/?#"));
  if (auto at = url.rfind('@'); at != std::string_view::npos) url.remove_prefix(at + 1);
  if (!url.empty() && url.front() == '[') {
    url = url.substr(0, url.find(']') + 1);
  } else if (auto colon = url.find(':'); colon != std::string_view::npos) {
    url = url.substr(0, colon);
  }
  return core::to_ascii_lower(url);
}

HostMap::HostMap(const Config& config) {
  using enum Product;
  const std::pair<const std::string*, Product> urls[] = {
      {&config.base_url, platform},   {&config.auth_url, auth}, {&config.mail_url, mail},
      {&config.storage_url, storage}, {&config.cdn_url, cdn},   {&config.status_url, status},
      {&config.site_url, site}};
  for (auto& [url, product] : urls)
    if (!url->empty()) products_by_host_[host_of_url(*url)].push_back(product);
}

bool HostMap::allows(std::string_view host, std::string_view path) const {
  if (any_custom_.load(std::memory_order_acquire) && custom_root(host)) {
    std::vector<Product> owners = products_of_path(path);
    return owners.empty() || std::find(owners.begin(), owners.end(), Product::status) != owners.end();
  }
  auto it = products_by_host_.find(std::string(host));
  if (it == products_by_host_.end()) return true;
  std::vector<Product> owners = products_of_path(path);
  if (owners.empty()) return true;
  for (Product p : owners)
    if (std::find(it->second.begin(), it->second.end(), p) != it->second.end()) return true;
  return false;
}

bool HostMap::map_custom_host(std::string_view owner, std::string_view host, std::string root) {
  std::string h = core::to_ascii_lower(host);
  if (h.empty() || products_by_host_.contains(h)) return false;
  std::unique_lock lock(custom_mutex_);
  if (auto held = custom_roots_.find(h); held != custom_roots_.end()) {
    auto mine = custom_hosts_.find(owner);
    if (mine == custom_hosts_.end() || mine->second != h) return false;
  }
  if (auto old = custom_hosts_.find(owner); old != custom_hosts_.end()) {
    custom_roots_.erase(old->second);
    custom_hosts_.erase(old);
  }
  custom_roots_[h] = std::move(root);
  custom_hosts_[std::string(owner)] = h;
  any_custom_.store(true, std::memory_order_release);
  return true;
}

void HostMap::unmap_custom_host(std::string_view owner) {
  std::unique_lock lock(custom_mutex_);
  auto it = custom_hosts_.find(owner);
  if (it == custom_hosts_.end()) return;
  custom_roots_.erase(it->second);
  custom_hosts_.erase(it);
  any_custom_.store(!custom_roots_.empty(), std::memory_order_release);
}

std::optional<std::string> HostMap::custom_root(std::string_view host) const {
  if (!any_custom_.load(std::memory_order_acquire)) return std::nullopt;
  std::shared_lock lock(custom_mutex_);
  auto it = custom_roots_.find(host);
  if (it == custom_roots_.end()) return std::nullopt;
  return it->second;
}

std::optional<std::string> HostMap::custom_path(std::string_view host, std::string_view path) const {
  auto root = custom_root(host);
  if (!root) return std::nullopt;
  if (starts_with(path, "/web/") || starts_with(path, "/api/v1/status/") || path == "/healthz")
    return std::string(path);
  if (path == "/" || path.empty()) return *root;
  return *root + std::string(path);
}

}  // namespace edge
