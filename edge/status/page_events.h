#pragma once
// What a visitor sees changed (a check's status, an incident, a maintenance window, the page's settings):
// page_changed drops the page's cached snapshots, so the next request builds a fresh one, and tells the
// page's live viewers (the public page's Server-Sent Events stream, docs/status-public.md) to refresh.
// Called after the commit of the change, never inside a transaction.

#include <string_view>

namespace edge {
struct App;
}

namespace edge::status {

void page_changed(App& app, std::string_view company_id, std::string_view page_id);

}  // namespace edge::status
