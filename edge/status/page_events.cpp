#include "edge/status/page_events.h"

#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/status/custom_domain.h"
#include "edge/status/live_updates.h"
#include "edge/status/status_store.h"

namespace edge::status {

void page_changed(App& app, std::string_view company_id, std::string_view page_id) {
  auto page = get_record(app, page_key(company_id, page_id));
  if (!page) return;  // unreadable: the cached snapshots expire within 30 s
  if (!*page) {       // deleted
    register_custom_domain(app, page_id, nullptr);
    publish_page_gone(app, page_id);
    return;
  }
  app.status_snapshots.invalidate(record::str(**page, "slug"));
  register_custom_domain(app, page_id, &**page);
  publish_page(app, PublicPage{std::string(company_id), std::move(**page)});
}

}  // namespace edge::status
