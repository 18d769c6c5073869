// Storage: media (spec document 2, "Storage"; docs/storage-api.md, "Media"). List with paging, filters and
// order, detail (storage.view), delete (media.delete: the record and its bytes off `used` in one write, then
// the blob and the CDN variants), reorder (media.reorder), and download URLs: an authenticated route answers
// a URL signed for 15 minutes, and that URL serves the file (Range, ETag and 304 from the transport).

#include <spdlog/spdlog.h>

#include <set>

#include "core/ascii.h"
#include "core/date.h"
#include "core/id.h"
#include "core/storage/download_url.h"
#include "core/storage/media_list.h"
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

namespace cs = core::storage;
constexpr const char* kNoBucket = "bucket not found";
constexpr const char* kNoMedia = "media not found";

// The bucket of the path and, when `media_id` is given, that item in it.
struct Found {
  std::optional<json::object> bucket, media;
};

core::Result<Found> find(App& app, const CompanyContext& ctx, const Request& req, bool with_media) {
  Found f;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    f.bucket = find_bucket(app, txn, ctx.company.id, req.param("bucket"));
    if (f.bucket && with_media && core::has_id_shape("med_", req.param("media")))
      f.media =
          record::get_object(txn, app.storage_table,
                             media_key(ctx.company.id, record::str(*f.bucket, "id"), req.param("media")));
    return {};
  });
  if (!st.ok()) return st.error();
  return f;
}

Response list(App& app, Request& req, const CompanyContext& ctx) {
  auto paging = parse_paging(req);
  if (!paging) return envelope_error(paging.error());
  auto query = cs::parse_media_query(req.query_param("type"), req.query_param("folder"), req.query_param("q"),
                                     req.query_param("sort"), req.query_param("dir"));
  if (!query) return envelope_error(400, query.error().message);
  std::optional<json::object> bucket;
  std::vector<json::object> media;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    media.clear();
    bucket = find_bucket(app, txn, ctx.company.id, req.param("bucket"));
    if (!bucket) return {};
    txn.scan(app.storage_table, media_prefix(ctx.company.id, record::str(*bucket, "id")),
             [&](std::string_view, std::string_view v) {
               if (auto m = core::parse_json_object(v)) media.push_back(std::move(*m));
               return true;
             });
    return {};
  });
  if (!st.ok()) return envelope_error(st.error());
  if (!bucket) return envelope_error(404, kNoBucket);
  std::vector<cs::MediaRow> rows;
  rows.reserve(media.size());
  for (std::size_t i = 0; i < media.size(); ++i) {
    const auto& m = media[i];
    rows.push_back({record::str(m, "id"), record::str(m, "filename"), record::str(m, "type"),
                    record::str(m, "folder"), static_cast<std::uint64_t>(record::num(m, "size")),
                    core::parse_timestamp(record::str(m, "createdAt")).value_or(0),
                    record::num(m, "position"), i});
  }
  auto selected = cs::select_media(std::move(rows), *query);
  json::array items;
  for (auto& row : paging->apply(selected))
    items.emplace_back(media_json(app, ctx.company, *bucket, media[row.index]));
  json::object page{{"items", std::move(items)},
                    {"total", static_cast<std::int64_t>(selected.size())},
                    {"limit", static_cast<std::int64_t>(paging->limit)},
                    {"skip", static_cast<std::int64_t>(paging->skip)},
                    {"sort", cs::sort_name(query->sort)},
                    {"dir", query->descending ? "desc" : "asc"}};
  Response r = envelope_ok(std::move(page));
  r.set_header("X-Total-Count", std::to_string(selected.size()));
  return r;
}

Response detail(App& app, Request& req, const CompanyContext& ctx) {
  auto f = find(app, ctx, req, true);
  if (!f) return envelope_error(f.error());
  if (!f->bucket) return envelope_error(404, kNoBucket);
  if (!f->media) return envelope_error(404, kNoMedia);
  return envelope_ok(media_json(app, ctx.company, *f->bucket, *f->media));
}

