#include "edge/cdn/cdn_routes.h"

#include <memory>
#include <optional>
#include <string>

#include "edge/app.h"
#include "edge/cdn/cdn_handler.h"
#include "edge/storage/storage_store.h"

namespace edge::cdn {

void register_cdn_routes(App& app) {
  // One cache per process: its single flight makes each variant once.
  auto cache = std::make_shared<VariantCache>(app.config);
  CdnLookup lookup = [&app](std::string_view media_id) -> std::optional<CdnSource> {
    std::optional<storage::CdnEntry> found;
    auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
      found = storage::find_cdn_entry(app, txn, media_id);
      return {};
    });
    if (!st.ok() || !found) return std::nullopt;
    CdnSource source;
    source.is_public = found->is_public;
    source.content_type = std::move(found->content_type);
    // Read only when a variant must be made (with S3 this may download the original).
    source.file = [&app, key = found->blob_key]() { return app.blobs->local_file(key); };
    source.present_file = [&app, key = std::move(found->blob_key)]() { return app.blobs->present_file(key); };
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
