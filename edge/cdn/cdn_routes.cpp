#include "edge/cdn/cdn_routes.h"

#include <memory>
#include <optional>
#include <string>

#include "edge/app.h"
#include "edge/cdn/cdn_handler.h"
#include "edge/storage/storage_store.h"
#include "native/store/snapshot_cache.h"

namespace edge::cdn {
namespace {

// Media entries kept between commits: a few MB at most.
constexpr std::size_t kEntries = 16384;

}  // namespace

void register_cdn_routes(App& app) {
  // One cache per process: its single flight makes each variant once.
  auto cache = std::make_shared<VariantCache>(app.config);
  // Every hit needs its item's two records; parsing them costs more than the rest of the answer, and they
  // change rarely, so the entries are kept until the next commit (store::SnapshotCache).
  auto entries = std::make_shared<store::SnapshotCache<std::optional<storage::CdnEntry>>>(*app.kv, kEntries);
  CdnLookup lookup = [&app, entries](std::string_view media_id) -> std::optional<CdnSource> {
    auto found = entries->get(media_id, [&app](const store::ReadTxn& txn, std::string_view id) {
      return core::Result<std::optional<storage::CdnEntry>>(storage::find_cdn_entry(app, txn, id));
    });
    if (!found.ok() || !*found) return std::nullopt;
    CdnSource source;
    storage::CdnEntry& entry = **found;
    source.is_public = entry.is_public;
    source.content_type = std::move(entry.content_type);
    // Read only when a variant must be made (with S3 this may download the original).
    source.file = [&app, key = entry.blob_key]() { return app.blobs->local_file(key); };
    source.present_file = [&app, key = std::move(entry.blob_key)]() { return app.blobs->present_file(key); };
    return source;
  };
  Handler handler = [cache, lookup](Request& req) { return cdn_response(*cache, lookup, req); };
  // Hits and 404s are answered on the I/O thread; making a variant or fetching a blob goes to the pool.
  RouteOptions options{
      .inline_answer = [cache, lookup](Request& req) { return cdn_quick_response(*cache, lookup, req); }};
  app.router.add("GET", "/f/{id}", handler, options);
  app.router.add("GET", "/f/{id}/{quality}", handler, options);
}

}  // namespace edge::cdn
