// The S3 client (native/s3/) against a real S3-compatible server on loopback that checks AWS Signature V4
// (tests/native/s3_server.h).

#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <map>
#include <string>

#include "native/s3/s3_client.h"
#include "tests/native/s3_server.h"
#include "tests/native/temp_dir.h"

namespace {

using native::s3::S3Client;
using native::s3::S3Options;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

S3Options options_for(const test_s3::S3Server& server) {
  S3Options o;
  o.endpoint = server.endpoint();
  o.bucket = "media";
  o.access_key = test_s3::S3Server::kAccessKey;
  o.secret_key = test_s3::S3Server::kSecretKey;
  return o;
}

// Bytes of every value, NUL and high bytes included, so nothing is treated as text on the way.
std::string binary_bytes(std::size_t n) {
  std::string bytes(n, '\0');
  std::uint32_t x = 2463534242u;
  for (auto& c : bytes) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    c = static_cast<char>(x & 0xff);
  }
  return bytes;
}

}  // namespace

// Requires an ok Status, quoting the error otherwise.
#define REQUIRE_OK(expr)                                    \
  do {                                                      \
    const core::Status status_ = (expr);                    \
    REQUIRE_MESSAGE(status_.ok(), status_.error().message); \
  } while (0)

TEST_SUITE("s3_client") {
  TEST_CASE("an object put from a file comes back byte for byte, is listed with its size, and goes") {
    std::string failure;
    auto server = test_s3::S3Server::start("media", failure);
    REQUIRE_MESSAGE(server, failure);
    store_test::TempDir dir;
    std::filesystem::create_directories(dir.path());
    const std::string bytes = binary_bytes(3 * 1024 * 1024 + 17);
    write_file(dir.str() + "/in", bytes);
    S3Client client(options_for(*server));
    REQUIRE_OK(client.put_file("c1/b1/med_1", dir.str() + "/in", "image/png"));
    REQUIRE_OK(client.get_to_file("c1/b1/med_1", dir.str() + "/out"));
    CHECK(read_file(dir.str() + "/out") == bytes);

    write_file(dir.str() + "/small", "hello");
    REQUIRE_OK(client.put_file("c1/b2/med_2", dir.str() + "/small", "text/plain"));
    REQUIRE_OK(client.put_file("c2/b3/med_3", dir.str() + "/small", ""));
    std::map<std::string, std::uint64_t> listed;
    REQUIRE_OK(client.list("c1/", [&](const std::string& k, std::uint64_t s) { listed[k] = s; }));
    CHECK(listed == std::map<std::string, std::uint64_t>{{"c1/b1/med_1", bytes.size()}, {"c1/b2/med_2", 5}});

    REQUIRE_OK(client.remove("c1/b1/med_1"));
    auto gone = client.get_to_file("c1/b1/med_1", dir.str() + "/out2");
    REQUIRE_FALSE(gone.ok());
    CHECK(gone.error().code == "not_found");
    // Removing what is not there is no error.
    CHECK(client.remove("c1/b1/med_1").ok());
  }

  TEST_CASE("a listing longer than one page is read page after page") {
    std::string failure;
    auto server = test_s3::S3Server::start("media", failure);
    REQUIRE_MESSAGE(server, failure);
    store_test::TempDir dir;
    std::filesystem::create_directories(dir.path());
    write_file(dir.str() + "/x", "x");
    auto options = options_for(*server);
    options.list_page_size = 3;
    S3Client client(options);
    for (int i = 0; i < 8; ++i) REQUIRE_OK(client.put_file("p/k" + std::to_string(i), dir.str() + "/x", ""));
    std::vector<std::string> keys;
    REQUIRE_OK(client.list("p/", [&](const std::string& k, std::uint64_t) { keys.push_back(k); }));
    CHECK(keys == std::vector<std::string>{"p/k0", "p/k1", "p/k2", "p/k3", "p/k4", "p/k5", "p/k6", "p/k7"});
  }

  TEST_CASE("a wrong secret is refused by the server's signature check, and the secret is never quoted") {
    std::string failure;
    auto server = test_s3::S3Server::start("media", failure);
    REQUIRE_MESSAGE(server, failure);
    store_test::TempDir dir;
    std::filesystem::create_directories(dir.path());
    write_file(dir.str() + "/x", "x");
    auto options = options_for(*server);
    options.secret_key = "wrong-secret-value";
    S3Client client(options);
    auto put = client.put_file("a/b", dir.str() + "/x", "text/plain");
    REQUIRE_FALSE(put.ok());
    CHECK(put.error().code == "s3_error");
    CHECK(put.error().message == "storing object a/b: the service answered 403 SignatureDoesNotMatch");
    auto listed = client.list("", [](const std::string&, std::uint64_t) {});
    REQUIRE_FALSE(listed.ok());
    CHECK(listed.error().message.find("wrong-secret-value") == std::string::npos);
    // Nothing was stored under the refused request.
    S3Client good(options_for(*server));
    CHECK(good.get_to_file("a/b", dir.str() + "/y").error().code == "not_found");
  }

  TEST_CASE("an unknown bucket, an unreachable service and a malformed key fail with their codes") {
    std::string failure;
    auto server = test_s3::S3Server::start("media", failure);
    REQUIRE_MESSAGE(server, failure);
    store_test::TempDir dir;
    std::filesystem::create_directories(dir.path());
    write_file(dir.str() + "/x", "x");
    auto options = options_for(*server);
    options.bucket = "absent";
    auto no_bucket = S3Client(options).put_file("a", dir.str() + "/x", "");
    REQUIRE_FALSE(no_bucket.ok());
    CHECK(no_bucket.error().code == "not_found");

    options = options_for(*server);
    options.endpoint = "http://127.0.0.1:" + std::to_string(test_process::free_tcp_port());
    auto down = S3Client(options).put_file("a", dir.str() + "/x", "");
    REQUIRE_FALSE(down.ok());
    CHECK(down.error().code == "s3_unreachable");

    S3Client client(options_for(*server));
    for (const char* key : {"", "/abs", "sp ace", "q?x", "h#x", "ü"}) {
      INFO(key);
      CHECK(client.put_file(key, dir.str() + "/x", "").error().code == "invalid_key");
    }
    CHECK(client.put_file("a", dir.str() + "/missing", "").error().code == "storage_error");
  }
}
