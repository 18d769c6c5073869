// Storage: uploads over HTTP (docs/storage-api.md, "Upload"): raw and multipart bodies, the Media record,
// content types checked against the bytes, the single-shot limit at and over it (413 at once from the
// head), images too large to decode, and bad input of every kind refused with nothing stored.

#include <filesystem>

#include "../transport/raw_client.h"
#include "storage_support.h"

using namespace storage_test;
namespace fs = std::filesystem;

TEST_SUITE_BEGIN("storage");

namespace {

std::size_t files_under(const std::string& dir) {
  std::size_t n = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    n += it->is_regular_file();
  return n;
}

// Nothing of a refused upload stays: no bytes on the quota, no blob, no temporary file, no record.
void check_nothing_stored(TestEdge& e, const std::string& bucket = "photos") {
  CHECK(quota(e, e.acme_token).first == 0);
  CHECK(files_under(e.server->app().config.storage.blob_dir) == 0);
  CHECK(files_under(e.server->app().config.upload_dir) == 0);
  CHECK(num(e.get("/api/companies/acme/buckets/" + bucket + "/media", e.acme_token).data(), "total") == 0);
}

}  // namespace

TEST_CASE("storage upload: a raw body answers 201 with the Media record") {
  StorageEdge e(unthrottled());
  REQUIRE(make_bucket(e, e.acme_token, "photos", "public").status == 201);
  const std::string bytes = png(640, 480);
  auto up = upload_raw(e, e.acme_token, "photos", bytes, "filename=cat%20photo.png&folder=pets/cats");
  REQUIRE(up.status == 201);
  const auto& m = up.data();
  const std::string id = str(m, "id");
  CHECK(id.rfind("med_", 0) == 0);
  CHECK(id.size() == 20);
  CHECK(str(m, "url") == e.url() + "/f/" + id);
  CHECK(num(m, "size") == static_cast<std::int64_t>(bytes.size()));
  CHECK(str(m, "filename") == "cat photo.png");
  CHECK(str(m, "contentType") == "image/png");
  CHECK(m.as_object().at("isPublic") == true);
  CHECK(str(m, "folder") == "pets/cats");
  CHECK(str(m, "type") == "image");
  CHECK(str(m, "bucket") == "photos");
  CHECK(num(m, "width") == 640);
  CHECK(num(m, "height") == 480);
  CHECK(num(m, "position") == 0);
  CHECK(str(m, "createdAt") == "2026-11-18T11:06:40.000Z");
  auto detail = e.get("/api/companies/acme/buckets/photos/media/" + id, e.acme_token);
  CHECK(detail.status == 200);
  CHECK(detail.data() == m);
  CHECK(quota(e, e.acme_token).first == static_cast<std::int64_t>(bytes.size()));
  CHECK(files_under(e.server->app().config.upload_dir) == 0);

  // isPublic=false in a public bucket: private, and its url is the authenticated download route.
  auto priv = upload_raw(e, e.acme_token, "photos", "hello\n", "filename=a.txt&isPublic=false");
  REQUIRE(priv.status == 201);
  const std::string pid = str(priv.data(), "id");
  CHECK(priv.data().as_object().at("isPublic") == false);
  CHECK(str(priv.data(), "url") ==
        e.url() + "/api/storage/companies/acme/buckets/photos/media/" + pid + "/download");
  CHECK(str(priv.data(), "contentType") == "text/plain");
  CHECK(str(priv.data(), "type") == "doc");
  CHECK(num(priv.data(), "position") == 1);

  // A private bucket makes every item private, whatever it was uploaded as.
  REQUIRE(e.patch("/api/companies/acme/buckets/photos", R"({"visibility":"private"})", e.acme_token).status ==
          200);
  auto hidden = e.get("/api/companies/acme/buckets/photos/media/" + id, e.acme_token);
  CHECK(hidden.data().as_object().at("isPublic") == false);
  CHECK(str(hidden.data(), "url") ==
        e.url() + "/api/storage/companies/acme/buckets/photos/media/" + id + "/download");
}

