// Group commit and map growth: concurrent writers share commits, a failing fn rolls back alone, the map
// grows under load while readers keep reading.

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <latch>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "native/store/lmdb_store.h"
#include "native/store/reader_gate.h"
#include "tests/native/store_test_util.h"
#include "tests/native/temp_dir.h"

using namespace store;
using namespace store_test;
using namespace std::chrono_literals;

namespace {

const core::Status kOk{};

// Waits until `pred` holds, for at most `limit`.
template <class Pred>
bool eventually_within(std::chrono::seconds limit, Pred pred) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!pred()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(1ms);
  }
  return true;
}

// Waits until `pred` holds, for at most 10 s.
template <class Pred>
bool eventually(Pred pred) {
  return eventually_within(10s, pred);
}

// Value of `size` bytes derived from `key`, so a read can tell a right value from a wrong one.
std::string value_for(const std::string& key, std::size_t size) {
  std::string v(size, ' ');
  for (std::size_t i = 0; i < size; ++i) v[i] = static_cast<char>('a' + (key[i % key.size()] + i) % 26);
  return v;
}

}  // namespace

TEST_SUITE("store") {
  TEST_CASE("one failing fn rolls back alone while the rest of its group commits once") {
    TempDir dir;
    auto [kv, t] = open_store(dir);
    const LmdbStats before = kv->stats();

    // The first write holds the writer until seven more are queued, so those seven form one group.
    std::thread first([&, t = t] {
      CHECK(kv->write([&](WriteTxn& txn) {
                txn.put(t, "first", "v");
                CHECK(eventually([&] { return kv->stats().queued == 7; }));
                return kOk;
              }).ok());
    });
    REQUIRE(eventually([&] { return kv->stats().write_requests == before.write_requests + 1; }));

    std::vector<std::thread> others;
    std::vector<core::Status> results(7);
    for (int i = 0; i < 7; ++i) {
      others.emplace_back([&, i, t = t] {
        results[i] = kv->write([&](WriteTxn& txn) {
          txn.put(t, "order/" + std::to_string(i), "placed");
          txn.put(t, "stock", std::to_string(i));
          if (i == 3) return core::Status(core::make_error("payment_declined", "card declined"));
          return kOk;
        });
      });
    }
    first.join();
    for (auto& th : others) th.join();

    for (int i = 0; i < 7; ++i) {
      CAPTURE(i);
      if (i == 3) {
        CHECK(results[i].error().code == "payment_declined");
        CHECK(get(*kv, t, "order/3") == std::nullopt);
      } else {
        CHECK(results[i].ok());
        CHECK(get(*kv, t, "order/" + std::to_string(i)) == "placed");
      }
    }
    // The last successful fn of the group wrote "stock" last.
    CHECK(get(*kv, t, "stock") != "3");
    const LmdbStats after = kv->stats();
    CHECK(after.commits == before.commits + 2);
    CHECK(after.largest_group == 7);
    // The first commit's meta page reached the disk with the second commit's fdatasync; only the last one
    // needed a flush of its own: one device flush per commit, none acknowledged before it.
    CHECK(after.syncs == before.syncs + 1);
  }

  TEST_CASE("a lone write is answered only after its commit's meta page is flushed") {
    TempDir dir;
    auto [kv, t] = open_store(dir);
    const LmdbStats before = kv->stats();
    for (int i = 1; i <= 20; ++i) {
      REQUIRE(kv->write([&, t = t](WriteTxn& txn) {
                  txn.put(t, "k" + std::to_string(i), "v");
                  return kOk;
                }).ok());
      // Nothing else was queued to carry the meta page: the writer flushed it before answering.
      const LmdbStats now = kv->stats();
      CHECK(now.commits == before.commits + static_cast<std::uint64_t>(i));
      CHECK(now.syncs == before.syncs + static_cast<std::uint64_t>(i));
    }
    CHECK(kv->health().ok());
  }

  TEST_CASE("8 threads x 200 writes with every 10th failing: exactly the ok ones are kept") {
    TempDir dir;
    auto [kv, t] = open_store(dir);
    constexpr int kThreads = 8, kWrites = 200;
    std::vector<std::set<std::string>> acknowledged(kThreads);
    std::atomic<int> unexpected{0};
    std::vector<std::thread> threads;
    for (int th = 0; th < kThreads; ++th) {
      threads.emplace_back([&, th, t = t] {
        for (int i = 0; i < kWrites; ++i) {
          const std::string key = "w/" + std::to_string(th) + "/" + std::to_string(i);
          const bool fails = i % 10 == 9;
          const core::Status status = kv->write([&](WriteTxn& txn) {
            txn.put(t, key, "v");
            // A shared counter: read-modify-write, correct only if fns are applied one after another.
            const int count = std::stoi(txn.get(t, "count").value_or("0"));
            txn.put(t, "count", std::to_string(count + 1));
            if (fails) return core::Status(core::make_error("rejected", key));
            return kOk;
          });
          if (status.ok() == !fails) {
            if (status.ok()) acknowledged[th].insert(key);
          } else {
            ++unexpected;
          }
        }
      });
    }
    for (auto& th : threads) th.join();
    CHECK(unexpected == 0);

    std::set<std::string> expected;
    for (const auto& s : acknowledged) expected.insert(s.begin(), s.end());
    CHECK(expected.size() == kThreads * kWrites * 9 / 10);
    const auto stored = scan_keys(*kv, t, "w/");
    CHECK(std::set<std::string>(stored.begin(), stored.end()) == expected);
    CHECK(get(*kv, t, "count") == std::to_string(expected.size()));

    const LmdbStats stats = kv->stats();
    MESSAGE("requests ", stats.write_requests, ", commits ", stats.commits, ", largest group ",
            stats.largest_group);
    CHECK(stats.commits < stats.write_requests);  // groups formed
    CHECK(stats.largest_group > 1);
  }

  TEST_CASE("the map grows from 1 MiB to hold 20 MiB under concurrent readers and keeps it after reopen") {
    TempDir dir;
    LmdbOptions options;
    options.initial_map_size = 1 << 20;
    constexpr int kWriters = 4, kPerWriter = 600;
    auto key_of = [](int w, int i) { return "big/" + std::to_string(w) + "/" + std::to_string(i); };
    auto size_of = [](int w, int i) {
      return std::size_t(4096 + (w * 7919 + i * 104729) % 12288);
    };  // 4-16 KiB
    {
      auto [kv, t] = open_store(dir, options);
      CHECK(kv->stats().map_size == 1 << 20);
      std::atomic<bool> writing{true};
      std::atomic<int> reads{0}, bad_reads{0};
      std::vector<std::thread> readers;
      for (int r = 0; r < 2; ++r) {
        readers.emplace_back([&, r, t = t] {
          for (int n = 0; writing; ++n) {
            const int w = (n + r) % kWriters, i = n % kPerWriter;
            const core::Status status = kv->read([&](const ReadTxn& txn) {
              const auto v = txn.get(t, key_of(w, i));
              if (v && *v != value_for(key_of(w, i), size_of(w, i))) ++bad_reads;
              return kOk;
            });
            if (!status.ok()) ++bad_reads;
            ++reads;
          }
        });
      }
      std::vector<std::thread> writers;
      std::atomic<int> failed{0};
      for (int w = 0; w < kWriters; ++w) {
        writers.emplace_back([&, w, t = t] {
          for (int i = 0; i < kPerWriter; ++i) {
            if (!put(*kv, t, key_of(w, i), value_for(key_of(w, i), size_of(w, i))).ok()) ++failed;
          }
        });
      }
      for (auto& th : writers) th.join();
      writing = false;
      for (auto& th : readers) th.join();
      CHECK(failed == 0);
      CHECK(bad_reads == 0);
      const LmdbStats stats = kv->stats();
      MESSAGE("map ", stats.map_size, " bytes after ", stats.map_resizes, " resizes; ", reads.load(),
              " reads meanwhile; ", stats.reruns, " fn reruns");
      CHECK(stats.map_resizes >= 5);
      CHECK(stats.map_size >= 32u << 20);  // 1 MiB doubled at least five times
    }
    auto [kv, t] = open_store(dir, options);
    int present = 0;
    std::size_t bytes = 0;
    for (int w = 0; w < kWriters; ++w) {
      for (int i = 0; i < kPerWriter; ++i) {
        const auto v = get(*kv, t, key_of(w, i));
        if (v && *v == value_for(key_of(w, i), size_of(w, i))) ++present, bytes += v->size();
      }
    }
    CHECK(present == kWriters * kPerWriter);
    CHECK(bytes > 20u << 20);
  }

  TEST_CASE("one write larger than the whole map makes it grow") {
    TempDir dir;
    LmdbOptions options;
    options.initial_map_size = 1 << 20;
    auto [kv, t] = open_store(dir, options);
    const std::string big = value_for("huge", 5 << 20);
    REQUIRE(put(*kv, t, "huge", big).ok());
    CHECK(get(*kv, t, "huge") == big);
    CHECK(kv->stats().map_size >= 8u << 20);
  }

  TEST_CASE(
      "a write that cannot fit under max_map_size fails with storage_error and the store stays usable") {
    TempDir dir;
    LmdbOptions options;
    options.initial_map_size = 1 << 20;
    options.max_map_size = 2 << 20;
    auto [kv, t] = open_store(dir, options);
    const core::Status status = put(*kv, t, "huge", std::string(4 << 20, 'x'));
    REQUIRE_FALSE(status.ok());
    CHECK(status.error().code == "storage_error");
    CHECK(get(*kv, t, "huge") == std::nullopt);
    CHECK(put(*kv, t, "small", "fits").ok());
    CHECK(get(*kv, t, "small") == "fits");
  }

  TEST_CASE("with the default map a long read never holds up writes, however much they add") {
    TempDir dir;
    auto [kv, t] = open_store(dir);  // the default reserves max_map_size at open
    std::latch reading(1);
    std::atomic<bool> writes_done{false};
    std::thread reader([&] {
      CHECK(kv->read([&](const ReadTxn&) {
                reading.count_down();
                // Held until the writes below are done (or, should they wait for this read, 30 s).
                CHECK(eventually_within(30s, [&] { return writes_done.load(); }));
                return kOk;
              }).ok());
    });
    reading.wait();
    for (int i = 0; i < 100; ++i)
      CHECK(put(*kv, t, "big/" + std::to_string(i), std::string(1 << 20, 'x')).ok());
    writes_done = true;
    reader.join();
    CHECK(kv->stats().map_resizes == 0);
  }

  TEST_CASE("writes wait for a long read only when the map must grow") {
    TempDir dir;
    LmdbOptions options;
    options.initial_map_size = 1 << 20;
    auto [kv, t] = open_store(dir, options);
    std::latch reading(1), release(1);
    std::thread reader([&] {
      CHECK(kv->read([&](const ReadTxn&) {
                reading.count_down();
                release.wait();
                return kOk;
              }).ok());
    });
    reading.wait();
    CHECK(put(*kv, t, "small", "fits").ok());  // no growth needed: does not wait for the reader

    std::atomic<bool> grown{false};
    std::thread writer([&, t = t] {
      CHECK(put(*kv, t, "big", std::string(3 << 20, 'x')).ok());
      grown = true;
    });
    std::this_thread::sleep_for(100ms);
    CHECK_FALSE(grown);  // the remap waits for the open read
    release.count_down();
    writer.join();
    reader.join();
    CHECK(grown);
  }
}

TEST_SUITE("store") {
  TEST_CASE("the reader gate lets a waiting remap go first but lets nested readers in") {
    ReaderGate gate;
    gate.enter_shared(false);
    std::atomic<bool> exclusive_held{false}, late_reader_in{false};
    std::thread remap([&] {
      gate.lock_exclusive();
      exclusive_held = true;
      CHECK_FALSE(late_reader_in);
      gate.unlock_exclusive();
    });
    std::this_thread::sleep_for(50ms);
    std::thread late_reader([&] {
      gate.enter_shared(false);  // must wait behind the remap
      late_reader_in = true;
      gate.leave_shared();
    });
    std::this_thread::sleep_for(50ms);
    CHECK_FALSE(exclusive_held);
    CHECK_FALSE(late_reader_in);
    gate.enter_shared(true);  // nested: does not wait, else this thread would deadlock
    gate.leave_shared();
    gate.leave_shared();
    remap.join();
    late_reader.join();
    CHECK(exclusive_held);
    CHECK(late_reader_in);
  }
}
