// Restaurant expense CSV import: POST /expenses/import with a JSON body or a raw text/csv body; good rows
// imported, bad rows reported, unknown vendors created once, dryRun writing nothing.

#include <doctest/doctest.h>

#include "restaurant_support.h"
#include "test_edge.h"

using testing::TestEdge;
namespace json = core::json;
using namespace restaurant_test;

namespace {
const std::string kHeader =
    "accrualDate,category,vendor,grossMinor,vatRateBps,dueDate,paidAt,paymentMethod,isVatDeductible\n";

std::string json_request(const std::string& csv, const std::string& branch, bool dry_run) {
  return core::to_json(json::object{{"csv", csv}, {"branchId", branch}, {"dryRun", dry_run}});
}

struct Fixture {
  TestEdge edge;
  std::string branch = create(edge, "/branches", R"({"name":"Moda"})");
  std::string produce = create(edge, "/categories", R"({"name":"Produce"})");
  std::string metro = create(edge, "/vendors", R"({"name":"Metro"})");

  // Seven data rows (row 7 is a blank line): rows 1, 2 and 4 are good; 3 names an unknown category; 5 has
  // three bad cells; 6 lacks its accrualDate; 8 has too few fields.
  std::string mixed_csv() const {
    return kHeader +
           "2026-11-10,produce,Metro,11800,1800,2026-11-25,,,\n"
           "2026-11-11,Produce, New Farm ,5400,800,,2026-11-11T09:00:00Z,card,false\n"
           "2026-11-12,Drinks,Ghost,100,2000,,,,\n"
           "2026-11-12," +
           produce +
           ",NEW FARM,999,2000,,,,\n"
           "2026-11-13,Produce,Metro,12.50,0.2,,,,yes\n"
           ",Produce,,100,800,,,,\n"
           "\n"
           "2026-11-14,Produce,Fresh Co,100,800\n";
  }

  std::vector<std::string> vendor_names() {
    std::vector<std::string> out;
    auto list = edge.get(kBase + "/vendors", edge.acme_token);
    for (auto& v : list.data().as_array()) out.emplace_back(v.at("name").as_string());
    return out;
  }
  std::size_t expense_count() {
    return edge.get(kBase + "/expenses", edge.acme_token).data().as_array().size();
  }
};

// The {row, column, code} of each reported error.
std::vector<std::tuple<std::int64_t, std::string, std::string>> error_cells(const testing::Reply& r) {
  std::vector<std::tuple<std::int64_t, std::string, std::string>> out;
  for (auto& e : r.data().at("errors").as_array())
    out.emplace_back(e.at("row").as_int64(), e.at("column").as_string(), e.at("code").as_string());
  return out;
}

const std::vector<std::tuple<std::int64_t, std::string, std::string>> kMixedErrors{
    {3, "category", "category_not_found"}, {5, "grossMinor", "invalid_amount"},
    {5, "vatRateBps", "vat_rate_invalid"}, {5, "isVatDeductible", "invalid_field"},
    {6, "accrualDate", "missing_field"},   {8, "", "invalid_row"}};
}  // namespace

