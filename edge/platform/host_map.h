#pragma once
// Host-to-product mapping. Each product has a public URL (Config: base_url, auth_url, mail_url, ...); in
// development they share one host and every path is reachable on it. When a deployment gives a product
// its own host, that host serves only that product's paths (plus the shared ones: health, assets, sign-in),
// so for example `auth.example.com/api/companies/...` answers 404.

#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "edge/config.h"

namespace edge {

enum class Product { platform, auth, mail, storage, cdn, status, site };

// The products a path belongs to; empty for paths every host serves (/healthz, /web/, sign-in pages).
std::vector<Product> products_of_path(std::string_view path);

// The lower-case host of an absolute URL (`https://Auth.Example.com:8443/x` -> `auth.example.com`).
std::string host_of_url(std::string_view url);

class HostMap {
 public:
  explicit HostMap(const Config& config);

  // Whether a request with Host `host` may reach `path`. A host that no product URL names (an IP address,
  // localhost in development) reaches everything.
  bool allows(std::string_view host, std::string_view path) const;

  // Custom domains of status pages (docs/status-public.md, "Custom domains"): a host mapped to a `root` path
  // ("/p/<slug>") serves that path at "/" and the paths under it at the host's root ("/embed" is
  // root + "/embed"); /web/, /healthz and the public status API (/api/v1/status/) keep their own paths, and
  // nothing else of the platform is reachable on it. `owner` (the page id) holds at most one host: mapping
  // it again moves it. A host a product URL names, or one another owner holds, is refused (false): the
  // first claim keeps a host until its owner lets it go.
  bool map_custom_host(std::string_view owner, std::string_view host, std::string root);
  void unmap_custom_host(std::string_view owner);
  // The root a custom host is mapped to.
  std::optional<std::string> custom_root(std::string_view host) const;
  // The path a request on `host` is routed by: `path` itself unless `host` is a custom host.
  std::optional<std::string> custom_path(std::string_view host, std::string_view path) const;

 private:
  std::unordered_map<std::string, std::vector<Product>> products_by_host_;
  mutable std::shared_mutex custom_mutex_;
  std::atomic<bool> any_custom_{false};  // lets requests skip the lock while no custom host exists
  std::map<std::string, std::string, std::less<>> custom_roots_;  // host -> root
  std::map<std::string, std::string, std::less<>> custom_hosts_;  // owner -> host
};

}  // namespace edge
