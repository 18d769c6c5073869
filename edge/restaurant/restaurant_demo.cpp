#include "edge/restaurant/restaurant_demo.h"

#include "core/date.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/platform/route_client.h"
#include "edge/restaurant/restaurant_common.h"
#include "edge/restaurant/restaurant_store.h"

namespace edge::restaurant {
namespace {

// The restaurant API wraps its answers in {data}.
struct DemoClient {
  App& app;
  std::string base;
  std::string token;

  core::Result<json::object> call(const std::string& method, const std::string& path,
                                  const json::object& body) {
    auto r = call_route(app, method, base + path, body, token);
    if (!r) return r.error();
    if (!r->contains("data") || !r->at("data").is_object())
      return core::make_error("internal", "demo data: " + method + " " + path + " answered no data");
    return r->at("data").as_object();
  }

  core::Result<std::string> create(const std::string& path, const json::object& body) {
    auto r = call("POST", path, body);
    if (!r) return r.error();
    return record::str(*r, "id");
  }
};

std::string day(const core::CivilDate& today, int offset) {
  return core::format_day_key(core::add_days(today, offset));
}

}  // namespace

core::Status seed_restaurant_demo(App& app, const std::string& slug, const std::string& access_token) {
  DemoClient c{app, "/api/restaurant/companies/" + slug, access_token};
#define DEMO_TRY(var, expr) \
  auto var = (expr);        \
  if (!var) return var.error();

  DEMO_TRY(moda, c.create("/branches",
                          {{"name", "Moda"}, {"address", "Moda Cd. 12, Kadikoy, Istanbul"}, {"order", 1}}));
  DEMO_TRY(cihangir, c.create("/branches", {{"name", "Cihangir"},
                                            {"address", "Akarsu Yokusu 5, Beyoglu, Istanbul"},
                                            {"order", 2},
                                            {"dayCutoffHour", 3}}));
  for (const auto& [branch, names] :
       {std::pair{*moda, std::vector<std::string>{"T1", "T2", "T3", "Garden 1"}},
        std::pair{*cihangir, std::vector<std::string>{"Bar 1", "Bar 2", "T1"}}})
    for (const auto& name : names) {
      DEMO_TRY(table, c.create("/tables", {{"branchId", branch}, {"name", name}}));
    }

  DEMO_TRY(food, c.create("/categories", {{"name", "Food supplies"}}));
  DEMO_TRY(drinks, c.create("/categories", {{"name", "Beverages"}}));
  DEMO_TRY(rent, c.create("/categories", {{"name", "Rent"}}));
  DEMO_TRY(utilities, c.create("/categories", {{"name", "Utilities"}}));
  DEMO_TRY(market, c.create("/vendors", {{"name", "Kadikoy Produce Market"}}));
  DEMO_TRY(fish, c.create("/vendors", {{"name", "Bosphorus Fish Co."}}));
  DEMO_TRY(landlord, c.create("/vendors", {{"name", "Moda Properties"}}));
  DEMO_TRY(power, c.create("/vendors", {{"name", "City Power"}}));

  DEMO_TRY(sides,
           c.create("/option-groups",
                    {{"name", "Side"},
                     {"minSelect", 0},
                     {"maxSelect", 1},
                     {"options", json::array{json::object{{"name", "Fries"}, {"priceDeltaMinor", 4000}},
                                             json::object{{"name", "Salad"}, {"priceDeltaMinor", 3500}}}}}));
  DEMO_TRY(burger, c.create("/products", {{"name", "Bistro burger"},
                                          {"priceMinor", 32000},
                                          {"vatRateBps", 1000},
                                          {"optionGroupIds", json::array{json::value(*sides)}}}));
  DEMO_TRY(fish_plate, c.create("/products",
                                {{"name", "Grilled sea bass"}, {"priceMinor", 48000}, {"vatRateBps", 1000}}));
  DEMO_TRY(lemonade,
           c.create("/products", {{"name", "Lemonade"}, {"priceMinor", 9000}, {"vatRateBps", 1000}}));
  DEMO_TRY(raki,
           c.create("/products", {{"name", "Raki (glass)"}, {"priceMinor", 22000}, {"vatRateBps", 2000}}));

  for (const auto& id : {*moda, *cihangir}) {
    DEMO_TRY(b, c.call("GET", "/branches/" + id, {}));
    DEMO_TRY(today, current_business_date(app, *b));
    // A week of takings: dine-in with a Z report, and a delivery platform with its commission.
    for (int d = -7; d <= -1; ++d) {
      std::int64_t gross = 1'850'000 + 97'000 * ((d + 11) % 5) + (id == *moda ? 400'000 : 0);
      DEMO_TRY(dine, c.call("POST", "/income",
                            {{"branchId", id},
                             {"businessDate", day(*today, d)},
                             {"channel", "dine-in"},
                             {"grossMinor", gross},
                             {"zReportMinor", gross - (d == -3 ? 2500 : 0)}}));
      DEMO_TRY(delivery, c.call("POST", "/income",
                                {{"branchId", id},
                                 {"businessDate", day(*today, d)},
                                 {"channel", "delivery-platform"},
                                 {"grossMinor", gross / 4},
                                 {"commissionMinor", gross / 4 / 5}}));
    }
    // Expenses: paid supplies, a rent bill due later this month, an overdue power bill, one due this week.
    DEMO_TRY(e1,
             c.create("/expenses", {{"branchId", id},
                                    {"categoryId", *food},
                                    {"vendorId", *market},
                                    {"grossMinor", 684'000},
                                    {"vatRateBps", 100},
                                    {"accrualDate", day(*today, -6)},
                                    {"paidAt", core::format_timestamp(app.clock.now_ms() - 6 * 86'400'000LL)},
                                    {"paymentMethod", "card"}}));
    DEMO_TRY(e2, c.create("/expenses", {{"branchId", id},
                                        {"categoryId", *food},
                                        {"vendorId", *fish},
                                        {"grossMinor", 1'236'000},
                                        {"vatRateBps", 100},
                                        {"accrualDate", day(*today, -2)},
                                        {"dueDate", day(*today, 2)}}));
    DEMO_TRY(e3, c.create("/expenses", {{"branchId", id},
                                        {"categoryId", *utilities},
                                        {"vendorId", *power},
                                        {"grossMinor", 412'500},
                                        {"vatRateBps", 2000},
                                        {"accrualDate", day(*today, -20)},
                                        {"dueDate", day(*today, -3)}}));
    DEMO_TRY(e4, c.create("/expenses", {{"branchId", id},
                                        {"categoryId", *rent},
                                        {"vendorId", *landlord},
                                        {"grossMinor", 9'000'000},
                                        {"vatRateBps", 2000},
                                        {"accrualDate", day(*today, 0)},
                                        {"dueDate", day(*today, 25)},
                                        {"isVatDeductible", true}}));
    DEMO_TRY(e5,
             c.create("/expenses", {{"branchId", id},
                                    {"categoryId", *drinks},
                                    {"vendorId", nullptr},
                                    {"grossMinor", 96'000},
                                    {"vatRateBps", 2000},
                                    {"accrualDate", day(*today, -1)},
                                    {"paidAt", core::format_timestamp(app.clock.now_ms() - 86'400'000LL)}}));
  }

  // Today at Moda: an open tab at T1 and a paid, closed takeaway order.
  DEMO_TRY(
      tab,
      c.call("POST", "/orders",
             {{"branchId", *moda},
              {"clientOrderId", "demo-tab-1"},
              {"items",
               json::array{json::object{{"productId", *burger}, {"quantity", 2}, {"options", json::array{}}},
                           json::object{{"productId", *lemonade}, {"quantity", 2}}}}}));
  DEMO_TRY(paid, c.call("POST", "/orders",
                        {{"branchId", *moda},
                         {"clientOrderId", "demo-takeaway-1"},
                         {"items", json::array{json::object{{"productId", *fish_plate}, {"quantity", 1}},
                                               json::object{{"productId", *raki}, {"quantity", 1}}}}}));
  std::string paid_id = record::str(*paid, "id");
  DEMO_TRY(payment, c.call("POST", "/orders/" + paid_id + "/payments",
                           {{"paymentId", "demo-pay-1"},
                            {"amountMinor", record::num(*paid, "dueMinor")},
                            {"method", "card"}}));
  DEMO_TRY(closed, c.call("POST", "/orders/" + paid_id + "/close", {}));
  DEMO_TRY(shift, c.call("POST", "/shifts", {{"branchId", *moda}, {"openingFloatMinor", 150'000}}));
#undef DEMO_TRY
  return {};
}

}  // namespace edge::restaurant