TEST_CASE("restaurant import: mixed good and bad rows") {
  Fixture f;
  auto r = f.edge.post(kBase + "/expenses/import", json_request(f.mixed_csv(), f.branch, false),
                       f.edge.acme_token);
  REQUIRE(r.status == 200);
  const auto& d = r.data();
  CHECK(d.at("ok") == 3);
  CHECK(d.at("failed") == 4);
  CHECK(d.at("total") == 7);
  CHECK(d.at("dryRun") == false);
  CHECK(error_cells(r) == kMixedErrors);
  CHECK(d.at("errors").as_array()[0] ==
        json::value(
            json::object{{"row", 3},
                         {"column", "category"},
                         {"code", "category_not_found"},
                         {"message", "category 'Drinks' is neither the name nor the id of a category"}}));
  const auto& created = d.at("created").as_array();
  REQUIRE(created.size() == 3);

  // One new vendor for rows 2 and 4 ("New Farm", "NEW FARM"); none for row 3's Ghost (a bad row).
  CHECK(f.vendor_names() == std::vector<std::string>{"Metro", "New Farm"});
  std::string new_farm;
  auto vendors = f.edge.get(kBase + "/vendors", f.edge.acme_token);
  for (auto& v : vendors.data().as_array())
    if (v.at("name") == "New Farm") new_farm = v.at("id").as_string();

  // Row 1: 11800 at 18 % -> vat 11800*1800/11800 = 1800, net 10000; category by name, any case.
  auto row1 = f.edge.get(kBase + "/expenses/" + std::string(created[0].as_string()), f.edge.acme_token);
  REQUIRE(row1.status == 200);
  json::object expected{{"id", created[0]},
                        {"branchId", f.branch},
                        {"categoryId", f.produce},
                        {"vendorId", f.metro},
                        {"grossMinor", 11800},
                        {"vatRateBps", 1800},
                        {"netMinor", 10000},
                        {"vatMinor", 1800},
                        {"costMinor", 10000},
                        {"accrualDate", "2026-11-10"},
                        {"dueDate", "2026-11-25"},
                        {"paidAt", nullptr},
                        {"paymentMethod", "cash"},
                        {"isVatDeductible", true},
                        {"receiptUrl", nullptr},
                        {"createdAt", "2026-11-18T11:06:40.000Z"},
                        {"updatedAt", "2026-11-18T11:06:40.000Z"}};
  CHECK(row1.data() == json::value(expected));
  // Row 2: 5400 at 8 % -> vat 5400*800/10800 = 400, net 5000; not deductible, so the cost is 5400.
  auto row2 =
      f.edge.get(kBase + "/expenses/" + std::string(created[1].as_string()), f.edge.acme_token).data();
  CHECK(row2.at("vendorId").as_string() == new_farm);
  CHECK(row2.at("vatMinor") == 400);
  CHECK(row2.at("netMinor") == 5000);
  CHECK(row2.at("costMinor") == 5400);
  CHECK(row2.at("paidAt") == "2026-11-11T09:00:00.000Z");
  CHECK(row2.at("paymentMethod") == "card");
  // Row 4: category by id, vendor by name in another case.
  auto row4 =
      f.edge.get(kBase + "/expenses/" + std::string(created[2].as_string()), f.edge.acme_token).data();
  CHECK(row4.at("categoryId").as_string() == f.produce);
  CHECK(row4.at("vendorId").as_string() == new_farm);
  CHECK(row4.at("vatMinor") == 167);  // 999*2000/12000 = 166.5 -> 167

  // Row 1 has a due date and no payment: a payable (25 November is thisMonth on Wednesday 18 November).
  auto upcoming = f.edge.get(kBase + "/payables/upcoming?branchId=" + f.branch, f.edge.acme_token);
  REQUIRE(upcoming.status == 200);
  const auto& this_month = upcoming.data().at("groups").as_array()[2];
  CHECK(this_month.at("key") == "thisMonth");
  REQUIRE(this_month.at("items").as_array().size() == 1);
  CHECK(this_month.at("items").as_array()[0].at("id") == created[0]);

  // Importing again reuses New Farm (now an existing vendor) and creates nothing else.
  auto again = f.edge.post(kBase + "/expenses/import",
                           json_request(kHeader + "2026-11-15,Produce,new farm,1,0,,,,\n", f.branch, false),
                           f.edge.acme_token);
  REQUIRE(again.status == 200);
  CHECK(again.data().at("ok") == 1);
  CHECK(f.vendor_names() == std::vector<std::string>{"Metro", "New Farm"});
  // A vendor cell may be an id.
  auto by_id =
      f.edge.post(kBase + "/expenses/import",
                  json_request(kHeader + "2026-11-15,Produce," + f.metro + ",1,0,,,,\n", f.branch, false),
                  f.edge.acme_token);
  REQUIRE(by_id.data().at("created").as_array().size() == 1);
  CHECK(f.edge
            .get(kBase + "/expenses/" + std::string(by_id.data().at("created").as_array()[0].as_string()),
                 f.edge.acme_token)
            .data()
            .at("vendorId")
            .as_string() == f.metro);
  CHECK(f.expense_count() == 5);
}

TEST_CASE("restaurant import: dryRun reports the same and writes nothing") {
  Fixture f;
  auto dry =
      f.edge.post(kBase + "/expenses/import", json_request(f.mixed_csv(), f.branch, true), f.edge.acme_token);
  REQUIRE(dry.status == 200);
  CHECK(dry.data().at("ok") == 3);
  CHECK(dry.data().at("failed") == 4);
  CHECK(dry.data().at("total") == 7);
  CHECK(dry.data().at("dryRun") == true);
  CHECK(error_cells(dry) == kMixedErrors);
  CHECK(dry.data().at("created").as_array().empty());
  CHECK(f.expense_count() == 0);
  CHECK(f.vendor_names() == std::vector<std::string>{"Metro"});
  auto upcoming = f.edge.get(kBase + "/payables/upcoming", f.edge.acme_token);
  for (auto& g : upcoming.data().at("groups").as_array()) CHECK(g.at("items").as_array().empty());

  // The real run answers the same numbers and errors.
  auto real = f.edge.post(kBase + "/expenses/import", json_request(f.mixed_csv(), f.branch, false),
                          f.edge.acme_token);
  CHECK(real.data().at("ok") == 3);
  CHECK(real.data().at("failed") == 4);
  CHECK(real.data().at("errors") == dry.data().at("errors"));
  CHECK(f.expense_count() == 3);
}

