// Storage: buckets over HTTP (docs/storage-api.md, "Buckets"): create, list, detail, rename and visibility,
// duplicate slugs, other companies, permissions, the three path forms, and the cascading force delete (media
// records, their bytes off the quota, blobs and CDN variant folders).

#include <filesystem>
#include <fstream>

#include "edge/storage/variant_folder.h"
#include "storage_support.h"

using namespace storage_test;
namespace fs = std::filesystem;

TEST_SUITE_BEGIN("storage");

TEST_CASE("storage buckets: create, list, detail, rename and visibility") {
  StorageEdge e(unthrottled());
  auto made = e.post("/api/companies/acme/buckets",
                     R"({"slug":"photos","name":"Photos","visibility":"public"})", e.acme_token);
  REQUIRE(made.status == 201);
  const auto& b = made.data();
  CHECK(str(b, "id").rfind("bkt_", 0) == 0);
  CHECK(str(b, "slug") == "photos");
  CHECK(str(b, "name") == "Photos");
  CHECK(str(b, "visibility") == "public");
  CHECK(str(b, "createdAt") == "2026-11-18T11:06:40.000Z");
  CHECK(made.body == core::to_json(json::object{{"data", b}, {"error", nullptr}}));

  // Defaults: name = slug, visibility private.
  auto plain = e.post("/api/companies/acme/buckets", R"({"slug":"docs"})", e.acme_token);
  REQUIRE(plain.status == 201);
  CHECK(str(plain.data(), "name") == "docs");
  CHECK(str(plain.data(), "visibility") == "private");

  auto list = e.get("/api/companies/acme/buckets", e.acme_token);
  REQUIRE(list.status == 200);
  CHECK(list.header("X-Total-Count") == "2");
  REQUIRE(list.data().as_array().size() == 2);
  CHECK(str(list.data().as_array()[0], "slug") == "docs");
  CHECK(str(list.data().as_array()[1], "slug") == "photos");

  auto detail = e.get("/api/companies/acme/buckets/photos", e.acme_token);
  CHECK(detail.status == 200);
  CHECK(detail.data() == b);

  e.clock.advance_ms(1000);
  auto renamed = e.patch("/api/companies/acme/buckets/photos",
                         R"({"name":"Pictures","visibility":"private"})", e.acme_token);
  REQUIRE(renamed.status == 200);
  CHECK(str(renamed.data(), "name") == "Pictures");
  CHECK(str(renamed.data(), "visibility") == "private");
  CHECK(str(renamed.data(), "updatedAt") == "2026-11-18T11:06:41.000Z");
  CHECK(str(renamed.data(), "slug") == "photos");

  // A new slug moves the bucket; the old slug is free again.
  auto moved = e.patch("/api/companies/acme/buckets/photos", R"({"slug":"pictures"})", e.acme_token);
  REQUIRE(moved.status == 200);
  CHECK(str(moved.data(), "slug") == "pictures");
  CHECK(str(moved.data(), "id") == str(b, "id"));
  CHECK(e.get("/api/companies/acme/buckets/photos", e.acme_token).status == 404);
  CHECK(e.get("/api/companies/acme/buckets/pictures", e.acme_token).status == 200);
}

TEST_CASE("storage buckets: bad bodies, duplicate slugs and other companies") {
  StorageEdge e(unthrottled());
  REQUIRE(make_bucket(e, e.acme_token, "photos").status == 201);
  auto dup = make_bucket(e, e.acme_token, "photos", "public");
  CHECK(dup.status == 409);
  CHECK(dup.body == R"({"data":null,"error":"a bucket with slug 'photos' already exists in this company"})");
  // The same slug in another company is fine, and each sees only its own.
  CHECK(make_bucket(e, e.globex_token, "photos", "private", "globex").status == 201);
  CHECK(e.get("/api/companies/globex/buckets", e.globex_token).header("X-Total-Count") == "1");
  REQUIRE(make_bucket(e, e.acme_token, "only-acme").status == 201);
  auto foreign = e.get("/api/companies/globex/buckets/only-acme", e.globex_token);
  CHECK(foreign.status == 404);
  CHECK(foreign.error() == "bucket not found");
  CHECK(e.del("/api/companies/globex/buckets/only-acme", e.globex_token).status == 404);
  CHECK(e.patch("/api/companies/globex/buckets/only-acme", R"({"name":"x"})", e.globex_token).status == 404);
  // Acme's token on globex's path: 404, never which.
  CHECK(e.get("/api/companies/globex/buckets", e.acme_token).status == 404);

  auto bad_slug = e.post("/api/companies/acme/buckets", R"({"slug":"Bad Slug"})", e.acme_token);
  CHECK(bad_slug.status == 400);
  CHECK(bad_slug.error() ==
        "field 'slug' must be 2 to 63 characters of a-z, 0-9 and '-', not starting or ending with '-' and "
        "without '--'");
  CHECK(e.post("/api/companies/acme/buckets", R"({"name":"x"})", e.acme_token).error() ==
        "field 'slug' is required");
  auto bad_vis = e.post("/api/companies/acme/buckets", R"({"slug":"ok","visibility":"open"})", e.acme_token);
  CHECK(bad_vis.status == 400);
  CHECK(bad_vis.error() == "field 'visibility' must be \"public\" or \"private\"");
  CHECK(e.post("/api/companies/acme/buckets", R"({"slug":"ok","name":""})", e.acme_token).status == 400);
  CHECK(e.post("/api/companies/acme/buckets", "{", e.acme_token).status == 400);
  CHECK(e.patch("/api/companies/acme/buckets/photos", R"({"visibility":1})", e.acme_token).status == 400);
  auto dup_rename = e.patch("/api/companies/acme/buckets/only-acme", R"({"slug":"photos"})", e.acme_token);
  CHECK(dup_rename.status == 409);
  CHECK(e.get("/api/companies/acme/buckets", e.acme_token).header("X-Total-Count") == "2");
}

