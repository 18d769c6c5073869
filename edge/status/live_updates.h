#pragma once
// Live updates of a public status page over Server-Sent Events (docs/status-public.md, "Live updates"):
// GET {status_url}/api/v1/status/{slug}/events?lang= opens with a `snapshot` event (the snapshot JSON in
// the locale), then sends a new `snapshot` each time page_changed reports the page, and `gone` when the page
// is deleted. One event-hub topic per page and locale (edge/platform/event_hub.h), keyed by the page id so a
// slug change keeps its viewers.

#include <string>
#include <string_view>

#include "edge/http/message.h"
#include "edge/pages/lang.h"
#include "edge/status/status_store.h"

namespace edge {
struct App;
}

namespace edge::status {

std::string live_topic(std::string_view page_id, Lang lang);

// The event-stream response for `page` in `lang`.
Response live_stream(App& app, const PublicPage& page, Lang lang);

// Sends the page's current snapshot to its viewers in every locale that has any (building it at most once
// per locale, through the snapshot cache). Nothing to do, and no build, without viewers.
void publish_page(App& app, const PublicPage& page);

// Tells the viewers of a deleted page that it is gone (a `gone` event; web/status/page.js then closes the
// stream and stops reconnecting).
void publish_page_gone(App& app, std::string_view page_id);

}  // namespace edge::status
