// The S3 blob backend (edge/storage/s3_blob_store.h) against a real S3-compatible server on loopback that
// checks Signature V4: the BlobStore contract (put consumes the file, local_file, list, remove), a cold
// cache refilled from the service, and settings that are missing or wrong.

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <string>

#include "../native/s3_server.h"
#include "edge/storage/s3_blob_store.h"
#include "test_edge.h"

namespace {

namespace fs = std::filesystem;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string write_temp(const std::string& dir, const std::string& name, const std::string& bytes) {
  fs::create_directories(dir);
  const std::string path = dir + "/" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

edge::Config s3_config(const test_s3::S3Server& server, const std::string& blob_dir) {
  edge::Config c;
  c.storage.backend = "s3";
  c.storage.blob_dir = blob_dir;
  c.storage.s3_endpoint = server.endpoint();
  c.storage.s3_bucket = "blobs";
  c.storage.s3_access_key = test_s3::S3Server::kAccessKey;
  c.storage.s3_secret_key = test_s3::S3Server::kSecretKey;
  return c;
}

}  // namespace

TEST_SUITE("storage_s3") {
  TEST_CASE("put consumes the file, the blob reads back from the cache and, cold, from the service") {
    std::string failure;
    auto server = test_s3::S3Server::start("blobs", failure);
    REQUIRE_MESSAGE(server, failure);
    testing::TempDir dir;
    auto store = edge::storage::make_s3_blob_store(s3_config(*server, dir.path + "/blobs"));
    REQUIRE(store);
    std::string bytes(200'000, '\0');
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>((i * 7919) % 251);
    const std::string file = write_temp(dir.path + "/tmp", "upload-1", bytes);
    const std::string key = "co_1/bkt_1/med_1";
    auto put = (*store)->put_file(key, file, "image/png");
    REQUIRE_MESSAGE(put.ok(), put.error().message);
    CHECK_FALSE(fs::exists(file));
    auto local = (*store)->local_file(key);
    REQUIRE(local);
    CHECK(read_file(*local) == bytes);
    CHECK((*store)->present_file(key) == std::optional<std::string>(*local));

    // Another edge (or this one after losing its disk) has no cache: the first read downloads.
    auto cold = edge::storage::make_s3_blob_store(s3_config(*server, dir.path + "/other"));
    REQUIRE(cold);
    CHECK_FALSE((*cold)->present_file(key).has_value());  // present_file never downloads
    auto fetched = (*cold)->local_file(key);
    REQUIRE(fetched);
    CHECK((*cold)->present_file(key) == std::optional<std::string>(*fetched));
    CHECK(*fetched != *local);
    CHECK(read_file(*fetched) == bytes);

    std::map<std::string, std::uint64_t> listed;
    REQUIRE((*store)->list("co_1/", [&](const std::string& k, std::uint64_t s) { listed[k] = s; }).ok());
    CHECK(listed == std::map<std::string, std::uint64_t>{{key, bytes.size()}});

    REQUIRE((*store)->remove(key).ok());
    CHECK_FALSE(fs::exists(*local));
    auto gone = (*cold)->remove(key);
    CHECK(gone.ok());  // removing a missing blob succeeds
    CHECK_FALSE(fs::exists(*fetched));
    CHECK_FALSE((*store)->present_file(key).has_value());
    CHECK_FALSE((*cold)->present_file(key).has_value());
    auto missing = (*store)->local_file(key);
    REQUIRE_FALSE(missing);
    CHECK(missing.error().code == "not_found");
    listed.clear();
    REQUIRE((*store)->list("co_1/", [&](const std::string& k, std::uint64_t s) { listed[k] = s; }).ok());
    CHECK(listed.empty());
  }

  TEST_CASE("missing settings are invalid_config; a wrong secret is a storage_error that stores nothing") {
    std::string failure;
    auto server = test_s3::S3Server::start("blobs", failure);
    REQUIRE_MESSAGE(server, failure);
    testing::TempDir dir;
    edge::Config c = s3_config(*server, dir.path + "/blobs");
    c.storage.s3_bucket.clear();
    auto no_bucket = edge::storage::make_s3_blob_store(c);
    REQUIRE_FALSE(no_bucket);
    CHECK(no_bucket.error().code == "invalid_config");
    CHECK(no_bucket.error().message == "the S3 storage backend needs --storage-s3-bucket");
    c = s3_config(*server, dir.path + "/blobs");
    c.storage.s3_secret_key.clear();
    CHECK(edge::storage::make_s3_blob_store(c).error().message ==
          "the S3 storage backend needs STORAGE_S3_SECRET_KEY");

    c = s3_config(*server, dir.path + "/blobs");
    c.storage.s3_secret_key = "not-the-secret";
    auto wrong = edge::storage::make_s3_blob_store(c);
    REQUIRE(wrong);
    const std::string file = write_temp(dir.path + "/tmp", "upload-2", "bytes");
    auto put = (*wrong)->put_file("co_1/bkt_1/med_2", file, "text/plain");
    REQUIRE_FALSE(put.ok());
    CHECK(put.error().code == "storage_error");
    CHECK(put.error().message.find("SignatureDoesNotMatch") != std::string::npos);
    CHECK(put.error().message.find("not-the-secret") == std::string::npos);
    auto good = edge::storage::make_s3_blob_store(s3_config(*server, dir.path + "/blobs"));
    REQUIRE(good);
    CHECK((*good)->local_file("co_1/bkt_1/med_2").error().code == "not_found");
  }
}
