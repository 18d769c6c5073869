#pragma once
// The public status page {status_url}/p/{slug} as HTML (docs/status-public.md), rendered from the page's
// snapshot object (the JSON of GET /api/v1/status/{slug} in the same locale): branding, the overall banner,
// components with their 90-day bars and uptimes, active incidents with their updates, upcoming maintenance,
// past incidents and, when the page takes subscribers, the subscribe form. web/status/page.js keeps it live
// from the same snapshot, so the element ids and classes here are its contract.

#include <string>

#include "core/json.h"
#include "edge/pages/lang.h"

namespace edge::status {

struct PublicLinks {
  std::string slug;
  // Where the page's documents live: "/p/<slug>" on the status host, "" on the page's custom domain.
  std::string base;
};

// The whole document. The snapshot's members are read defensively: a missing or mistyped member renders
// as empty, never as an error.
std::string render_public_page(const core::json::object& snapshot, Lang lang, const PublicLinks& links);

// The "not found" document (404) in the requested language.
std::string render_public_not_found(Lang lang);

}  // namespace edge::status