Response remove(App& app, Request& req, const CompanyContext& ctx) {
  const std::int64_t now = app.clock.now_ms();
  const std::string audit_id = core::make_id("aud_", app.random);
  std::optional<json::object> bucket, media;
  const std::string mid(req.param("media"));
  auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    media.reset();
    bucket = find_bucket(app, txn, ctx.company.id, req.param("bucket"));
    if (!bucket || !core::has_id_shape("med_", mid)) return {};
    const std::string bid = record::str(*bucket, "id");
    const std::string key = media_key(ctx.company.id, bid, mid);
    media = record::get_object(txn, app.storage_table, key);
    if (!media) return {};
    txn.erase(app.storage_table, key);
    txn.erase(app.storage_table, media_index_key(mid));
    add_usage(app, txn, ctx.company.id, bid, -record::num(*media, "size"), -1);
    append_audit(
        txn, app.audit_table, ctx,
        {"storage.media.delete", json::object{{"bucket", record::str(*bucket, "slug")}, {"media", mid}}},
        audit_id, now);
    return {};
  });
  if (!st.ok()) return envelope_error(st.error());
  if (!bucket) return envelope_error(404, kNoBucket);
  if (!media) return envelope_error(404, kNoMedia);
  const std::string blob = record::str(*media, "blobKey");
  if (auto removed = app.blobs->remove(blob); !removed.ok())
    spdlog::warn("removing blob {} failed (left for the orphan sweep): {}", blob, removed.error().message);
  drop_variants(app.config, mid);
  json::object out = media_json(app, ctx.company, *bucket, *media);
  out["deleted"] = true;
  return envelope_ok(std::move(out));
}

// Body {ids: [...]}: the listed items, all of this bucket and each once, take the positions they held
// between them, in the order given; the others keep theirs. Answers the listed items in their new order.
Response reorder(App& app, Request& req, const CompanyContext& ctx) {
  auto body = core::parse_json_object(req.body);
  if (!body) return envelope_error(body.error());
  auto ids = core::require_string_array(*body, "ids");
  if (!ids) return envelope_error(ids.error());
  if (ids->empty()) return envelope_error(400, "field 'ids' must list at least one media id");
  if (ids->size() > 1000) return envelope_error(400, "field 'ids' may list at most 1000 media ids");
  std::set<std::string> distinct(ids->begin(), ids->end());
  if (distinct.size() != ids->size())
    return envelope_error(400, "field 'ids' lists a media id more than once");
  std::optional<json::object> bucket;
  std::string missing;
  std::vector<json::object> items;
  auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    items.clear();
    missing.clear();
    bucket = find_bucket(app, txn, ctx.company.id, req.param("bucket"));
    if (!bucket) return {};
    const std::string bid = record::str(*bucket, "id");
    std::vector<std::int64_t> positions;
    for (auto& id : *ids) {
      auto m = core::has_id_shape("med_", id)
                   ? record::get_object(txn, app.storage_table, media_key(ctx.company.id, bid, id))
                   : std::nullopt;
      if (!m) {
        missing = id;
        return {};
      }
      positions.push_back(record::num(*m, "position"));
      items.push_back(std::move(*m));
    }
    std::sort(positions.begin(), positions.end());
    for (std::size_t i = 0; i < items.size(); ++i) {
      items[i]["position"] = positions[i];
      record::put_object(txn, app.storage_table, media_key(ctx.company.id, bid, record::str(items[i], "id")),
                         items[i]);
    }
    return {};
  });
  if (!st.ok()) return envelope_error(st.error());
  if (!bucket) return envelope_error(404, kNoBucket);
  if (!missing.empty())
    return envelope_error(404, "media " + core::quote_for_message(missing) + " not found in this bucket");
  json::array out;
  for (auto& m : items) out.emplace_back(media_json(app, ctx.company, *bucket, m));
  return envelope_ok(std::move(out));
}

