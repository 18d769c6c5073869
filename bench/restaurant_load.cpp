// restaurant_load: durable order creations and payments per second under concurrent HTTP clients, and the
// time of a year's report over 10 branches (docs/performance.md, "Restaurant").
//
// One process: a real edge (EdgeServer, LMDB on disk in --data, the system clock) on a loopback port, and
// --clients threads, each with its own keep-alive connection, as the till devices. Every answered write is
// durable (the edge answers after the group commit's fsync), so the rates are of durable writes.
//
//   orders    each client POSTs /orders with a fresh clientOrderId (two lines) for --seconds
//   payments  each client pays, in one payment, the orders it created, for at most --seconds
//   report    seeds --expenses expenses and --income income rows of 2026 (10 branches) straight into the
//             store, then times GET /reports over the year (accrual and cash), the CSV export and the
//             overview
//
// Rate limits are lifted (the bench token would otherwise be throttled at 100 requests/s).

#include <CLI/CLI.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <random>
#include <thread>

#include <httplib.h>
#include <spdlog/spdlog.h>

#include "bench/load_phase.h"
#include "core/date.h"
#include "core/money.h"
#include "edge/app.h"
#include "edge/restaurant/expense_record.h"
#include "edge/server.h"
#include "native/os/system_clock.h"
#include "native/os/system_random.h"
#include "native/store/lmdb_store.h"

