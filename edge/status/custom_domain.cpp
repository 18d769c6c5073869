#include "edge/status/custom_domain.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/status/status_store.h"

namespace edge::status {

void register_custom_domain(App& app, std::string_view page_id, const core::json::object* page) {
  std::string domain;
  if (page)
    if (auto* d = page->if_contains("customDomain"); d && d->is_string())
      domain = std::string(d->get_string());
  if (domain.empty()) {
    app.hosts->unmap_custom_host(page_id);
    return;
  }
  const std::string root = "/p/" + record::str(*page, "slug");
  if (app.hosts->custom_root(domain) == root) return;
  if (!app.hosts->map_custom_host(page_id, domain, root)) {
    // The page keeps no older domain either: what it shows must match what it asked for.
    app.hosts->unmap_custom_host(page_id);
    spdlog::warn("status page {}: custom domain {} is a platform host or another page's; not served", page_id,
                 domain);
  }
}

core::Status load_custom_domains(App& app) {
  auto slugs = list_records(app, "slug/");
  if (!slugs) return slugs.error();
  std::vector<json::object> pages;
  for (auto& ref : *slugs) {
    auto page = get_record(app, page_key(record::str(ref, "companyId"), record::str(ref, "pageId")));
    if (!page) return page.error();
    if (*page && (*page)->contains("customDomain") && (*page)->at("customDomain").is_string())
      pages.push_back(std::move(**page));
  }
  std::stable_sort(pages.begin(), pages.end(), [](const json::object& a, const json::object& b) {
    return std::pair(record::str(a, "createdAt"), record::str(a, "id")) <
           std::pair(record::str(b, "createdAt"), record::str(b, "id"));
  });
  for (auto& page : pages) register_custom_domain(app, record::str(page, "id"), &page);
  return {};
}

bool on_custom_domain(App& app, std::string_view req_host, std::string_view slug) {
  auto root = app.hosts->custom_root(req_host);
  return root && *root == "/p/" + std::string(slug);
}

}  // namespace edge::status
