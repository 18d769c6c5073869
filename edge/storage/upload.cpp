// Storage: upload (DECISIONS.md, "Platform API"; docs/storage-api.md, "Upload").
// POST .../buckets/{bucket}/media takes `multipart/form-data` with the field `file` (and optional fields
// filename, contentType, isPublic, folder) or a raw body with those in the query. The request head is
// checked first (credential, media.upload, bucket, query fields, declared length against the 100 MB
// single-shot limit and the company quota, whose bytes it reserves), so a refused upload is answered before
// any body byte is read. The body then streams to a temporary file (a multipart body is parsed as it
// arrives, its file part written to that file), the bytes are checked (content type, image size), the file
// is made a blob and the record committed with the quota checked again in the same write.

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <charconv>

#include "core/ascii.h"
#include "core/date.h"
#include "core/id.h"
#include "core/storage/content_type.h"
#include "core/storage/image_size.h"
#include "core/storage/media_fields.h"
#include "core/storage/multipart.h"
#include "edge/app.h"
#include "edge/http/body_sink.h"
#include "edge/http/head_refusal.h"
#include "edge/platform/audit_log.h"
#include "edge/platform/envelope.h"
#include "edge/platform/record_json.h"
#include "edge/storage/quota_ledger.h"
#include "edge/storage/storage_http.h"
#include "edge/storage/storage_json.h"
#include "edge/storage/storage_routes.h"
#include "edge/storage/storage_store.h"

namespace edge::storage {
namespace {

namespace cs = core::storage;

// Room for a multipart body's boundaries and part headers around a file at the single-shot limit.
constexpr std::uint64_t kMultipartSlack = 64 << 10;
constexpr std::size_t kMaxFieldBytes = 1024;

std::string too_large_message(std::uint64_t max) {
  return "the upload is larger than the single-shot limit of " + std::to_string(max) + " bytes";
}

struct UploadFields {
  std::optional<std::string> filename, content_type, is_public, folder;
};

// The upload in flight: who sent it, where it goes, what it reserved, and its bytes.
class UploadSink : public BodySink {
 public:
  CompanyContext ctx;
  json::object bucket;
  QuotaReservation reservation;
  bool multipart = false;
  UploadFields fields;
  bool saw_file = false;
  std::string part_filename, part_content_type;
  // A fault of the client's body found while reading it: answered by the handler (the transport would
  // answer 500 for a sink error). Further bytes are dropped.
  std::optional<std::pair<int, std::string>> refused;
  std::unique_ptr<FileSink> content;
  std::optional<cs::MultipartReader> reader;
  std::uint64_t max_bytes = 0;
  std::uint64_t taken = 0;

  core::Status write(std::string_view bytes) override {
    taken += bytes.size();
    if (refused) return {};
    if (!multipart) return write_content(bytes);
    auto fed = reader->feed(bytes);
    if (!fed.ok() && !refused) {
      if (fed.error().code == "storage_error") return fed;
      refused = {400, fed.error().message};
    }
    return {};
  }

  core::Status finish() override {
    if (multipart && !refused)
      if (auto done = reader->finish(); !done.ok()) refused = {400, done.error().message};
    return content->finish();
  }

  std::uint64_t size() const override { return taken; }

  core::Status write_content(std::string_view bytes) {
    if (content->size() + bytes.size() > max_bytes) {
      refused = {413, too_large_message(max_bytes)};
      return {};
    }
    return content->write(bytes);
  }

  cs::MultipartReader::Callbacks callbacks() {
    auto field = std::make_shared<std::optional<std::string>*>(nullptr);
    auto in_file = std::make_shared<bool>(false);
    return {[this, field, in_file](const cs::MultipartPart& part) -> core::Status {
              *field = nullptr;
              if (part.name == "file") {
                if (saw_file)
                  return core::make_error("invalid_multipart",
                                          "the multipart body has more than one field 'file'");
                saw_file = true;
                *in_file = true;
                part_filename = part.filename;
                part_content_type = part.content_type;
              } else if (part.name == "filename") {
                *field = &fields.filename;
              } else if (part.name == "contentType") {
                *field = &fields.content_type;
              } else if (part.name == "isPublic") {
                *field = &fields.is_public;
              } else if (part.name == "folder") {
                *field = &fields.folder;
              }
              if (*field) **field = std::string();
              return {};
            },
            [this, field, in_file](std::string_view data) -> core::Status {
              if (*in_file) return write_content(data);
              if (*field) {
                if ((**field)->size() + data.size() > kMaxFieldBytes)
                  return core::make_error("invalid_multipart", "a multipart field is longer than 1024 bytes");
                (**field)->append(data);
              }
              return {};
            },
            [field, in_file]() -> core::Status {
              *field = nullptr;
              *in_file = false;
              return {};
            }};
  }
};

core::Result<std::shared_ptr<BodySink>> refuse(Response r) {
  return std::shared_ptr<BodySink>(std::make_shared<HeadRefusal>(std::move(r)));
}

// The checks of the fields that may come in the query or as form fields. nullopt when they pass.
std::optional<Response> check_fields(const UploadFields& f) {
  if (f.filename)
    if (auto st = cs::validate_filename(*f.filename); !st.ok())
      return envelope_error(400, st.error().message);
  if (f.content_type && !f.content_type->empty() && !cs::valid_content_type(*f.content_type))
    return envelope_error(400, "contentType must be a content type of the form type/subtype");
  if (f.is_public && !cs::parse_bool(*f.is_public))
    return envelope_error(400, "isPublic must be true or false");
  if (f.folder)
    if (auto st = cs::validate_folder(*f.folder); !st.ok()) return envelope_error(400, st.error().message);
  return std::nullopt;
}

core::Result<QuotaReservation> reserve(App& app, const std::string& company_id, std::uint64_t bytes) {
  return upload_reservations().reserve(company_id, bytes, [&]() -> core::Result<QuotaState> {
    QuotaState s;
    auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
      s.used = read_counter(txn, app.storage_table, used_key(company_id));
      s.limit = quota_limit(app, txn, company_id);
      return {};
    });
    if (!st.ok()) return st.error();
    return s;
  });
}

