#pragma once
// The storage product's records in the `storage` table (docs/storage-blobs.md, "Records"):
//   c/<companyId>/bucket/<bucketId>            bucket {id, slug, name, visibility, createdAt, updatedAt,
//                                              nextPosition}
//   c/<companyId>/bucket-slug/<slug>           the bucket id (slugs are unique in a company)
//   c/<companyId>/media/<bucketId>/<mediaId>   media record (below)
//   media/<mediaId>                            "<companyId>/<bucketId>": finds an item by id alone (the CDN)
//   c/<companyId>/used                         committed bytes of every media item of the company (decimal)
//   c/<companyId>/usage/<bucketId>             {bytes, count} of one bucket
//   c/<companyId>/quota                        the company's own quota in bytes (absent: the default)
// A media record: {id, companyId, bucketId, blobKey, filename, contentType, isPublic (as uploaded), folder,
// type, size, position, createdAt, width?, height?}. `used` and the usage entries change only in the write
// that adds or removes media, so they are exact.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/json.h"
#include "core/result.h"
#include "native/store/kv_store.h"

namespace edge {
struct App;
}

namespace edge::storage {

namespace json = core::json;

std::string bucket_key(std::string_view company_id, std::string_view bucket_id);
std::string bucket_slug_key(std::string_view company_id, std::string_view slug);
std::string media_prefix(std::string_view company_id, std::string_view bucket_id);
std::string media_key(std::string_view company_id, std::string_view bucket_id, std::string_view media_id);
std::string media_index_key(std::string_view media_id);
std::string used_key(std::string_view company_id);
std::string usage_key(std::string_view company_id, std::string_view bucket_id);
std::string quota_key(std::string_view company_id);
std::string blob_key(std::string_view company_id, std::string_view bucket_id, std::string_view media_id);

// The bucket with `slug` in the company, or nullopt.
std::optional<json::object> find_bucket(App& app, const store::ReadTxn& txn, std::string_view company_id,
                                        std::string_view slug);

// A stored decimal counter (0 when absent or unreadable).
std::uint64_t read_counter(const store::ReadTxn& txn, store::Table table, std::string_view key);
void write_counter(store::WriteTxn& txn, store::Table table, std::string_view key, std::uint64_t value);

// The company's quota: its own when set, else Config::Storage::default_quota_bytes.
std::uint64_t quota_limit(App& app, const store::ReadTxn& txn, std::string_view company_id);

// Adds `bytes` and `count` (negative to remove) to the company's `used` and the bucket's usage, in `txn`.
void add_usage(App& app, store::WriteTxn& txn, std::string_view company_id, std::string_view bucket_id,
               std::int64_t bytes, std::int64_t count);

// A media item found by id alone, with its bucket (signed downloads, docs/storage-blobs.md).
struct MediaLookup {
  json::object media;
  json::object bucket;
  // The item is served publicly: uploaded public in a bucket whose visibility is public.
  bool is_public = false;
};
std::optional<MediaLookup> find_media_by_id(App& app, const store::ReadTxn& txn, std::string_view media_id);

// What the CDN needs of a media item found by id alone: small, so that the CDN can keep it between commits
// (store::SnapshotCache, docs/storage-cdn.md).
struct CdnEntry {
  // As MediaLookup::is_public.
  bool is_public = false;
  std::string content_type;
  std::string blob_key;
};
std::optional<CdnEntry> find_cdn_entry(App& app, const store::ReadTxn& txn, std::string_view media_id);

// Sets the company's own quota (edge-admin `storage quota`). Errors: `not_found` for an unknown company
// slug, the store's.
core::Status set_quota(App& app, std::string_view company_slug, std::uint64_t bytes);

}  // namespace edge::storage
