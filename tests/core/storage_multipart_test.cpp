// The streaming multipart/form-data reader (core/storage/multipart.h): the same parts whatever the pieces.

#include "core/storage/multipart.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace core::storage;

TEST_SUITE_BEGIN("storage");

namespace {

struct Seen {
  std::vector<MultipartPart> parts;
  std::vector<std::string> bodies;
  int ended = 0;
};

core::Status read_in_pieces(const std::string& boundary, const std::string& body, std::size_t piece,
                            Seen& seen) {
  MultipartReader reader(boundary, {[&](const MultipartPart& p) -> core::Status {
                                      seen.parts.push_back(p);
                                      seen.bodies.emplace_back();
                                      return {};
                                    },
                                    [&](std::string_view d) -> core::Status {
                                      seen.bodies.back().append(d);
                                      return {};
                                    },
                                    [&]() -> core::Status {
                                      ++seen.ended;
                                      return {};
                                    }});
  for (std::size_t at = 0; at < body.size(); at += piece)
    CORE_TRY(reader.feed(std::string_view(body).substr(at, piece)));
  return reader.finish();
}

const std::string kBody =
    "preamble to ignore\r\n"
    "--XyZ\r\n"
    "Content-Disposition: form-data; name=\"folder\"\r\n"
    "\r\n"
    "photos/2026\r\n"
    "--XyZ  \r\n"
    "content-disposition: form-data; name=\"file\"; filename=\"C:\\x\\a;b.png\"\r\n"
    "Content-Type: image/png\r\n"
    "\r\n"
    "\r\n--XyNOT a boundary\r\n--Xy\r\nbytes\r\n"
    "--XyZ--\r\n"
    "epilogue";

}  // namespace

TEST_CASE("storage: multipart parts come out the same whatever the piece size") {
  for (std::size_t piece : {1u, 2u, 3u, 7u, 64u, 100000u}) {
    CAPTURE(piece);
    Seen seen;
    REQUIRE(read_in_pieces("XyZ", kBody, piece, seen).ok());
    REQUIRE(seen.parts.size() == 2);
    CHECK(seen.ended == 2);
    CHECK(seen.parts[0].name == "folder");
    CHECK_FALSE(seen.parts[0].has_filename);
    CHECK(seen.bodies[0] == "photos/2026");
    CHECK(seen.parts[1].name == "file");
    CHECK(seen.parts[1].has_filename);
    CHECK(seen.parts[1].filename == "C:\\x\\a;b.png");
    CHECK(seen.parts[1].content_type == "image/png");
    CHECK(seen.bodies[1] == "\r\n--XyNOT a boundary\r\n--Xy\r\nbytes");
  }
}

TEST_CASE("storage: multipart filename* (RFC 5987) wins over filename") {
  Seen seen;
  std::string body =
      "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"x.txt\"; "
      "filename*=UTF-8''%C3%A7i%C3%A7ek.txt\r\n\r\nhi\r\n--b--";
  REQUIRE(read_in_pieces("b", body, 5, seen).ok());
  CHECK(seen.parts[0].filename == "çiçek.txt");
}

TEST_CASE("storage: malformed multipart bodies are refused") {
  Seen a;
  auto cut = read_in_pieces("b", "--b\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\nabc", 4, a);
  REQUIRE_FALSE(cut.ok());
  CHECK(cut.error().code == "invalid_multipart");
  CHECK(cut.error().message == "the multipart body ends before its closing boundary");
  Seen b;
  auto no_disposition = read_in_pieces("b", "--b\r\nContent-Type: text/plain\r\n\r\nabc\r\n--b--", 4, b);
  CHECK(no_disposition.error().message == "a multipart part has no Content-Disposition header");
  Seen c;
  auto junk = read_in_pieces("b", "--bjunk\r\n", 100, c);
  CHECK(junk.error().message == "malformed multipart boundary line");
  Seen d;
  auto huge = read_in_pieces("b", "--b\r\nX-Pad: " + std::string(20000, 'a'), 1000, d);
  CHECK(huge.error().message == "a multipart part's headers are too large");
  Seen e;
  CHECK(read_in_pieces("b", "", 1, e).error().code == "invalid_multipart");
}

TEST_CASE("storage: the boundary comes from the Content-Type") {
  CHECK(*multipart_boundary("multipart/form-data; boundary=----WebKitFormBoundaryAbc") ==
        "----WebKitFormBoundaryAbc");
  CHECK(*multipart_boundary("Multipart/Form-Data; charset=utf-8; boundary=\"a b\"") == "a b");
  CHECK(multipart_boundary("multipart/mixed; boundary=x").error().code == "invalid_multipart");
  CHECK(multipart_boundary("multipart/form-data").error().code == "invalid_multipart");
  CHECK(multipart_boundary("multipart/form-data; boundary=" + std::string(71, 'x')).error().code ==
        "invalid_multipart");
}

TEST_SUITE_END();
