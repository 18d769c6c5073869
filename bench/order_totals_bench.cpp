// order_totals_bench: order totals per second natively, the figure bench/order_totals_wasm.mjs measures in
// wasm (docs/performance.md, "Order totals: wasm against native"). Google Benchmark; nothing here asserts
// speed. Build Release.
//
// The order is a realistic table: 8 lines at the two common Turkish VAT rates (10 % and 20 %), quantities
// 1..3, and 2 payments (card, then cash) covering part of it. The same order, member for member, is in
// order_totals_wasm.mjs; both report its gross (248300) and due (48300), so a run shows they computed the
// same thing.

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "core/restaurant/order.h"

namespace {

namespace rest = core::restaurant;

std::vector<rest::OrderLine> table_order() {
  return {
      {"ln_1", "prd_adana", "Adana kebap", 32000, 2, 1000},
      {"ln_2", "prd_lahmacun", "Lahmacun", 9500, 3, 1000},
      {"ln_3", "prd_ayran", "Ayran", 4500, 3, 1000},
      {"ln_4", "prd_salad", "Çoban salata", 12000, 1, 1000},
      {"ln_5", "prd_baklava", "Fıstıklı baklava", 18500, 1, 1000},
      {"ln_6", "prd_cola", "Cola 33 cl", 6000, 2, 2000},
      {"ln_7", "prd_raki", "Rakı 35 cl", 95000, 1, 2000},
      {"ln_8", "prd_tea", "Çay", 1200, 4, 1000},
  };
}

std::vector<rest::Payment> two_payments() {
  return {{"pay_1", 150000, "card"}, {"pay_2", 50000, "cash"}};
}

// Per-line VAT splits and their sums: what the till shows while the order is built.
void BM_OrderTotals(benchmark::State& state) {
  const auto lines = table_order();
  for (auto _ : state) {
    auto totals = rest::order_totals(lines);
    benchmark::DoNotOptimize(totals);
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["grossMinor"] = static_cast<double>(rest::order_totals(lines)->grossMinor);
}
BENCHMARK(BM_OrderTotals);

// Totals plus the paid sum and what is due (order_balance computes order_totals first): the till's figure
// after every payment.
void BM_OrderBalance(benchmark::State& state) {
  const auto lines = table_order();
  const auto payments = two_payments();
  for (auto _ : state) {
    auto balance = rest::order_balance(lines, payments);
    benchmark::DoNotOptimize(balance);
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["dueMinor"] = static_cast<double>(rest::order_balance(lines, payments)->dueMinor);
}
BENCHMARK(BM_OrderBalance);

}  // namespace

BENCHMARK_MAIN();