Response quota_refusal(const core::Error& e) {
  if (e.code == "payload_too_large") return envelope_error(413, e.message);
  return envelope_error(e);
}

// Runs on an I/O thread with the request head.
core::Result<std::shared_ptr<BodySink>> begin_upload(App& app, const Request& head) {
  auto sink = std::make_shared<UploadSink>();
  if (auto refused = authorize(app, head, "media.upload", sink->ctx)) return refuse(std::move(*refused));
  std::optional<json::object> bucket;
  auto read = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    bucket = find_bucket(app, txn, sink->ctx.company.id, head.param("bucket"));
    return {};
  });
  if (!read.ok()) return refuse(envelope_error(read.error()));
  if (!bucket) return refuse(envelope_error(404, "bucket not found"));
  sink->bucket = std::move(*bucket);
  sink->fields = {head.query_param("filename"), head.query_param("contentType"), head.query_param("isPublic"),
                  head.query_param("folder")};
  if (auto bad = check_fields(sink->fields)) return refuse(std::move(*bad));

  const std::uint64_t max = app.config.storage.max_upload_bytes;
  sink->max_bytes = max;
  std::string_view type = head.header("content-type");
  sink->multipart =
      core::ascii_iequals(core::trim_ascii_space(type.substr(0, type.find(';'))), "multipart/form-data");
  std::string boundary;
  if (sink->multipart) {
    auto b = cs::multipart_boundary(type);
    if (!b) return refuse(envelope_error(400, b.error().message));
    boundary = *b;
  } else if (!sink->fields.filename) {
    return refuse(envelope_error(400, "query parameter 'filename' is required for a raw upload"));
  }

  std::optional<std::uint64_t> length;
  if (std::string_view cl = head.header("content-length"); !cl.empty()) {
    std::uint64_t v = 0;
    auto [end, ec] = std::from_chars(cl.data(), cl.data() + cl.size(), v);
    if (ec == std::errc() && end == cl.data() + cl.size()) length = v;
  }
  if (length && *length > max + (sink->multipart ? kMultipartSlack : 0))
    return refuse(envelope_error(413, too_large_message(max)));
  if (length && *length > 0) {
    auto reserved = reserve(app, sink->ctx.company.id, std::min(*length, max));
    if (!reserved) return refuse(quota_refusal(reserved.error()));
    sink->reservation = std::move(*reserved);
  }
  auto file = FileSink::create(app.config.upload_dir);
  if (!file) return file.error();
  sink->content = std::move(*file);
  if (sink->multipart) sink->reader.emplace(boundary, sink->callbacks());
  return std::shared_ptr<BodySink>(sink);
}

// The file's first `n` bytes (fewer when it is shorter).
core::Result<std::string> read_head(const std::string& path, std::size_t n) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return core::make_error("storage_error", "cannot reopen an upload");
  std::string out(n, '\0');
  std::size_t got = 0;
  while (got < n) {
    ssize_t r = ::read(fd, out.data() + got, n - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    got += static_cast<std::size_t>(r);
  }
  ::close(fd);
  out.resize(got);
  return out;
}