namespace {

namespace json = core::json;
using bench::Clock;
using bench::ms_since;
using bench::PhaseResult;
using bench::report_phase;
using bench::run_phase;

const std::string kBase = "/api/restaurant/companies/bench";

struct Setup {
  std::string token;
  std::string company_id;
  std::vector<std::string> branches;
  std::vector<std::string> products;
};

json::object post_ok(httplib::Client& c, const std::string& path, const std::string& body) {
  auto res = c.Post(path, body, "application/json");
  if (!res || (res->status != 200 && res->status != 201)) {
    std::cerr << "restaurant_load: POST " << path << " failed: " << (res ? res->body : "no answer") << "\n";
    std::exit(1);
  }
  return core::parse_json_object(res->body)->at("data").as_object();
}

Setup seed_company(edge::EdgeServer& server) {
  Setup s;
  auto& accounts = *server.app().accounts;
  auto company = accounts.create_company("bench", "Bench Restaurants");
  if (!company) {
    std::cerr << "restaurant_load: " << company.error().message << " (use an empty --data)\n";
    std::exit(1);
  }
  s.company_id = company->id;
  auto token = accounts.create_token(*company, "bench", {"restaurant.manage"}, nullptr);
  s.token = token->plaintext;
  httplib::Client c("127.0.0.1", server.port());
  c.set_bearer_token_auth(s.token);
  for (int b = 0; b < 10; ++b)
    s.branches.push_back(
        std::string(post_ok(c, kBase + "/branches", R"({"name":"Branch )" + std::to_string(b) + R"("})")
                        .at("id")
                        .as_string()));
  const std::pair<int, int> menu[] = {{8500, 1000}, {12000, 1000}, {4500, 2000}, {3000, 100}};
  for (std::size_t i = 0; i < std::size(menu); ++i)
    s.products.push_back(std::string(post_ok(c, kBase + "/products",
                                             R"({"name":"Dish )" + std::to_string(i) + R"(","priceMinor":)" +
                                                 std::to_string(menu[i].first) + R"(,"vatRateBps":)" +
                                                 std::to_string(menu[i].second) + "}")
                                         .at("id")
                                         .as_string()));
  return s;
}

// Seeds a year of expenses and income rows for the report phase, in the JSON and with the index keys the API
// writes, in batches of a few thousand records per durable write.
void seed_year(edge::App& app, const Setup& s, int expenses, int income_rows) {
  std::mt19937_64 rng(42);
  const core::CivilDate jan1{2026, 1, 1};
  const std::int64_t rates[] = {0, 100, 800, 1000, 2000};
  std::vector<std::pair<std::string, std::string>> batch;
  std::vector<json::object> expenses_batch;  // stored with their index keys, as POST /expenses does
  auto flush = [&] {
    auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
      for (auto& [k, v] : batch) txn.put(app.restaurant_table, k, v);
      for (auto& e : expenses_batch)
        edge::restaurant::put_expense(txn, app.restaurant_table, s.company_id, e);
      return {};
    });
    if (!st.ok()) {
      std::cerr << "restaurant_load: seeding failed: " << st.error().message << "\n";
      std::exit(1);
    }
    batch.clear();
    expenses_batch.clear();
  };
  const std::string base = "c/" + s.company_id + "/";
  for (int c = 0; c < 12; ++c)
    batch.emplace_back(base + "category/cat_" + std::to_string(c),
                       core::to_json(json::object{{"id", "cat_" + std::to_string(c)},
                                                  {"name", "Category " + std::to_string(c)}}));
  for (int v = 0; v < 200; ++v)
    batch.emplace_back(base + "vendor/ven_" + std::to_string(v),
                       core::to_json(json::object{{"id", "ven_" + std::to_string(v)},
                                                  {"name", "Vendor " + std::to_string(v)}}));
  for (int i = 0; i < expenses; ++i) {
    std::string id = "exp_bench" + std::to_string(i);
    auto day = core::add_days(jan1, static_cast<int>(rng() % 365));
    std::int64_t gross = 100 + static_cast<std::int64_t>(rng() % 500000);
    std::int64_t bps = rates[rng() % 5];
    bool deductible = rng() % 10 != 0;
    auto split = *core::split_vat(gross, bps);
    bool paid = rng() % 5 != 0;
    json::object e{
        {"id", id},
        {"branchId", s.branches[i % s.branches.size()]},
        {"categoryId", "cat_" + std::to_string(rng() % 12)},
        {"vendorId", "ven_" + std::to_string(rng() % 200)},
        {"grossMinor", gross},
        {"vatRateBps", bps},
        {"netMinor", split.netMinor},
        {"vatMinor", split.vatMinor},
        {"costMinor", deductible ? split.netMinor : gross},
        {"accrualDate", core::format_day_key(day)},
        {"dueDate", nullptr},
        {"paidAt", paid ? json::value(core::format_day_key(core::add_days(day, 3)) + "T09:00:00.000Z")
                        : json::value(nullptr)},
        {"paymentMethod", "bank"},
        {"isVatDeductible", deductible},
        {"receiptUrl", nullptr},
        {"createdAt", "2026-01-01T00:00:00.000Z"},
        {"updatedAt", "2026-01-01T00:00:00.000Z"}};
    expenses_batch.push_back(std::move(e));
    if (expenses_batch.size() >= 2000) flush();
  }
  for (int i = 0; i < income_rows; ++i) {
    // i = channel * 3650 + day * 10 + branch: one row per branch x day x channel.
    std::string branch = s.branches[i % 10];
    std::string day = core::format_day_key(core::add_days(jan1, (i / 10) % 365));
    std::string channel = "channel-" + std::to_string(i / 3650);
    std::int64_t gross = 50000 + static_cast<std::int64_t>(rng() % 1000000);
    std::int64_t commission = channel == "channel-0" ? 0 : gross / 8;
    json::object row{{"id", "inc_bench" + std::to_string(i)},
                     {"branchId", branch},
                     {"businessDate", day},
                     {"channel", channel},
                     {"grossMinor", gross},
                     {"commissionMinor", commission},
                     {"zReportMinor", nullptr},
                     {"netMinor", gross - commission},
                     {"zReportDiffMinor", nullptr},
                     {"createdAt", "2026-01-01T00:00:00.000Z"},
                     {"updatedAt", "2026-01-01T00:00:00.000Z"}};
    batch.emplace_back(base + "income/" + branch + "/" + day + "/" + channel, core::to_json(row));
    if (batch.size() >= 5000) flush();
  }
  flush();
}

