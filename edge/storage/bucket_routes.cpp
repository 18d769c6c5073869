// Storage: buckets (spec document 2, "Storage"; docs/storage-api.md, "Buckets"). Create (buckets.create),
// list and detail (storage.view), rename and visibility (buckets.edit), force delete with cascade
// (buckets.delete): the bucket's media records go in one write with their bytes taken off the company's
// `used`, then their blobs and CDN variant folders.

#include <spdlog/spdlog.h>

#include <algorithm>

#include "core/date.h"
#include "core/id.h"
#include "core/storage/media_fields.h"
#include "core/validate.h"
#include "edge/app.h"
#include "edge/platform/audit_log.h"
#include "edge/platform/envelope.h"
#include "edge/platform/paging.h"
#include "edge/platform/record_json.h"
#include "edge/storage/storage_http.h"
#include "edge/storage/storage_json.h"
#include "edge/storage/storage_routes.h"
#include "edge/storage/storage_store.h"
#include "edge/storage/variant_folder.h"

namespace edge::storage {
namespace {

constexpr const char* kNoBucket = "bucket not found";

Response duplicate_slug(std::string_view slug) {
  return envelope_error(409, "a bucket with slug '" + std::string(slug) + "' already exists in this company");
}

Response create(App& app, Request& req, const CompanyContext& ctx) {
  auto body = core::parse_json_object(req.body);
  if (!body) return envelope_error(body.error());
  auto slug = core::require_string(*body, "slug");
  if (!slug) return envelope_error(slug.error());
  if (!core::validate_slug(*slug).ok())
    return envelope_error(
        400,
        "field 'slug' must be 2 to 63 characters of a-z, 0-9 and '-', not starting or ending "
        "with '-' and without '--'");
  auto name = core::optional_string(*body, "name");
  if (!name) return envelope_error(name.error());
  const std::string bucket_name = name->value_or(*slug);
  if (auto st = core::storage::validate_bucket_name(bucket_name); !st.ok())
    return envelope_error(400, st.error().message);
  auto visibility = core::optional_string(*body, "visibility");
  if (!visibility) return envelope_error(visibility.error());
  const std::string vis = visibility->value_or("private");
  if (auto st = core::storage::validate_visibility(vis); !st.ok())
    return envelope_error(400, st.error().message);

  const std::int64_t now = app.clock.now_ms();
  const std::string stamp = core::format_timestamp(now);
  json::object bucket{{"id", core::make_id("bkt_", app.random)},
                      {"slug", *slug},
                      {"name", bucket_name},
                      {"visibility", vis},
                      {"createdAt", stamp},
                      {"updatedAt", stamp},
                      {"nextPosition", 0}};
  const std::string audit_id = core::make_id("aud_", app.random);
  bool duplicate = false;
  auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    duplicate = txn.get(app.storage_table, bucket_slug_key(ctx.company.id, *slug)).has_value();
    if (duplicate) return {};
    const std::string id = record::str(bucket, "id");
    record::put_object(txn, app.storage_table, bucket_key(ctx.company.id, id), bucket);
    txn.put(app.storage_table, bucket_slug_key(ctx.company.id, *slug), id);
    append_audit(txn, app.audit_table, ctx, {"storage.bucket.create", json::object{{"bucket", *slug}}},
                 audit_id, now);
    return {};
  });
  if (!st.ok()) return envelope_error(st.error());
  if (duplicate) return duplicate_slug(*slug);
  return envelope_ok(bucket_json(bucket), 201);
}

Response list(App& app, Request& req, const CompanyContext& ctx) {
  auto paging = parse_paging(req);
  if (!paging) return envelope_error(paging.error());
  auto buckets = record::read_objects(*app.kv, app.storage_table, "c/" + ctx.company.id + "/bucket/");
  if (!buckets) return envelope_error(buckets.error());
  std::sort(buckets->begin(), buckets->end(), [](const json::object& a, const json::object& b) {
    return record::str(a, "slug") < record::str(b, "slug");
  });
  json::array page;
  for (auto& b : paging->apply(*buckets)) page.emplace_back(bucket_json(b));
  Response r = envelope_ok(std::move(page));
  r.set_header("X-Total-Count", std::to_string(buckets->size()));
  return r;
}

Response detail(App& app, Request& req, const CompanyContext& ctx) {
  std::optional<json::object> bucket;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    bucket = find_bucket(app, txn, ctx.company.id, req.param("bucket"));
    return {};
  });
  if (!st.ok()) return envelope_error(st.error());
  if (!bucket) return envelope_error(404, kNoBucket);
  return envelope_ok(bucket_json(*bucket));
}