TEST_CASE("storage upload: multipart/form-data with the field file and optional fields") {
  StorageEdge e(unthrottled());
  REQUIRE(make_bucket(e, e.acme_token, "photos").status == 201);
  const std::string bytes = pdf(5000);
  auto up = upload_multipart(
      e, e.acme_token, "photos",
      {text_field("folder", "invoices"), file_field(bytes, "C:\\Users\\me\\fatura.pdf", "application/pdf"),
       text_field("isPublic", "true")});
  REQUIRE(up.status == 201);
  CHECK(str(up.data(), "filename") == "fatura.pdf");
  CHECK(str(up.data(), "contentType") == "application/pdf");
  CHECK(str(up.data(), "type") == "doc");
  CHECK(str(up.data(), "folder") == "invoices");
  CHECK(num(up.data(), "size") == static_cast<std::int64_t>(bytes.size()));
  // The bucket is private: the item is too.
  CHECK(up.data().as_object().at("isPublic") == false);

  // Fields override the part's own name and type; a browser's application/octet-stream declares nothing.
  auto named = upload_multipart(
      e, e.acme_token, "photos",
      {file_field(png(2, 2), "x.bin", "application/octet-stream"), text_field("filename", "renamed.png")});
  REQUIRE(named.status == 201);
  CHECK(str(named.data(), "filename") == "renamed.png");
  CHECK(str(named.data(), "contentType") == "image/png");
  // Bytes that look like a boundary inside the file are content.
  const std::string tricky = "line\r\n------storageTestBoundary7MA4YWx\r\nmore";
  auto t = upload_multipart(e, e.acme_token, "photos", {file_field(tricky, "t.txt")});
  REQUIRE(t.status == 201);
  CHECK(num(t.data(), "size") == static_cast<std::int64_t>(tricky.size()));
}

