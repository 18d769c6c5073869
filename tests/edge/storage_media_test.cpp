// Storage: media over HTTP (docs/storage-api.md, "Media"): the list page with paging, filters and order,
// detail, delete, reorder, permissions and other companies.

#include "storage_support.h"

using namespace storage_test;

TEST_SUITE_BEGIN("storage");

namespace {

std::string ids_of(const Reply& r) {
  std::string out;
  for (auto& m : r.data().as_object().at("items").as_array()) out += str(m, "filename") + " ";
  return out;
}

// Five items in bucket `lib`: names, sizes, types and folders to filter and sort on, a second apart.
std::vector<std::string> seed(TestEdge& e) {
  REQUIRE(make_bucket(e, e.acme_token, "lib").status == 201);
  struct Item {
    std::string bytes, query;
  };
  std::vector<Item> items = {{png(2, 2, 300), "filename=Zebra.png"},
                             {pdf(10), "filename=alpha.pdf&folder=docs"},
                             {"notes\n", "filename=Beta-notes.txt&folder=docs"},
                             {png(3, 3, 50), "filename=beta.png"},
                             {std::string("\0\1\2", 3), "filename=gamma.bin"}};
  std::vector<std::string> ids;
  for (auto& it : items) {
    auto up = upload_raw(e, e.acme_token, "lib", it.bytes, it.query);
    REQUIRE(up.status == 201);
    ids.push_back(str(up.data(), "id"));
    e.clock.advance_ms(1000);
  }
  return ids;
}

}  // namespace

TEST_CASE("storage media: the list page, its paging, filters and order") {
  StorageEdge e(unthrottled());
  auto ids = seed(e);
  const std::string base = "/api/companies/acme/buckets/lib/media";
  auto all = e.get(base, e.acme_token);
  REQUIRE(all.status == 200);
  CHECK(all.header("X-Total-Count") == "5");
  const auto& page = all.data().as_object();
  CHECK(page.at("total") == 5);
  CHECK(page.at("limit") == 50);
  CHECK(page.at("skip") == 0);
  CHECK(page.at("sort") == "position");
  CHECK(page.at("dir") == "asc");
  CHECK(ids_of(all) == "Zebra.png alpha.pdf Beta-notes.txt beta.png gamma.bin ");

  auto paged = e.get(base + "?limit=2&skip=1", e.acme_token);
  CHECK(ids_of(paged) == "alpha.pdf Beta-notes.txt ");
  CHECK(paged.header("X-Total-Count") == "5");
  CHECK(num(paged.data(), "limit") == 2);
  CHECK(num(paged.data(), "skip") == 1);
  CHECK(ids_of(e.get(base + "?skip=10", e.acme_token)) == "");

  CHECK(ids_of(e.get(base + "?sort=filename", e.acme_token)) ==
        "alpha.pdf Beta-notes.txt beta.png gamma.bin Zebra.png ");
  CHECK(ids_of(e.get(base + "?sort=createdAt&dir=desc", e.acme_token)) ==
        "gamma.bin beta.png Beta-notes.txt alpha.pdf Zebra.png ");
  CHECK(ids_of(e.get(base + "?sort=size", e.acme_token)) ==
        "gamma.bin Beta-notes.txt alpha.pdf beta.png Zebra.png ");
  auto images = e.get(base + "?type=image", e.acme_token);
  CHECK(ids_of(images) == "Zebra.png beta.png ");
  CHECK(images.header("X-Total-Count") == "2");
  CHECK(ids_of(e.get(base + "?type=doc", e.acme_token)) == "alpha.pdf Beta-notes.txt ");
  CHECK(ids_of(e.get(base + "?type=other", e.acme_token)) == "gamma.bin ");
  CHECK(ids_of(e.get(base + "?folder=docs", e.acme_token)) == "alpha.pdf Beta-notes.txt ");
  CHECK(ids_of(e.get(base + "?folder=", e.acme_token)) == "Zebra.png beta.png gamma.bin ");
  CHECK(ids_of(e.get(base + "?q=BETA", e.acme_token)) == "Beta-notes.txt beta.png ");
  CHECK(ids_of(e.get(base + "?q=beta&type=image&sort=filename&dir=desc", e.acme_token)) == "beta.png ");

  CHECK(e.get(base + "?limit=0", e.acme_token).status == 400);
  CHECK(e.get(base + "?limit=201", e.acme_token).status == 400);
  CHECK(e.get(base + "?sort=name", e.acme_token).error() ==
        "query parameter 'sort' must be one of createdAt, filename, size, position");
  CHECK(e.get(base + "?dir=up", e.acme_token).error() == "query parameter 'dir' must be asc or desc");
  CHECK(e.get(base + "?type=images", e.acme_token).status == 400);
  CHECK(e.get("/api/companies/acme/buckets/none/media", e.acme_token).status == 404);
}

