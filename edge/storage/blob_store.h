#pragma once
// Where media bytes live, behind one interface (docs/storage-blobs.md): the local filesystem (the default)
// or an S3-compatible service. The store's records say which blobs exist; a blob is written and made durable
// before the record that names it is committed, and removed after the record that named it is gone, so a
// crash leaves at worst an orphan blob (swept by `list` against the records), never a record without bytes.
//
// Blob keys are `<companyId>/<bucketId>/<mediaId>`: ASCII letters, digits, `-`, `_` and `/`.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.h"
#include "edge/config.h"

namespace edge::storage {

class BlobStore {
 public:
  virtual ~BlobStore() = default;

  // Stores the complete, fsync'd file at `path` under `key`, durably, replacing any blob of that key. The
  // file is consumed: afterwards it may be gone (the local backend renames it into place), and the caller
  // must not use it again. Errors: `storage_error` (nothing stored under `key`).
  virtual core::Status put_file(const std::string& key, const std::string& path,
                                std::string_view content_type) = 0;

  // A local file holding the blob's bytes, for file responses and image decoding: the blob itself (local
  // backend) or a cached copy fetched once (S3 backend). Errors: `not_found` when no such blob exists,
  // `storage_error` when it cannot be read or fetched.
  virtual core::Result<std::string> local_file(const std::string& key) = 0;

  // The same file when it is already on this machine (the local blob; S3: a cached copy), found without
  // any network request; nullopt otherwise. One stat(2), so an I/O thread may ask (the CDN's hits).
  virtual std::optional<std::string> present_file(const std::string& key) = 0;

  // Removes the blob (and any cached copy); removing a missing blob succeeds. Errors: `storage_error`.
  virtual core::Status remove(const std::string& key) = 0;

  // Calls `each` with every stored key under `prefix` (for the orphan sweep) and the blob's size.
  // Errors: `storage_error`.
  virtual core::Status list(std::string_view prefix,
                            const std::function<void(const std::string& key, std::uint64_t size)>& each) = 0;
};

// The backend the configuration names (Config::Storage::backend). Errors: `invalid_config` for an unknown
// backend or missing S3 settings, `storage_error` when the blob folder cannot be created.
core::Result<std::unique_ptr<BlobStore>> make_blob_store(const Config& config);

}  // namespace edge::storage