TEST_CASE("storage buckets: permissions and the three path forms") {
  StorageEdge e(unthrottled());
  const std::string viewer = e.token_with("acme", {"storage.view"});
  const std::string creator = e.token_with("acme", {"buckets.create"});
  auto denied = make_bucket(e, viewer, "photos");
  CHECK(denied.status == 403);
  CHECK(denied.body == R"({"data":null,"error":"access token lacks permission 'buckets.create'"})");
  REQUIRE(make_bucket(e, creator, "photos").status == 201);
  CHECK(e.get("/api/companies/acme/buckets", creator).status == 403);
  CHECK(e.get("/api/companies/acme/buckets", viewer).status == 200);
  CHECK(e.patch("/api/companies/acme/buckets/photos", R"({"name":"x"})", viewer).error() ==
        "access token lacks permission 'buckets.edit'");
  CHECK(e.del("/api/companies/acme/buckets/photos", viewer).error() ==
        "access token lacks permission 'buckets.delete'");
  CHECK(e.get("/api/companies/acme/buckets").status == 401);

  // The storage product's forms: naming the company, and acting on the token's company.
  CHECK(e.get("/api/storage/companies/acme/buckets/photos", viewer).status == 200);
  auto own = e.get("/api/storage/buckets/photos", viewer);
  CHECK(own.status == 200);
  CHECK(str(own.data(), "slug") == "photos");
  CHECK(e.get("/api/storage/buckets/photos", e.globex_token).status == 404);
  CHECK(e.post("/api/storage/buckets", R"({"slug":"via-product"})", e.acme_token).status == 201);
  CHECK(e.get("/api/storage/companies/globex/buckets", e.acme_token).status == 404);
}

TEST_CASE("storage buckets: delete cascades to media, blobs, variants and the quota") {
  StorageEdge e(unthrottled());
  REQUIRE(make_bucket(e, e.acme_token, "photos", "public").status == 201);
  REQUIRE(make_bucket(e, e.acme_token, "keep").status == 201);
  std::vector<std::string> ids;
  std::int64_t photo_bytes = 0;
  for (int i = 0; i < 3; ++i) {
    const std::string bytes = png(10, 10, 100 + i);
    auto up = upload_raw(e, e.acme_token, "photos", bytes, "filename=p" + std::to_string(i) + ".png");
    REQUIRE(up.status == 201);
    CHECK(num(up.data(), "size") == static_cast<std::int64_t>(bytes.size()));
    photo_bytes += num(up.data(), "size");
    ids.push_back(str(up.data(), "id"));
  }
  auto kept = upload_raw(e, e.acme_token, "keep", pdf(50), "filename=k.pdf");
  REQUIRE(kept.status == 201);
  const std::int64_t kept_size = num(kept.data(), "size");
  auto& config = e.server->app().config;
  // A CDN variant folder per item, as edge/cdn/ makes them.
  for (auto& id : ids) {
    fs::create_directories(edge::storage::variant_folder(config, id));
    std::ofstream(edge::storage::variant_folder(config, id) + "/w320.webp") << "variant";
  }
  auto before = quota(e, e.acme_token);
  CHECK(before.first == photo_bytes + kept_size);
  std::size_t blobs = 0;
  for (auto& p : fs::recursive_directory_iterator(config.storage.blob_dir)) blobs += p.is_regular_file();
  CHECK(blobs == 4);

  auto gone = e.del("/api/companies/acme/buckets/photos", e.acme_token);
  REQUIRE(gone.status == 200);
  CHECK(gone.data().as_object().at("deleted") == true);
  CHECK(num(gone.data(), "deletedMedia") == 3);
  CHECK(num(gone.data(), "freedBytes") == photo_bytes);
  CHECK(e.get("/api/companies/acme/buckets/photos", e.acme_token).status == 404);
  CHECK(quota(e, e.acme_token).first == kept_size);
  blobs = 0;
  for (auto& p : fs::recursive_directory_iterator(config.storage.blob_dir)) blobs += p.is_regular_file();
  CHECK(blobs == 1);
  for (auto& id : ids) CHECK_FALSE(fs::exists(edge::storage::variant_folder(config, id)));
  // The slug is free again, and the new bucket starts empty.
  REQUIRE(make_bucket(e, e.acme_token, "photos").status == 201);
  auto list = e.get("/api/companies/acme/buckets/photos/media", e.acme_token);
  CHECK(num(list.data(), "total") == 0);
  auto usage = e.get("/api/companies/acme/usage", e.acme_token);
  REQUIRE(usage.status == 200);
  const auto& rows = usage.data().as_object().at("buckets").as_array();
  REQUIRE(rows.size() == 2);
  CHECK(str(rows[0], "bucket") == "keep");
  CHECK(num(rows[0], "bytes") == kept_size);
  CHECK(num(rows[0], "count") == 1);
  CHECK(str(rows[1], "bucket") == "photos");
  CHECK(num(rows[1], "bytes") == 0);
  CHECK(num(rows[1], "count") == 0);
}

TEST_SUITE_END();