Response update(App& app, Request& req, const CompanyContext& ctx) {
  auto body = core::parse_json_object(req.body);
  if (!body) return envelope_error(body.error());
  auto name = core::optional_string(*body, "name");
  if (!name) return envelope_error(name.error());
  if (*name)
    if (auto st = core::storage::validate_bucket_name(**name); !st.ok())
      return envelope_error(400, st.error().message);
  auto visibility = core::optional_string(*body, "visibility");
  if (!visibility) return envelope_error(visibility.error());
  if (*visibility)
    if (auto st = core::storage::validate_visibility(**visibility); !st.ok())
      return envelope_error(400, st.error().message);
  auto slug = core::optional_string(*body, "slug");
  if (!slug) return envelope_error(slug.error());
  if (*slug && !core::validate_slug(**slug).ok())
    return envelope_error(
        400,
        "field 'slug' must be 2 to 63 characters of a-z, 0-9 and '-', not starting or ending "
        "with '-' and without '--'");
  const std::int64_t now = app.clock.now_ms();
  const std::string audit_id = core::make_id("aud_", app.random);
  std::optional<json::object> bucket;
  bool duplicate = false;
  auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    duplicate = false;
    bucket = find_bucket(app, txn, ctx.company.id, req.param("bucket"));
    if (!bucket) return {};
    const std::string id = record::str(*bucket, "id");
    const std::string old_slug = record::str(*bucket, "slug");
    if (*slug && **slug != old_slug) {
      if (txn.get(app.storage_table, bucket_slug_key(ctx.company.id, **slug))) {
        duplicate = true;
        return {};
      }
      txn.erase(app.storage_table, bucket_slug_key(ctx.company.id, old_slug));
      txn.put(app.storage_table, bucket_slug_key(ctx.company.id, **slug), id);
      (*bucket)["slug"] = **slug;
    }
    if (*name) (*bucket)["name"] = **name;
    if (*visibility) (*bucket)["visibility"] = **visibility;
    (*bucket)["updatedAt"] = core::format_timestamp(now);
    record::put_object(txn, app.storage_table, bucket_key(ctx.company.id, id), *bucket);
    json::object details{{"bucket", record::str(*bucket, "slug")}};
    if (*visibility) details["visibility"] = **visibility;
    append_audit(txn, app.audit_table, ctx, {"storage.bucket.update", details}, audit_id, now);
    return {};
  });
  if (!st.ok()) return envelope_error(st.error());
  if (!bucket) return envelope_error(404, kNoBucket);
  if (duplicate) return duplicate_slug(**slug);
  return envelope_ok(bucket_json(*bucket));
}

Response remove(App& app, Request& req, const CompanyContext& ctx) {
  const std::int64_t now = app.clock.now_ms();
  const std::string audit_id = core::make_id("aud_", app.random);
  std::optional<json::object> bucket;
  std::vector<std::pair<std::string, std::string>> gone;  // media id, blob key
  std::int64_t bytes = 0;
  auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    gone.clear();
    bytes = 0;
    bucket = find_bucket(app, txn, ctx.company.id, req.param("bucket"));
    if (!bucket) return {};
    const std::string id = record::str(*bucket, "id");
    std::vector<std::string> keys;
    txn.scan(app.storage_table, media_prefix(ctx.company.id, id),
             [&](std::string_view key, std::string_view value) {
               keys.emplace_back(key);
               if (auto m = core::parse_json_object(value)) {
                 gone.emplace_back(record::str(*m, "id"), record::str(*m, "blobKey"));
                 bytes += record::num(*m, "size");
               }
               return true;
             });
    for (auto& k : keys) txn.erase(app.storage_table, k);
    for (auto& [mid, blob] : gone) txn.erase(app.storage_table, media_index_key(mid));
    add_usage(app, txn, ctx.company.id, id, -bytes, 0);
    txn.erase(app.storage_table, usage_key(ctx.company.id, id));
    txn.erase(app.storage_table, bucket_key(ctx.company.id, id));
    txn.erase(app.storage_table, bucket_slug_key(ctx.company.id, record::str(*bucket, "slug")));
    append_audit(txn, app.audit_table, ctx,
                 {"storage.bucket.delete", json::object{{"bucket", record::str(*bucket, "slug")},
                                                        {"media", static_cast<std::int64_t>(gone.size())},
                                                        {"bytes", bytes}}},
                 audit_id, now);
    return {};
  });
  if (!st.ok()) return envelope_error(st.error());
  if (!bucket) return envelope_error(404, kNoBucket);
  // After the commit: the records are gone, so a crash here leaves only orphans for the sweep.
  for (auto& [mid, blob] : gone) {
    if (auto removed = app.blobs->remove(blob); !removed.ok())
      spdlog::warn("removing blob {} failed (left for the orphan sweep): {}", blob, removed.error().message);
    drop_variants(app.config, mid);
  }
  json::object out = bucket_json(*bucket);
  out["deleted"] = true;
  out["deletedMedia"] = static_cast<std::int64_t>(gone.size());
  out["freedBytes"] = bytes;
  return envelope_ok(std::move(out));
}

}  // namespace

void register_bucket_routes(App& app) {
  add_storage_route(app, "POST", "/buckets", "buckets.create",
                    [&app](Request& req, const CompanyContext& ctx) { return create(app, req, ctx); });
  add_storage_route(app, "GET", "/buckets", "storage.view",
                    [&app](Request& req, const CompanyContext& ctx) { return list(app, req, ctx); });
  add_storage_route(app, "GET", "/buckets/{bucket}", "storage.view",
                    [&app](Request& req, const CompanyContext& ctx) { return detail(app, req, ctx); });
  add_storage_route(app, "PATCH", "/buckets/{bucket}", "buckets.edit",
                    [&app](Request& req, const CompanyContext& ctx) { return update(app, req, ctx); });
  add_storage_route(app, "DELETE", "/buckets/{bucket}", "buckets.delete",
                    [&app](Request& req, const CompanyContext& ctx) { return remove(app, req, ctx); });
}

}  // namespace edge::storage