void time_get(httplib::Client& c, const char* name, const std::string& path, int runs) {
  std::vector<double> times;
  std::size_t bytes = 0;
  for (int i = 0; i < runs; ++i) {
    auto start = Clock::now();
    auto res = c.Get(path);
    times.push_back(ms_since(start));
    if (!res || res->status != 200) {
      std::cerr << "restaurant_load: GET " << path << " failed: " << (res ? res->body : "no answer") << "\n";
      std::exit(1);
    }
    bytes = res->body.size();
  }
  std::sort(times.begin(), times.end());
  std::printf("%-20s runs %d  min %8.1f ms  median %8.1f ms  max %8.1f ms  (%zu bytes)\n", name, runs,
              times.front(), times[times.size() / 2], times.back(), bytes);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{
      "restaurant_load: durable order and payment rates under concurrent clients, and report time "
      "over a year of data (docs/performance.md)."};
  std::string data;
  int clients = 64;
  double seconds = 10;
  int server_threads = 128;
  int expenses = 100'000;
  int income_rows = 30'000;
  int runs = 5;
  std::string phases = "orders,payments,report";
  cli.add_option("--data", data,
                 "empty data directory on the disk to measure (default: a new one under ./build)");
  cli.add_option("--clients", clients, "concurrent HTTP clients (default 64)");
  cli.add_option("--seconds", seconds, "length of the orders and payments phases (default 10)");
  cli.add_option("--server-threads", server_threads, "edge worker threads (default 128)");
  cli.add_option("--expenses", expenses, "expenses seeded for the report phase (default 100000)");
  cli.add_option("--income", income_rows, "income rows seeded for the report phase (default 30000)");
  cli.add_option("--runs", runs, "timed runs of each report request (default 5)");
  cli.add_option("--phases", phases, "comma-separated: orders,payments,report");
  CLI11_PARSE(cli, argc, argv);

  edge::Config config = bench::load_config(data, "restaurant-load", server_threads);
  native::SystemClock clock;
  native::SystemRandom random;
  auto server = edge::EdgeServer::start(config, clock, random);
  if (!server) {
    std::cerr << "restaurant_load: " << server.error().message << "\n";
    return 1;
  }
  int port = (*server)->port();
  Setup s = seed_company(**server);

  std::vector<std::vector<std::pair<std::string, std::int64_t>>> created(static_cast<std::size_t>(clients));
  bench::CommitMeter commits((*server)->app());
  if (phases.find("orders") != std::string::npos) {
    auto r = run_phase(port, s.token, clients, seconds, [&](httplib::Client& c, int t, std::int64_t i) {
      std::string body = R"({"branchId":")" + s.branches[static_cast<std::size_t>(t) % s.branches.size()] +
                         R"(","clientOrderId":"c)" + std::to_string(t) + "-" + std::to_string(i) +
                         R"(","items":[{"productId":")" +
                         s.products[static_cast<std::size_t>(i) % s.products.size()] +
                         R"(","quantity":2},{"productId":")" + s.products[3] + R"(","quantity":1}]})";
      auto res = c.Post(kBase + "/orders", body, "application/json");
      if (!res || res->status != 201) return 0;
      auto order = core::parse_json_object(res->body)->at("data").as_object();
      created[static_cast<std::size_t>(t)].emplace_back(std::string(order.at("id").as_string()),
                                                        order.at("dueMinor").as_int64());
      return 1;
    });
    report_phase("orders", r, clients);
    commits.print();
  }
  if (phases.find("payments") != std::string::npos) {
    auto r = run_phase(port, s.token, clients, seconds, [&](httplib::Client& c, int t, std::int64_t i) {
      auto& mine = created[static_cast<std::size_t>(t)];
      if (static_cast<std::size_t>(i) >= mine.size()) return -1;
      auto& [id, due] = mine[static_cast<std::size_t>(i)];
      std::string body = R"({"paymentId":"p-)" + id + R"(","amountMinor":)" + std::to_string(due) +
                         R"(,"method":")" + (i % 3 ? "card" : "cash") + R"("})";
      auto res = c.Post(kBase + "/orders/" + id + "/payments", body, "application/json");
      return res && (res->status == 200 || res->status == 201) ? 1 : 0;
    });
    report_phase("payments", r, clients);
    commits.print();
  }
  if (phases.find("report") != std::string::npos) {
    auto start = Clock::now();
    seed_year((*server)->app(), s, expenses, income_rows);
    std::printf("seeded %d expenses and %d income rows in %.1f s\n", expenses, income_rows,
                ms_since(start) / 1000);
    httplib::Client c("127.0.0.1", port);
    c.set_keep_alive(true);
    c.set_tcp_nodelay(true);  // else Nagle + delayed ACK add 40 ms to every POST
    c.set_bearer_token_auth(s.token);
    c.set_read_timeout(120, 0);
    const std::string year = "from=2026-01-01&to=2026-12-31&topVendors=10&foodCategoryIds=cat_0,cat_1,cat_2";
    time_get(c, "report accrual", kBase + "/reports?" + year, runs);
    time_get(c, "report cash", kBase + "/reports?basis=cash&" + year, runs);
    time_get(c, "report 1 branch", kBase + "/reports?branchId=" + s.branches[0] + "&" + year, runs);
    time_get(c, "report 1 month", kBase + "/reports?from=2026-06-01&to=2026-06-30&topVendors=10", runs);
    time_get(c, "report 1 month cash",
             kBase + "/reports?basis=cash&from=2026-06-01&to=2026-06-30&topVendors=10", runs);
    time_get(c, "export csv", kBase + "/reports/export?" + year, runs);
    time_get(c, "overview", kBase + "/overview", runs);
  }
  (*server)->stop();
  return 0;
}