TEST_CASE("restaurant import: raw text/csv body with the query") {
  Fixture f;
  const std::string csv =
      kHeader + "2026-11-10,Produce,Metro,100,800,,,,\n2026-11-11,Produce,Fresh Co,200,800,,,,\n";
  for (const char* dry : {"1", "true"}) {
    auto r = f.edge.post(kBase + "/expenses/import?branchId=" + f.branch + "&dryRun=" + dry, csv,
                         f.edge.acme_token, "text/csv");
    REQUIRE(r.status == 200);
    CHECK(r.data().at("dryRun") == true);
    CHECK(r.data().at("ok") == 2);
    CHECK(r.data().at("total") == 2);
  }
  CHECK(f.expense_count() == 0);
  CHECK(f.vendor_names() == std::vector<std::string>{"Metro"});

  auto r = f.edge.post(kBase + "/expenses/import?branchId=" + f.branch, csv, f.edge.acme_token,
                       "text/csv; charset=utf-8");
  REQUIRE(r.status == 200);
  CHECK(r.data().at("dryRun") == false);
  CHECK(r.data().at("ok") == 2);
  CHECK(r.data().at("failed") == 0);
  CHECK(r.data().at("errors").as_array().empty());
  CHECK(f.expense_count() == 2);
  CHECK(f.vendor_names() == std::vector<std::string>{"Fresh Co", "Metro"});

  auto bad_dry = f.edge.post(kBase + "/expenses/import?branchId=" + f.branch + "&dryRun=maybe", csv,
                             f.edge.acme_token, "text/csv");
  CHECK(bad_dry.status == 422);
  CHECK(bad_dry.error() == "invalid_field");
  auto no_branch = f.edge.post(kBase + "/expenses/import", csv, f.edge.acme_token, "text/csv");
  CHECK(no_branch.status == 422);
  CHECK(no_branch.error() == "missing_field");
}

TEST_CASE("restaurant import: whole-file errors, limits and branch access") {
  Fixture f;
  auto check = [&](const std::string& body, int status, const std::string& code,
                   const std::string& token = "") {
    auto r = f.edge.post(kBase + "/expenses/import", body, token.empty() ? f.edge.acme_token : token);
    CHECK_MESSAGE(r.status == status, body.substr(0, 200));
    CHECK_MESSAGE(r.error() == code, body.substr(0, 200));
  };
  check(json_request("date,category\n2026-11-10,Produce\n", f.branch, false), 422, "invalid_csv_header");
  check(json_request("", f.branch, false), 422, "invalid_csv_header");
  check(json_request(kHeader + "2026-11-10,\"Produce,Metro,1,0,,,,\n", f.branch, false), 422, "invalid_csv");
  check(json_request(kHeader, "br_nope", false), 404, "branch_not_found");
  check(R"({"branchId":")" + f.branch + R"("})", 422, "missing_field");
  check(R"({"csv":"x"})", 422, "missing_field");
  check(R"({"csv":"x","branchId":")" + f.branch + R"(","dryRun":"yes"})", 422, "invalid_field");

  std::string other = create(f.edge, "/branches", R"({"name":"Other"})");
  std::string scoped = f.edge.token_with("acme", {"restaurant.branch:" + f.branch});
  check(json_request(kHeader, other, false), 403, "forbidden_branch", scoped);
  check(json_request(kHeader, "br_nope", false), 403, "forbidden_branch", scoped);
  auto mine = f.edge.post(kBase + "/expenses/import",
                          json_request(kHeader + "2026-11-10,Produce,,1,0,,,,\n", f.branch, false), scoped);
  CHECK(mine.status == 200);
  CHECK(mine.data().at("ok") == 1);

  // An empty file body with only the header imports nothing.
  auto header_only =
      f.edge.post(kBase + "/expenses/import", json_request(kHeader, f.branch, false), f.edge.acme_token);
  REQUIRE(header_only.status == 200);
  CHECK(header_only.data().at("total") == 0);
  CHECK(header_only.data().at("ok") == 0);

  // At most 10,000 rows.
  std::string big = kHeader;
  for (int i = 0; i < 10'001; ++i) big += "2026-11-10,Produce,,1,0,,,,\n";
  auto too_many =
      f.edge.post(kBase + "/expenses/import?branchId=" + f.branch, big, f.edge.acme_token, "text/csv");
  CHECK(too_many.status == 422);
  CHECK(too_many.error() == "too_many_rows");
  CHECK(f.expense_count() == 1);

  // 10,000 rows of 160 bytes (1.6 MB, over the 1 MiB of other bodies) are taken; a body over 4 MiB is not.
  std::string long_vendor(120, 'v');
  std::string full = kHeader;
  for (int i = 0; i < 10'000; ++i) full += "2026-11-10,Produce," + long_vendor + ",1,0,,,,\n";
  REQUIRE(full.size() > (1u << 20));
  auto dry = f.edge.post(kBase + "/expenses/import?dryRun=1&branchId=" + f.branch, full, f.edge.acme_token,
                         "text/csv");
  REQUIRE(dry.status == 200);
  CHECK(dry.data().at("ok") == 10'000);
  std::string huge = kHeader + std::string(4u << 20, ' ');
  auto refused =
      f.edge.post(kBase + "/expenses/import?branchId=" + f.branch, huge, f.edge.acme_token, "text/csv");
  CHECK(refused.status == 413);
  CHECK(refused.error() == "payload_too_large");
  CHECK(f.expense_count() == 1);
}
