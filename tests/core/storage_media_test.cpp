// Media fields, the list's filters and order, and signed download URLs (core/storage/).

#include <doctest/doctest.h>

#include "core/storage/download_url.h"
#include "core/storage/media_fields.h"
#include "core/storage/media_list.h"

using namespace core::storage;

TEST_SUITE_BEGIN("storage");

TEST_CASE("storage: filenames, folders, bucket names and visibility") {
  CHECK(validate_filename("photo.png").ok());
  CHECK(validate_filename("fotoğraf çekimi.jpg").ok());
  CHECK(validate_filename("").error().code == "invalid_filename");
  CHECK(validate_filename("a/b.png").error().code == "invalid_filename");
  CHECK(validate_filename("a\\b.png").error().code == "invalid_filename");
  CHECK(validate_filename("..").error().code == "invalid_filename");
  CHECK(validate_filename("a\nb").error().code == "invalid_filename");
  CHECK(validate_filename("\xC3").error().code == "invalid_filename");
  CHECK(validate_filename(std::string(256, 'a')).error().code == "invalid_filename");
  CHECK(validate_folder("").ok());
  CHECK(validate_folder("a/b/c").ok());
  CHECK(validate_folder("/a").error().code == "invalid_folder");
  CHECK(validate_folder("a/").error().code == "invalid_folder");
  CHECK(validate_folder("a//b").error().code == "invalid_folder");
  CHECK(validate_folder("a/../b").error().code == "invalid_folder");
  CHECK(validate_bucket_name("Photos").ok());
  CHECK(validate_bucket_name("   ").error().code == "invalid_name");
  CHECK(validate_bucket_name(std::string(101, 'a')).error().code == "invalid_name");
  CHECK(validate_visibility("public").ok());
  CHECK(validate_visibility("Public").error().code == "invalid_visibility");
  CHECK(base_filename("C:\\Users\\me\\a.png") == "a.png");
  CHECK(base_filename("dir/b.txt") == "b.txt");
  CHECK(parse_bool("true") == true);
  CHECK(parse_bool("0") == false);
  CHECK_FALSE(parse_bool("yes").has_value());
}

TEST_CASE("storage: the media list filters and sorts, ties broken by id") {
  std::vector<MediaRow> rows = {
      {"m3", "Beta.png", "image", "", 30, 1000, 2, 0},
      {"m1", "alpha.PDF", "doc", "docs", 10, 3000, 0, 1},
      {"m2", "gamma.png", "image", "", 20, 2000, 1, 2},
      {"m4", "beta-2.mp4", "video", "", 20, 2000, 3, 3},
  };
  auto ids = [](const std::vector<MediaRow>& r) {
    std::string s;
    for (auto& x : r) s += x.id + " ";
    return s;
  };
  auto q = [](std::optional<std::string> type, std::optional<std::string> folder,
              std::optional<std::string> qq, std::optional<std::string> sort,
              std::optional<std::string> dir) {
    auto r = parse_media_query(type, folder, qq, sort, dir);
    REQUIRE(r.ok());
    return *r;
  };
  CHECK(ids(select_media(rows, q({}, {}, {}, {}, {}))) == "m1 m2 m3 m4 ");
  CHECK(ids(select_media(rows, q({}, {}, {}, "createdAt", "desc"))) == "m1 m2 m4 m3 ");
  CHECK(ids(select_media(rows, q({}, {}, {}, "size", "asc"))) == "m1 m2 m4 m3 ");
  CHECK(ids(select_media(rows, q({}, {}, {}, "size", "desc"))) == "m3 m2 m4 m1 ");
  CHECK(ids(select_media(rows, q({}, {}, {}, "filename", {}))) == "m1 m4 m3 m2 ");
  CHECK(ids(select_media(rows, q("image", {}, {}, {}, {}))) == "m2 m3 ");
  CHECK(ids(select_media(rows, q({}, "", {}, {}, {}))) == "m2 m3 m4 ");
  CHECK(ids(select_media(rows, q({}, "docs", {}, {}, {}))) == "m1 ");
  CHECK(ids(select_media(rows, q({}, {}, "BETA", {}, {}))) == "m3 m4 ");
  CHECK(parse_media_query("images", {}, {}, {}, {}).error().message ==
        "query parameter 'type' must be one of image, video, audio, doc, other");
  CHECK(parse_media_query({}, {}, {}, "name", {}).error().code == "invalid_query");
  CHECK(parse_media_query({}, {}, {}, {}, "up").error().code == "invalid_query");
  CHECK(parse_media_query({}, "/x", {}, {}, {}).error().code == "invalid_query");
  CHECK(sort_name(q({}, {}, {}, "createdAt", {}).sort) == "createdAt");
}

TEST_CASE("storage: download URLs are good until they expire and refuse any change") {
  core::SecretKey key;
  key.fill(7);
  core::SecretKey other;
  other.fill(8);
  const std::int64_t expires = 1'795'000'900;
  const std::string sig = download_signature(key, "med_abc", expires);
  CHECK(sig.size() == 64);
  CHECK(sig == download_signature(key, "med_abc", expires));
  CHECK(check_download(key, "med_abc", "1795000900", sig, expires - 900) == DownloadCheck::ok);
  CHECK(check_download(key, "med_abc", "1795000900", sig, expires) == DownloadCheck::ok);
  CHECK(check_download(key, "med_abc", "1795000900", sig, expires + 1) == DownloadCheck::expired);
  CHECK(check_download(key, "med_abd", "1795000900", sig, expires) == DownloadCheck::invalid);
  CHECK(check_download(key, "med_abc", "1795000901", sig, expires) == DownloadCheck::invalid);
  CHECK(check_download(key, "med_abc", "01795000900", sig, expires) == DownloadCheck::invalid);
  CHECK(check_download(other, "med_abc", "1795000900", sig, expires) == DownloadCheck::invalid);
  std::string flipped = sig;
  flipped[10] = flipped[10] == 'a' ? 'b' : 'a';
  CHECK(check_download(key, "med_abc", "1795000900", flipped, expires) == DownloadCheck::invalid);
  CHECK(check_download(key, "med_abc", "", sig, expires) == DownloadCheck::invalid);
  CHECK(check_download(key, "med_abc", "1795000900", "", expires) == DownloadCheck::invalid);
  CHECK(check_download(key, "med_abc", "-5", sig, expires) == DownloadCheck::invalid);
}

TEST_SUITE_END();
