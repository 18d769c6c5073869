#include "edge/storage/storage_store.h"

#include <charconv>

#include "edge/app.h"
#include "edge/platform/record_json.h"

namespace edge::storage {

namespace {
std::string c(std::string_view company_id) {
  return "c/" + std::string(company_id) + "/";
}
}  // namespace

std::string bucket_key(std::string_view cid, std::string_view bid) {
  return c(cid) + "bucket/" + std::string(bid);
}
std::string bucket_slug_key(std::string_view cid, std::string_view slug) {
  return c(cid) + "bucket-slug/" + std::string(slug);
}
std::string media_prefix(std::string_view cid, std::string_view bid) {
  return c(cid) + "media/" + std::string(bid) + "/";
}
std::string media_key(std::string_view cid, std::string_view bid, std::string_view mid) {
  return media_prefix(cid, bid) + std::string(mid);
}
std::string media_index_key(std::string_view mid) {
  return "media/" + std::string(mid);
}
std::string used_key(std::string_view cid) {
  return c(cid) + "used";
}
std::string usage_key(std::string_view cid, std::string_view bid) {
  return c(cid) + "usage/" + std::string(bid);
}
std::string quota_key(std::string_view cid) {
  return c(cid) + "quota";
}
std::string blob_key(std::string_view cid, std::string_view bid, std::string_view mid) {
  return std::string(cid) + "/" + std::string(bid) + "/" + std::string(mid);
}

std::optional<json::object> find_bucket(App& app, const store::ReadTxn& txn, std::string_view cid,
                                        std::string_view slug) {
  auto id = txn.get(app.storage_table, bucket_slug_key(cid, slug));
  if (!id) return std::nullopt;
  return record::get_object(txn, app.storage_table, bucket_key(cid, *id));
}

std::uint64_t read_counter(const store::ReadTxn& txn, store::Table table, std::string_view key) {
  auto raw = txn.get(table, key);
  std::uint64_t v = 0;
  if (raw) std::from_chars(raw->data(), raw->data() + raw->size(), v);
  return v;
}

void write_counter(store::WriteTxn& txn, store::Table table, std::string_view key, std::uint64_t value) {
  txn.put(table, key, std::to_string(value));
}

std::uint64_t quota_limit(App& app, const store::ReadTxn& txn, std::string_view cid) {
  if (txn.get(app.storage_table, quota_key(cid))) return read_counter(txn, app.storage_table, quota_key(cid));
  return app.config.storage.default_quota_bytes;
}

void add_usage(App& app, store::WriteTxn& txn, std::string_view cid, std::string_view bid, std::int64_t bytes,
               std::int64_t count) {
  auto apply = [](std::uint64_t v, std::int64_t d) -> std::uint64_t {
    if (d >= 0) return v + static_cast<std::uint64_t>(d);
    const auto down = static_cast<std::uint64_t>(-d);
    return v > down ? v - down : 0;
  };
  write_counter(txn, app.storage_table, used_key(cid),
                apply(read_counter(txn, app.storage_table, used_key(cid)), bytes));
  const std::string key = usage_key(cid, bid);
  json::object usage = record::get_object(txn, app.storage_table, key).value_or(json::object{});
  const std::uint64_t new_bytes = apply(static_cast<std::uint64_t>(record::num(usage, "bytes")), bytes);
  const std::uint64_t new_count = apply(static_cast<std::uint64_t>(record::num(usage, "count")), count);
  record::put_object(txn, app.storage_table, key,
                     json::object{{"bytes", static_cast<std::int64_t>(new_bytes)},
                                  {"count", static_cast<std::int64_t>(new_count)}});
}

std::optional<MediaLookup> find_media_by_id(App& app, const store::ReadTxn& txn, std::string_view mid) {
  auto where = txn.get(app.storage_table, media_index_key(mid));
  if (!where) return std::nullopt;
  const std::size_t slash = where->find('/');
  if (slash == std::string::npos) return std::nullopt;
  const std::string cid = where->substr(0, slash), bid = where->substr(slash + 1);
  auto media = record::get_object(txn, app.storage_table, media_key(cid, bid, mid));
  auto bucket = record::get_object(txn, app.storage_table, bucket_key(cid, bid));
  if (!media || !bucket) return std::nullopt;
  MediaLookup out{std::move(*media), std::move(*bucket)};
  out.is_public = record::boolean(out.media, "isPublic") && record::str(out.bucket, "visibility") == "public";
  return out;
}

std::optional<CdnEntry> find_cdn_entry(App& app, const store::ReadTxn& txn, std::string_view mid) {
  auto found = find_media_by_id(app, txn, mid);
  if (!found) return std::nullopt;
  return CdnEntry{found->is_public, record::str(found->media, "contentType"),
                  record::str(found->media, "blobKey")};
}

core::Status set_quota(App& app, std::string_view slug, std::uint64_t bytes) {
  auto company = app.accounts->company_by_slug(slug);
  if (!company) return company.error();
  return app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    write_counter(txn, app.storage_table, quota_key(company->id), bytes);
    return {};
  });
}

}  // namespace edge::storage
