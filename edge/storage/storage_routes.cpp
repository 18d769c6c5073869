// The storage product's routes and the startup sweep of orphan blobs (docs/storage-blobs.md).

#include "edge/storage/storage_routes.h"

#include "edge/app.h"
#include "edge/storage/storage_store.h"

namespace edge::storage {

void register_storage_routes(App& app) {
  register_bucket_routes(app);
  register_upload_routes(app);
  register_media_routes(app);
  register_usage_routes(app);
}

core::Result<std::size_t> sweep_orphan_blobs(App& app) {
  std::vector<std::string> keys;
  CORE_TRY(app.blobs->list("", [&](const std::string& key, std::uint64_t) { keys.push_back(key); }));
  std::vector<std::string> orphans;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    for (auto& key : keys) {
      // `<companyId>/<bucketId>/<mediaId>`, named by media/<mediaId> -> `<companyId>/<bucketId>`.
      const std::size_t last = key.rfind('/');
      std::optional<std::string> where;
      if (last != std::string::npos)
        where = txn.get(app.storage_table, media_index_key(key.substr(last + 1)));
      if (!where || *where != key.substr(0, last)) orphans.push_back(key);
    }
    return {};
  });
  if (!st.ok()) return st.error();
  for (auto& key : orphans) CORE_TRY(app.blobs->remove(key));
  return orphans.size();
}

}  // namespace edge::storage
