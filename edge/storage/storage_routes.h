#pragma once
// The storage product's routes (spec document 2, "Storage"; docs/storage-api.md), one file per resource.

#include <cstddef>

#include "core/result.h"

namespace edge {
struct App;
}

namespace edge::storage {

void register_bucket_routes(App& app);
void register_upload_routes(App& app);
void register_media_routes(App& app);
void register_usage_routes(App& app);

// All of the above.
void register_storage_routes(App& app);

// Removes every blob no media record names (docs/storage-blobs.md, "Orphan sweep"). Run before the edge
// serves: a blob is written before its record, so while uploads run a blob without a record is normal.
// Answers how many blobs it removed. Errors: the blob store's and the store's.
core::Result<std::size_t> sweep_orphan_blobs(App& app);

}  // namespace edge::storage