Response finish_upload(App& app, Request& req) {
  auto* up = dynamic_cast<UploadSink*>(req.body_sink.get());
  // The head passed begin_upload's checks; a request whose body was complete with its head (an empty
  // one) never reaches the sink.
  if (!up) return envelope_error(400, "the file is empty");
  if (up->refused) return envelope_error(up->refused->first, up->refused->second);
  if (up->multipart && !up->saw_file) return envelope_error(400, "multipart field 'file' is required");
  if (auto bad = check_fields(up->fields)) return std::move(*bad);
  const std::uint64_t max = app.config.storage.max_upload_bytes;
  const std::uint64_t size = up->content->size();
  if (size > max) return envelope_error(413, too_large_message(max));
  if (size == 0) return envelope_error(400, "the file is empty");

  std::string filename = up->fields.filename ? *up->fields.filename : cs::base_filename(up->part_filename);
  if (filename.empty())
    return envelope_error(400, "a filename is required: the file part's filename or the field 'filename'");
  if (auto st = cs::validate_filename(filename); !st.ok()) return envelope_error(400, st.error().message);
  const std::string declared = up->fields.content_type ? *up->fields.content_type : up->part_content_type;
  const bool is_public = up->fields.is_public ? *cs::parse_bool(*up->fields.is_public)
                                              : record::str(up->bucket, "visibility") == "public";
  const std::string folder = up->fields.folder.value_or("");

  auto head = read_head(up->content->path(), cs::kImageHeaderBytes);
  if (!head) return envelope_error(head.error());
  auto content_type = cs::resolve_content_type(std::string_view(*head).substr(0, cs::kSniffBytes), declared);
  if (!content_type) {
    if (content_type.error().code == "content_type_mismatch")
      return envelope_error(422, content_type.error().message);
    return envelope_error(400, "contentType must be a content type of the form type/subtype");
  }
  const std::string type(cs::media_type_for(*content_type));
  std::optional<cs::ImageSize> dims;
  if (type == "image") {
    auto found = cs::image_dimensions(*head, *content_type);
    if (!found && found.error().code == "image_unreadable")
      return envelope_error(
          422, "the image's dimensions cannot be read from its header (" + found.error().message + ")");
    if (found) {
      if (found->pixels() > app.config.storage.max_image_pixels)
        return envelope_error(422, "the image is " + std::to_string(found->width) + "x" +
                                       std::to_string(found->height) + " pixels; at most " +
                                       std::to_string(app.config.storage.max_image_pixels) +
                                       " pixels are accepted");
      dims = *found;
    }
  }

  const std::string& cid = up->ctx.company.id;
  const std::string bid = record::str(up->bucket, "id");
  if (!up->reservation.held()) {  // no Content-Length: reserve now
    auto reserved = reserve(app, cid, size);
    if (!reserved) return quota_refusal(reserved.error());
    up->reservation = std::move(*reserved);
  }
  const std::string id = core::make_id("med_", app.random);
  const std::string blob = blob_key(cid, bid, id);
  if (auto put = app.blobs->put_file(blob, up->content->path(), *content_type); !put.ok())
    return envelope_error(put.error());
  up->content->release();

  const std::int64_t now = app.clock.now_ms();
  const std::string audit_id = core::make_id("aud_", app.random);
  json::object media{{"id", id},
                     {"companyId", cid},
                     {"bucketId", bid},
                     {"blobKey", blob},
                     {"filename", filename},
                     {"contentType", *content_type},
                     {"isPublic", is_public},
                     {"folder", folder},
                     {"type", type},
                     {"size", static_cast<std::int64_t>(size)},
                     {"position", 0},
                     {"createdAt", core::format_timestamp(now)}};
  if (dims) {
    media["width"] = static_cast<std::int64_t>(dims->width);
    media["height"] = static_cast<std::int64_t>(dims->height);
  }
  std::optional<json::object> bucket;
  auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    bucket = record::get_object(txn, app.storage_table, bucket_key(cid, bid));
    if (!bucket) return core::make_error("not_found", "bucket not found");
    const std::uint64_t used = read_counter(txn, app.storage_table, used_key(cid));
    const std::uint64_t limit = quota_limit(app, txn, cid);
    if (used > limit || size > limit - used)
      return core::make_error("payload_too_large", quota_exceeded_message(size, used, 0, limit));
    const std::int64_t position = record::num(*bucket, "nextPosition");
    media["position"] = position;
    (*bucket)["nextPosition"] = position + 1;
    record::put_object(txn, app.storage_table, bucket_key(cid, bid), *bucket);
    record::put_object(txn, app.storage_table, media_key(cid, bid, id), media);
    txn.put(app.storage_table, media_index_key(id), cid + "/" + bid);
    add_usage(app, txn, cid, bid, static_cast<std::int64_t>(size), 1);
    append_audit(txn, app.audit_table, up->ctx,
                 {"storage.media.upload", json::object{{"bucket", record::str(*bucket, "slug")},
                                                       {"media", id},
                                                       {"size", static_cast<std::int64_t>(size)}}},
                 audit_id, now);
    return {};
  });
  up->reservation.release();
  if (!st.ok()) {
    if (auto removed = app.blobs->remove(blob); !removed.ok())
      spdlog::warn("removing blob {} of a failed upload failed (left for the orphan sweep): {}", blob,
                   removed.error().message);
    return quota_refusal(st.error());
  }
  return envelope_ok(media_json(app, up->ctx.company, *bucket, media), 201);
}

}  // namespace

void register_upload_routes(App& app) {
  RouteOptions options;
  options.max_body = static_cast<std::size_t>(app.config.storage.max_upload_bytes + kMultipartSlack);
  options.body_sink = [&app](const Request& head) { return begin_upload(app, head); };
  add_storage_forms(
      app, "POST", "/buckets/{bucket}/media", [&app](Request& req) { return finish_upload(app, req); },
      options);
}

}  // namespace edge::storage
