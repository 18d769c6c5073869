#pragma once
// The data every public document of a page is rendered from: the snapshot (edge/status/snapshot.h) in the
// requested locale, taken from the 30 s snapshot cache the JSON route fills (same key: slug and locale), so
// the page, its embed, its feed, its live stream and GET /api/v1/status/{slug} never disagree.

#include <cstdint>
#include <string>

#include "core/json.h"
#include "core/result.h"
#include "edge/http/message.h"
#include "edge/pages/lang.h"
#include "edge/status/status_store.h"

namespace edge {
struct App;
}

namespace edge::status {

// `lang=tr|en` first; any other value, or none, leaves the choice to Accept-Language; English by default
// (the snapshot's rule, docs/status-api.md).
Lang public_lang(const Request& req);

// The snapshot body (JSON text) of `page` in `lang` at `now_ms`: the cached one while fresh, otherwise
// built and cached.
core::Result<std::string> snapshot_body(App& app, const PublicPage& page, Lang lang, std::int64_t now_ms);

// The same, parsed.
core::Result<json::object> snapshot_object(App& app, const PublicPage& page, Lang lang, std::int64_t now_ms);

}  // namespace edge::status
