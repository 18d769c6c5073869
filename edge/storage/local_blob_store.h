#pragma once
// The local filesystem backend of BlobStore (docs/storage-blobs.md): blob `<key>` is the file
// `<blob_dir>/<key>`. A put renames the caller's fsync'd temporary file into place and fsyncs the folder, so
// the blob is durable before the record naming it is committed.

#include <string>

#include "edge/storage/blob_store.h"

namespace edge::storage {

class LocalBlobStore : public BlobStore {
 public:
  explicit LocalBlobStore(std::string root) : root_(std::move(root)) {}

  core::Status put_file(const std::string& key, const std::string& path,
                        std::string_view content_type) override;
  core::Result<std::string> local_file(const std::string& key) override;
  std::optional<std::string> present_file(const std::string& key) override;
  core::Status remove(const std::string& key) override;
  core::Status list(std::string_view prefix,
                    const std::function<void(const std::string& key, std::uint64_t size)>& each) override;

  const std::string& root() const { return root_; }

 private:
  std::string root_;
};

// Whether `key` is a blob key: 1..400 bytes of ASCII letters, digits, `-`, `_` and `/`, with no empty
// segment (so no leading, trailing or double `/`, and never `..`).
bool valid_blob_key(std::string_view key);

}  // namespace edge::storage
