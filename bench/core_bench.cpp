// core_bench: Google Benchmark over the portable core's hot functions. Nothing here asserts speed; the
// figures are read by people (docs/performance.md). Build Release.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/bytes.h"
#include "core/crypto.h"
#include "core/date.h"
#include "core/json.h"
#include "core/money.h"
#include "core/permission.h"
#include "core/random.h"
#include "core/token.h"

namespace {

// A fast deterministic RandomSource (splitmix64), so make_token measures the token code, not getrandom(2).
class SplitMix final : public core::RandomSource {
 public:
  void fill(std::span<std::uint8_t> out) override {
    std::size_t i = 0;
    while (i < out.size()) {
      std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      z ^= z >> 31;
      for (int b = 0; b < 8 && i < out.size(); ++b, ++i) out[i] = static_cast<std::uint8_t>(z >> (8 * b));
    }
  }

 private:
  std::uint64_t state_ = 42;
};

std::string bytes_of(std::size_t n) {
  std::string s(n, '\0');
  for (std::size_t i = 0; i < n; ++i) s[i] = static_cast<char>((i * 131 + 7) & 0xff);
  return s;
}

void BM_SplitVat(benchmark::State& state) {
  std::int64_t gross = 123456;
  for (auto _ : state) {
    auto r = core::split_vat(gross, 2000);
    benchmark::DoNotOptimize(r);
    gross = (gross + 1) & 0xfffff;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_SplitVat);

void BM_BusinessDate(benchmark::State& state) {
  core::LocalDateTime t{{2026, 11, 22}, 2, 30, 0};
  for (auto _ : state) {
    auto r = core::business_date(t, core::kDefaultDayCutoffHour);
    benchmark::DoNotOptimize(r);
    t.hour = (t.hour + 1) % 24;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_BusinessDate);

// A member holding ten permissions, mixing plain, manage and scoped forms. arg 0: the granting permission is
// the last one (the whole list is walked); arg 1: nothing grants it (walked, then refused).
void BM_AllowsMember10(benchmark::State& state) {
  const std::vector<std::string> granted = {"logs.view",
                                            "templates.manage",
                                            "audience.manage",
                                            "domains.domain:dom_7f3a:view",
                                            "inbox.mailbox:ops@example.com",
                                            "storage.view",
                                            "buckets.create",
                                            "media.upload",
                                            "restaurant.branch:br_19c2",
                                            "send.execute"};
  const bool miss = state.range(0) == 1;
  const std::string_view required = miss ? "webhooks.manage" : "send.execute";
  for (auto _ : state) {
    bool ok = core::allows(core::Role::member, granted, required);
    benchmark::DoNotOptimize(ok);
  }
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(miss ? "refused after the whole list" : "granted by the last entry");
}
BENCHMARK(BM_AllowsMember10)->Arg(0)->Arg(1);

// What access-token authentication hashes on every request: an `stk_` token (52 bytes).
void BM_Sha256HexToken(benchmark::State& state) {
  SplitMix rnd;
  const std::string token = core::make_token(core::TokenKind::access_token, rnd);
  for (auto _ : state) {
    auto h = core::sha256_hex(token);
    benchmark::DoNotOptimize(h);
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(token.size()));
}
BENCHMARK(BM_Sha256HexToken);

// DESIGN.md anchor: about 330k per second for 300 bytes with libsodium on one core.
void BM_HmacSha256(benchmark::State& state) {
  const std::string key = bytes_of(32);
  const std::string message = bytes_of(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    auto d = core::hmac_sha256(key, message);
    benchmark::DoNotOptimize(d);
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_HmacSha256)->Arg(300);

void BM_MakeToken(benchmark::State& state) {
  SplitMix rnd;
  const auto kind = state.range(0) == 0 ? core::TokenKind::access_token : core::TokenKind::oauth_access;
  for (auto _ : state) {
    auto t = core::make_token(kind, rnd);
    benchmark::DoNotOptimize(t);
  }
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(state.range(0) == 0 ? "stk_ (hex)" : "oat_ (base64url)");
}
BENCHMARK(BM_MakeToken)->Arg(0)->Arg(1);

void BM_Base64UrlEncode(benchmark::State& state) {
  const std::string data = bytes_of(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    auto s = core::base64url_encode(core::as_bytes(data));
    benchmark::DoNotOptimize(s);
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_Base64UrlEncode)->Arg(32)->Arg(300);

void BM_Base64UrlDecode(benchmark::State& state) {
  const std::string data = bytes_of(static_cast<std::size_t>(state.range(0)));
  const std::string text = core::base64url_encode(core::as_bytes(data));
  for (auto _ : state) {
    auto b = core::base64url_decode(text);
    benchmark::DoNotOptimize(b);
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_Base64UrlDecode)->Arg(32)->Arg(300);

// A request body of about 500 bytes: an order with a few lines, strings, integers, a nested array.
const std::string kBody =
    R"({"branchId":"br_19c2f0a7","tableId":"tbl_0012","idempotencyKey":"ord-2026-11-22-000187",)"
    R"("note":"No onions on the second burger, please. Allergy: sesame.","currency":"EUR",)"
    R"("vatRateBps":2000,"lines":[)"
    R"({"itemId":"itm_burger_classic","quantity":2,"unitGrossMinor":1290,"modifiers":["no-onion"]},)"
    R"({"itemId":"itm_fries_large","quantity":2,"unitGrossMinor":450,"modifiers":[]},)"
    R"({"itemId":"itm_lemonade","quantity":3,"unitGrossMinor":390,"modifiers":["no-ice"]}],)"
    R"("customer":{"name":"Jane Example","email":"jane@example.com","phone":"+43 660 1234567"},)"
    R"("tipMinor":300,"paid":false})";

void BM_ParseJsonObject(benchmark::State& state) {
  for (auto _ : state) {
    auto o = core::parse_json_object(kBody);
    benchmark::DoNotOptimize(o);
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(kBody.size()));
  state.SetLabel(std::to_string(kBody.size()) + " bytes");
}
BENCHMARK(BM_ParseJsonObject);

}  // namespace

BENCHMARK_MAIN();