Response download_url(App& app, Request& req, const CompanyContext& ctx) {
  auto f = find(app, ctx, req, true);
  if (!f) return envelope_error(f.error());
  if (!f->bucket) return envelope_error(404, kNoBucket);
  if (!f->media) return envelope_error(404, kNoMedia);
  const std::string id = record::str(*f->media, "id");
  const std::int64_t expires = app.clock.now_ms() / 1000 + cs::kDownloadUrlSeconds;
  const std::string url = app.config.storage_url + "/api/storage/files/" + id +
                          "?expires=" + std::to_string(expires) +
                          "&signature=" + cs::download_signature(app.secret_key, id, expires);
  return envelope_ok(json::object{{"url", url}, {"expiresAt", core::format_timestamp(expires * 1000)}});
}

// `attachment; filename="<ASCII fallback>"; filename*=UTF-8''<percent-encoded>` (RFC 6266 §4.3).
std::string content_disposition(std::string_view filename) {
  std::string fallback;
  for (char c : filename) {
    const auto u = static_cast<unsigned char>(c);
    fallback.push_back(u < 0x20 || u >= 0x7F || c == '"' || c == '\\' ? '_' : c);
  }
  return "attachment; filename=\"" + fallback + "\"; filename*=UTF-8''" + core::percent_encode(filename);
}

Response serve_file(App& app, Request& req) {
  const std::string id(req.param("media"));
  auto check = cs::check_download(app.secret_key, id, req.query_param("expires").value_or(""),
                                  req.query_param("signature").value_or(""), app.clock.now_ms() / 1000);
  if (check == cs::DownloadCheck::invalid)
    return envelope_error(403, "the download URL's signature is not valid");
  if (check == cs::DownloadCheck::expired) return envelope_error(403, "the download URL has expired");
  std::optional<MediaLookup> found;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    found = find_media_by_id(app, txn, id);
    return {};
  });
  if (!st.ok()) return envelope_error(st.error());
  if (!found) return envelope_error(404, kNoMedia);
  auto path = app.blobs->local_file(record::str(found->media, "blobKey"));
  if (!path) {
    if (path.error().code == "not_found") return envelope_error(404, kNoMedia);
    return envelope_error(path.error());
  }
  Response r;
  r.file = *path;
  r.content_type = record::str(found->media, "contentType");
  r.set_header("Content-Disposition", content_disposition(record::str(found->media, "filename")));
  r.set_header("Cache-Control", "private, max-age=0, must-revalidate");
  r.set_header("X-Content-Type-Options", "nosniff");
  return r;
}

}  // namespace

void register_media_routes(App& app) {
  add_storage_route(app, "GET", "/buckets/{bucket}/media", "storage.view",
                    [&app](Request& req, const CompanyContext& ctx) { return list(app, req, ctx); });
  add_storage_route(app, "POST", "/buckets/{bucket}/media/reorder", "media.reorder",
                    [&app](Request& req, const CompanyContext& ctx) { return reorder(app, req, ctx); });
  add_storage_route(app, "GET", "/buckets/{bucket}/media/{media}", "storage.view",
                    [&app](Request& req, const CompanyContext& ctx) { return detail(app, req, ctx); });
  add_storage_route(app, "DELETE", "/buckets/{bucket}/media/{media}", "media.delete",
                    [&app](Request& req, const CompanyContext& ctx) { return remove(app, req, ctx); });
  add_storage_route(app, "GET", "/buckets/{bucket}/media/{media}/download", "storage.view",
                    [&app](Request& req, const CompanyContext& ctx) { return download_url(app, req, ctx); });
  // The signed URL itself: no credential, the signature is the authorization.
  app.router.add("GET", "/api/storage/files/{media}", [&app](Request& req) { return serve_file(app, req); });
}

}  // namespace edge::storage
