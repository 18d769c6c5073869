#pragma once
// The embeddable badge {status_url}/p/{slug}/embed (docs/status-public.md, "Embed"): a small document for
// an iframe with the page's name, a link to the page and the overall status. The status is not rendered
// here: web/status/embed.js fetches the snapshot and derives it with the platform_status wasm module
// (componentStatus, pageStatus of core/status), so the badge runs the same rules as the server.

#include <string>

#include "core/json.h"
#include "edge/http/message.h"
#include "edge/pages/lang.h"

namespace edge::status {

struct EmbedLinks {
  std::string snapshot_url;  // the snapshot in the badge's locale
  std::string page_url;      // the public page (opened in a new tab)
};

std::string render_embed(const core::json::object& page, Lang lang, const EmbedLinks& links);

// The embed's headers: framable by any site (frame-ancestors *), otherwise the pages' policy.
void set_embed_headers(Response& r);

}  // namespace edge::status
