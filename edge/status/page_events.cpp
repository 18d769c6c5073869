#include "edge/status/page_events.h"

#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/status/status_store.h"

namespace edge::status {

void page_changed(App& app, std::string_view company_id, std::string_view page_id) {
  auto page = get_record(app, page_key(company_id, page_id));
  if (!page || !*page) return;  // gone, or unreadable: nothing cached can be shown for it any more
  app.status_snapshots.invalidate(record::str(**page, "slug"));
}

}  // namespace edge::status