TEST_CASE("storage media: detail and delete, permissions and other companies") {
  StorageEdge e(unthrottled());
  auto ids = seed(e);
  const std::string one = "/api/companies/acme/buckets/lib/media/" + ids[1];
  auto d = e.get(one, e.acme_token);
  REQUIRE(d.status == 200);
  CHECK(str(d.data(), "filename") == "alpha.pdf");
  CHECK(e.get("/api/companies/acme/buckets/lib/media/med_AAAAAAAAAAAAAAAA", e.acme_token).error() ==
        "media not found");
  CHECK(e.get("/api/companies/acme/buckets/lib/media/junk", e.acme_token).status == 404);
  CHECK(e.get("/api/companies/globex/buckets/lib/media/" + ids[1], e.globex_token).status == 404);
  // The item exists, but in another bucket of the same company: 404 too.
  REQUIRE(make_bucket(e, e.acme_token, "other").status == 201);
  CHECK(e.get("/api/companies/acme/buckets/other/media/" + ids[1], e.acme_token).status == 404);

  const std::string viewer = e.token_with("acme", {"storage.view"});
  CHECK(e.get(one, viewer).status == 200);
  auto denied = e.del(one, viewer);
  CHECK(denied.status == 403);
  CHECK(denied.error() == "access token lacks permission 'media.delete'");
  const std::int64_t before = quota(e, e.acme_token).first;
  auto gone = e.del(one, e.token_with("acme", {"media.delete"}));
  REQUIRE(gone.status == 200);
  CHECK(gone.data().as_object().at("deleted") == true);
  CHECK(quota(e, e.acme_token).first == before - num(d.data(), "size"));
  CHECK(e.get(one, e.acme_token).status == 404);
  CHECK(e.del(one, e.acme_token).status == 404);
  CHECK(e.get("/api/companies/acme/buckets/lib/media", e.acme_token).header("X-Total-Count") == "4");
}

TEST_CASE("storage media: reorder moves the listed items among their positions") {
  StorageEdge e(unthrottled());
  auto ids = seed(e);
  const std::string base = "/api/companies/acme/buckets/lib/media";
  // gamma, Zebra, beta take the positions 0, 3, 4 they held, in that order.
  auto r = e.post(base + "/reorder",
                  R"({"ids":[")" + ids[4] + R"(",")" + ids[0] + R"(",")" + ids[3] + R"("]})", e.acme_token);
  REQUIRE(r.status == 200);
  REQUIRE(r.data().as_array().size() == 3);
  CHECK(num(r.data().as_array()[0], "position") == 0);
  CHECK(num(r.data().as_array()[1], "position") == 3);
  CHECK(num(r.data().as_array()[2], "position") == 4);
  CHECK(ids_of(e.get(base, e.acme_token)) == "gamma.bin alpha.pdf Beta-notes.txt Zebra.png beta.png ");
  CHECK(ids_of(e.get(base + "?sort=position&dir=desc", e.acme_token)) ==
        "beta.png Zebra.png Beta-notes.txt alpha.pdf gamma.bin ");
  // A new upload goes last.
  REQUIRE(upload_raw(e, e.acme_token, "lib", "new\n", "filename=new.txt").status == 201);
  CHECK(ids_of(e.get(base + "?limit=1&skip=5", e.acme_token)) == "new.txt ");

  CHECK(e.post(base + "/reorder", R"({"ids":[")" + ids[1] + R"(",")" + ids[1] + R"("]})", e.acme_token)
            .error() == "field 'ids' lists a media id more than once");
  CHECK(e.post(base + "/reorder", R"({"ids":[]})", e.acme_token).status == 400);
  CHECK(e.post(base + "/reorder", R"({"ids":"x"})", e.acme_token).status == 400);
  auto unknown =
      e.post(base + "/reorder", R"({"ids":[")" + ids[1] + R"(","med_AAAAAAAAAAAAAAAA"]})", e.acme_token);
  CHECK(unknown.status == 404);
  CHECK(unknown.error() == "media 'med_AAAAAAAAAAAAAAAA' not found in this bucket");
  CHECK(e.post(base + "/reorder", R"({"ids":[")" + ids[1] + R"("]})", e.token_with("acme", {"storage.view"}))
            .error() == "access token lacks permission 'media.reorder'");
  // Nothing changed by the refusals.
  CHECK(ids_of(e.get(base + "?limit=5", e.acme_token)) ==
        "gamma.bin alpha.pdf Beta-notes.txt Zebra.png beta.png ");
}

TEST_SUITE_END();
