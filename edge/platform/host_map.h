#pragma once
// Host-to-product mapping. Each product has a public URL (Config: base_url, auth_url, mail_url, ...); in
// development they share one host and every path is reachable on it. When a deployment gives a product
// its own host, that host serves only that product's paths (plus the shared ones: health, assets, sign-in),
// so for example `auth.example.com/api/companies/...` answers 404.

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

 private:
  std::unordered_map<std::string, std::vector<Product>> products_by_host_;
};

}  // namespace edge
