// store_bench: durable LMDB writes and random reads through store::open_lmdb (the KvStore the edge uses).
//
//   BM_PutCommit/threads:N   N writer threads, each calling write() with one small put in a loop. Every
//                            write() is durable (fsync'd) when it returns; concurrent callers share commits
//                            (group commit), so acknowledged writes/s (items_per_second) should rise with
//                            N. commits_per_second: durable LMDB commits (one fsync each) per second;
//                            writes_per_commit: write() calls per commit in that run.
//   BM_GetOwnRead            one read() per random get (what a request handler pays per lookup).
//   BM_GetBatched            64 random gets inside one read() (the engine's get cost without the read
//                            transaction's set-up).
//
// The data directory is created next to the executable (in the build tree, on the same disk as the source),
// or below $STORE_BENCH_DIR, and removed at exit. A tmpfs directory would make fsync free and the figures
// meaningless: the benchmark warns when it sees one.

#include <benchmark/benchmark.h>
#include <linux/magic.h>
#include <sys/vfs.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "native/store/kv_store.h"
#include "native/store/lmdb_store.h"

namespace {

store::KvStore* g_store = nullptr;
store::LmdbStore* g_lmdb = nullptr;  // the same store, for its commit counters
store::Table g_table;

constexpr std::size_t kReadKeys = 100'000;
constexpr std::size_t kValueSize = 100;
std::vector<std::string> g_read_keys;
std::atomic<std::uint64_t> g_write_seq{0};

std::string key_for(const char* prefix, std::uint64_t n) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%s%012llu", prefix, static_cast<unsigned long long>(n));
  return buf;
}

std::uint64_t xorshift(std::uint64_t& s) {
  s ^= s << 13;
  s ^= s >> 7;
  s ^= s << 17;
  return s;
}

void BM_PutCommit(benchmark::State& state) {
  const std::string value(kValueSize, 'v');
  const std::string prefix = "w/" + std::to_string(state.thread_index()) + "/";
  store::LmdbStats before;
  if (state.thread_index() == 0) before = g_lmdb->stats();
  for (auto _ : state) {
    std::string key = key_for(prefix.c_str(), g_write_seq.fetch_add(1, std::memory_order_relaxed));
    core::Status s = g_store->write([&](store::WriteTxn& tx) -> core::Status {
      tx.put(g_table, key, value);
      return {};
    });
    if (!s) {
      state.SkipWithError(s.error().message.c_str());
      break;
    }
  }
  state.SetItemsProcessed(state.iterations());
  if (state.thread_index() == 0) {
    // Every thread has left the timed loop here (the library waits for all of them), so the counters
    // cover exactly this run.
    store::LmdbStats after = g_lmdb->stats();
    const double commits = static_cast<double>(after.commits - before.commits);
    const double requests = static_cast<double>(after.write_requests - before.write_requests);
    state.counters["commits_per_second"] = benchmark::Counter(commits, benchmark::Counter::kIsRate);
    state.counters["writes_per_commit"] = commits > 0 ? requests / commits : 0;
  }
}
BENCHMARK(BM_PutCommit)->Threads(1)->Threads(4)->Threads(16)->Threads(64)->UseRealTime()->MinTime(2.0);

void BM_GetOwnRead(benchmark::State& state) {
  std::uint64_t rnd = 0x9e3779b97f4a7c15ULL + static_cast<std::uint64_t>(state.thread_index());
  std::size_t found = 0;
  for (auto _ : state) {
    const std::string& key = g_read_keys[xorshift(rnd) % g_read_keys.size()];
    core::Status s = g_store->read([&](const store::ReadTxn& tx) -> core::Status {
      auto v = tx.get(g_table, key);
      found += v.has_value();
      benchmark::DoNotOptimize(v);
      return {};
    });
    benchmark::DoNotOptimize(s);
  }
  if (found != static_cast<std::size_t>(state.iterations()))
    state.SkipWithError("a preloaded key was missing");
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_GetOwnRead)->Threads(1)->Threads(2)->UseRealTime();