TEST_CASE("storage upload: a declared type that contradicts the bytes is refused with 422") {
  StorageEdge e(unthrottled());
  REQUIRE(make_bucket(e, e.acme_token, "photos").status == 201);
  auto png_as_jpeg =
      upload_raw(e, e.acme_token, "photos", png(4, 4), "filename=a.jpg&contentType=image/jpeg");
  CHECK(png_as_jpeg.status == 422);
  CHECK(
      png_as_jpeg.body ==
      R"({"data":null,"error":"the declared content type image/jpeg does not match the file's bytes, which are image/png"})");
  auto text_as_png =
      upload_multipart(e, e.acme_token, "photos", {file_field("not an image", "a.png", "image/png")});
  CHECK(text_as_png.status == 422);
  CHECK(text_as_png.error() ==
        "the declared content type image/png does not match the file's bytes, which are text");
  auto binary_as_text = upload_raw(e, e.acme_token, "photos", std::string("\0\1\2\3", 4),
                                   "filename=a.txt&contentType=text/plain");
  CHECK(binary_as_text.status == 422);
  auto bad_type = upload_raw(e, e.acme_token, "photos", png(4, 4), "filename=a.png&contentType=png");
  CHECK(bad_type.status == 400);
  CHECK(bad_type.error() == "contentType must be a content type of the form type/subtype");
  check_nothing_stored(e);
}

TEST_CASE("storage upload: the single-shot limit, at and over it") {
  edge::Config c = unthrottled();
  c.storage.max_upload_bytes = 1000;
  StorageEdge e(c);
  REQUIRE(make_bucket(e, e.acme_token, "photos").status == 201);
  auto at = upload_raw(e, e.acme_token, "photos", std::string(1000, 'a'), "filename=a.txt");
  REQUIRE(at.status == 201);
  CHECK(num(at.data(), "size") == 1000);
  auto over = upload_raw(e, e.acme_token, "photos", std::string(1001, 'a'), "filename=b.txt");
  CHECK(over.status == 413);
  CHECK(over.body ==
        R"({"data":null,"error":"the upload is larger than the single-shot limit of 1000 bytes"})");
  auto multi_at = upload_multipart(e, e.acme_token, "photos", {file_field(std::string(1000, 'm'), "m.txt")});
  CHECK(multi_at.status == 201);
  auto multi_over =
      upload_multipart(e, e.acme_token, "photos", {file_field(std::string(1001, 'm'), "m.txt")});
  CHECK(multi_over.status == 413);
  CHECK(multi_over.error() == "the upload is larger than the single-shot limit of 1000 bytes");
  CHECK(quota(e, e.acme_token).first == 2000);
  CHECK(files_under(e.server->app().config.upload_dir) == 0);
}

TEST_CASE("storage upload: 100 MB is accepted, one byte more is refused from the head before any body byte") {
  StorageEdge e(unthrottled());
  REQUIRE(make_bucket(e, e.acme_token, "big").status == 201);
  const std::uint64_t limit = 100ULL * 1000 * 1000;
  CHECK(e.server->app().config.storage.max_upload_bytes == limit);
  {
    std::string body(limit, 'z');
    auto at = upload_raw(e, e.acme_token, "big", body, "filename=big.txt");
    REQUIRE(at.status == 201);
    CHECK(num(at.data(), "size") == static_cast<std::int64_t>(limit));
  }
  transport_test::RawConn conn(e.server->port());
  REQUIRE(conn.ok());
  auto refused = conn.exchange(
      "POST /api/companies/acme/buckets/big/media?filename=x.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n"
      "Authorization: Bearer " +
      e.acme_token + "\r\nContent-Length: " + std::to_string(limit + 1) + "\r\n\r\n");
  REQUIRE(refused.has_value());
  CHECK(refused->status == 413);
  CHECK(refused->body ==
        R"({"data":null,"error":"the upload is larger than the single-shot limit of 100000000 bytes"})");
  CHECK(quota(e, e.acme_token).first == static_cast<std::int64_t>(limit));
}

TEST_CASE("storage upload: images with too many pixels or an unreadable header are refused") {
  StorageEdge e(unthrottled());
  REQUIRE(make_bucket(e, e.acme_token, "photos").status == 201);
  auto bomb = upload_raw(e, e.acme_token, "photos", png(20000, 20000), "filename=bomb.png");
  CHECK(bomb.status == 422);
  CHECK(bomb.error() == "the image is 20000x20000 pixels; at most 100000000 pixels are accepted");
  auto at_limit = upload_raw(e, e.acme_token, "photos", png(10000, 10000), "filename=ok.png");
  CHECK(at_limit.status == 201);
  REQUIRE(
      e.del("/api/companies/acme/buckets/photos/media/" + str(at_limit.data(), "id"), e.acme_token).status ==
      200);
  auto broken =
      upload_raw(e, e.acme_token, "photos", std::string("\xFF\xD8\xFF\xDA\x00\x08", 6), "filename=x.jpg");
  CHECK(broken.status == 422);
  CHECK(broken.error() ==
        "the image's dimensions cannot be read from its header (the JPEG header cannot be read)");
  check_nothing_stored(e);
}

TEST_CASE("storage upload: bad requests of every kind change nothing") {
  StorageEdge e(unthrottled());
  REQUIRE(make_bucket(e, e.acme_token, "photos").status == 201);
  CHECK(upload_raw(e, e.acme_token, "photos", "abc", "").error() ==
        "query parameter 'filename' is required for a raw upload");
  CHECK(upload_raw(e, e.acme_token, "photos", "", "filename=a.txt").error() == "the file is empty");
  CHECK(upload_raw(e, e.acme_token, "photos", "abc", "filename=a.txt&isPublic=maybe").error() ==
        "isPublic must be true or false");
  CHECK(upload_raw(e, e.acme_token, "photos", "abc", "filename=a.txt&folder=/abs").status == 400);
  CHECK(upload_raw(e, e.acme_token, "photos", "abc", "filename=a%2Fb.txt").status == 400);
  auto nobucket = upload_raw(e, e.acme_token, "nope", "abc", "filename=a.txt");
  CHECK(nobucket.status == 404);
  CHECK(nobucket.error() == "bucket not found");
  CHECK(upload_raw(e, e.globex_token, "photos", "abc", "filename=a.txt", "globex").status == 404);
  const std::string viewer = e.token_with("acme", {"storage.view"});
  auto denied = upload_raw(e, viewer, "photos", "abc", "filename=a.txt");
  CHECK(denied.status == 403);
  CHECK(denied.error() == "access token lacks permission 'media.upload'");
  CHECK(upload_raw(e, "stk_" + std::string(48, '0'), "photos", "abc", "filename=a.txt").status == 401);
  auto nofile = upload_multipart(e, e.acme_token, "photos", {text_field("folder", "x")});
  CHECK(nofile.status == 400);
  CHECK(nofile.error() == "multipart field 'file' is required");
  auto two =
      upload_multipart(e, e.acme_token, "photos", {file_field("a", "a.txt"), file_field("b", "b.txt")});
  CHECK(two.error() == "the multipart body has more than one field 'file'");
  auto cut = e.send("POST", "/api/companies/acme/buckets/photos/media",
                    "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n\r\nabc",
                    {{"Authorization", "Bearer " + e.acme_token}}, "multipart/form-data; boundary=b");
  CHECK(cut.status == 400);
  CHECK(cut.error() == "the multipart body ends before its closing boundary");
  auto no_boundary = e.send("POST", "/api/companies/acme/buckets/photos/media", "x",
                            {{"Authorization", "Bearer " + e.acme_token}}, "multipart/form-data");
  CHECK(no_boundary.error() == "the multipart/form-data Content-Type has no usable boundary");
  auto no_name = upload_multipart(e, e.acme_token, "photos", {file_field("abc", "")});
  CHECK(no_name.error() == "a filename is required: the file part's filename or the field 'filename'");
  check_nothing_stored(e);
}

TEST_SUITE_END();
