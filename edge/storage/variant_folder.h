#pragma once
// Where the CDN keeps the variants it made of one media item: `<variant_dir>/<mediaId>/`, a folder per item
// so that deleting the item (or its bucket) drops every variant at once. The names inside belong to the CDN
// (edge/cdn/).

#include <string>
#include <string_view>

#include "edge/config.h"

namespace edge::storage {

std::string variant_folder(const Config& config, std::string_view media_id);

// Removes every variant of the item; a missing folder is fine. Best effort: a failure is logged and the
// folder is left for the next delete of the same id (ids are never reused, so a leftover is never served).
void drop_variants(const Config& config, std::string_view media_id);

}  // namespace edge::storage
