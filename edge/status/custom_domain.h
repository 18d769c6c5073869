#pragma once
// Status pages on their own domains (docs/status-public.md, "Custom domains"): a page whose customDomain is
// set is registered in the host map (edge/platform/host_map.h) with the root "/p/<slug>", so a request whose
// Host is that domain gets the page at "/", and its embed and feed under it. Registration follows the
// store: every page at start, then each page whenever page_changed reports it (edge/status/page_events.h).

#include <string_view>

#include "core/json.h"
#include "core/result.h"

namespace edge {
struct App;
}

namespace edge::status {

// Registers (or moves, or drops when `page` is null or has no customDomain) the domain of page `page_id`.
// A domain that names a product's own host, or that an older page already holds, is not registered (a
// warning in the log): the first page to claim a domain keeps it.
void register_custom_domain(App& app, std::string_view page_id, const core::json::object* page);

// Every stored page's domain, oldest page first (so after a restart the same page holds a contested domain
// as before it).
core::Status load_custom_domains(App& app);

// Whether `req_host` is the custom domain of the page `slug` (its documents then link from "/").
bool on_custom_domain(App& app, std::string_view req_host, std::string_view slug);

}  // namespace edge::status
