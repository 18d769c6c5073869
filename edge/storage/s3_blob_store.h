#pragma once
// The BlobStore on an S3-compatible service (docs/storage-blobs.md, "S3 backend"): blobs are objects of
// one bucket under the same keys as on the local backend. The service is the durable copy; a local cache
// under Config::Storage::blob_dir keeps the files the CDN and downloads read, filled by uploads and by the
// first read after a restart, and dropped with the blob.

#include <memory>
#include <string>

#include "edge/storage/blob_store.h"
#include "native/s3/s3_client.h"

namespace edge::storage {

class S3BlobStore : public BlobStore {
 public:
  S3BlobStore(native::s3::S3Options options, std::string cache_dir);

  core::Status put_file(const std::string& key, const std::string& path,
                        std::string_view content_type) override;
  core::Result<std::string> local_file(const std::string& key) override;
  std::optional<std::string> present_file(const std::string& key) override;
  core::Status remove(const std::string& key) override;
  core::Status list(std::string_view prefix,
                    const std::function<void(const std::string& key, std::uint64_t size)>& each) override;

 private:
  std::string cached_path(const std::string& key) const;

  native::s3::S3Client client_;
  std::string cache_dir_;
};

// The S3 backend from Config::Storage (endpoint, bucket, region, keys). Errors: `invalid_config` when a
// setting is missing, `storage_error` when the cache folder cannot be made.
core::Result<std::unique_ptr<BlobStore>> make_s3_blob_store(const Config& config);

}  // namespace edge::storage