void BM_GetBatched(benchmark::State& state) {
  constexpr int kPerRead = 64;
  std::uint64_t rnd = 0x2545f4914f6cdd1dULL + static_cast<std::uint64_t>(state.thread_index());
  std::size_t found = 0;
  for (auto _ : state) {
    core::Status s = g_store->read([&](const store::ReadTxn& tx) -> core::Status {
      for (int i = 0; i < kPerRead; ++i) {
        auto v = tx.get(g_table, g_read_keys[xorshift(rnd) % g_read_keys.size()]);
        found += v.has_value();
        benchmark::DoNotOptimize(v);
      }
      return {};
    });
    benchmark::DoNotOptimize(s);
  }
  if (found != static_cast<std::size_t>(state.iterations()) * kPerRead)
    state.SkipWithError("a preloaded key was missing");
  state.SetItemsProcessed(state.iterations() * kPerRead);
}
BENCHMARK(BM_GetBatched)->Threads(1)->Threads(2)->UseRealTime();

std::filesystem::path make_data_dir(const char* argv0) {
  std::filesystem::path base;
  if (const char* env = std::getenv("STORE_BENCH_DIR"); env != nullptr && *env != '\0') {
    base = env;
  } else {
    std::error_code ec;
    base = std::filesystem::weakly_canonical(std::filesystem::absolute(argv0, ec), ec).parent_path();
  }
  std::filesystem::create_directories(base);
  std::string templ = (base / "store_bench.XXXXXX").string();
  if (::mkdtemp(templ.data()) == nullptr) {
    std::perror(("store_bench: mkdtemp " + templ).c_str());
    std::exit(1);
  }
  struct statfs fs {};
  if (::statfs(templ.c_str(), &fs) == 0 && (fs.f_type == TMPFS_MAGIC || fs.f_type == RAMFS_MAGIC))
    std::fprintf(stderr,
                 "store_bench: WARNING %s is on tmpfs/ramfs: fsync costs nothing there, commit figures "
                 "are not durable-write figures\n",
                 templ.c_str());
  return templ;
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

  const std::filesystem::path dir = make_data_dir(argv[0]);
  benchmark::AddCustomContext("store_dir", dir.string());
  int rc = 0;
  {
    auto opened = store::open_lmdb(dir.string());
    if (!opened) {
      std::fprintf(stderr, "store_bench: %s\n", opened.error().message.c_str());
      std::filesystem::remove_all(dir);
      return 1;
    }
    std::unique_ptr<store::KvStore> kv = std::move(*opened);
    g_store = kv.get();
    g_lmdb = dynamic_cast<store::LmdbStore*>(kv.get());
    auto table = kv->open_table("bench");
    if (!g_lmdb || !table) {
      std::fprintf(stderr, "store_bench: cannot open the bench table\n");
      rc = 1;
    } else {
      g_table = *table;
      // Preload the keys the get benchmarks look up, 10k per transaction.
      const std::string value(kValueSize, 'r');
      for (std::size_t i = 0; i < kReadKeys; ++i) g_read_keys.push_back(key_for("r/", i * 7919));
      for (std::size_t start = 0; start < kReadKeys && rc == 0; start += 10'000) {
        core::Status s = kv->write([&](store::WriteTxn& tx) -> core::Status {
          for (std::size_t i = start; i < start + 10'000 && i < kReadKeys; ++i)
            tx.put(g_table, g_read_keys[i], value);
          return {};
        });
        if (!s) {
          std::fprintf(stderr, "store_bench: preload failed: %s\n", s.error().message.c_str());
          rc = 1;
        }
      }
      if (rc == 0) benchmark::RunSpecifiedBenchmarks();
    }
    g_store = nullptr;
    g_lmdb = nullptr;
  }
  benchmark::Shutdown();
  std::filesystem::remove_all(dir);
  return rc;
}
