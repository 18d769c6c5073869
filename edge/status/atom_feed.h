#pragma once
// The Atom feed of a status page's incidents (RFC 4287; docs/status-public.md, "Atom feed"), rendered from
// the snapshot in one locale: an entry per update of each active incident (newest first), and one per past
// incident for its resolution (the snapshot's pastIncidents carry no updates).

#include <string>
#include <string_view>

#include "core/json.h"
#include "edge/pages/lang.h"

namespace edge::status {

struct FeedLinks {
  std::string page_url;  // the public page, absolute: ids and alternate links
  std::string feed_url;  // this feed, absolute (rel="self")
};

// `page_updated` (RFC 3339) is the feed's atom:updated when no entry is newer (RFC 4287 requires one).
std::string atom_feed(const core::json::object& snapshot, Lang lang, const FeedLinks& links,
                      std::string_view page_updated);

}  // namespace edge::status
