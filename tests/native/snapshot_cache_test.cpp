// KvStore::version() and store::SnapshotCache: a cached value is served only while no write has committed
// since it was computed, whichever process committed it.

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "native/store/lmdb_store.h"
#include "native/store/snapshot_cache.h"
#include "tests/native/child_process.h"
#include "tests/native/store_test_util.h"
#include "tests/native/temp_dir.h"

using namespace store_test;

namespace {

// Runs store_crash_writer on `directory` until it has acknowledged one durable write, then kills it.
void commit_from_another_process(const std::string& directory) {
  std::string failure;
  auto writer =
      test_process::ChildProcess::start({STORE_CRASH_WRITER, directory, "1", "1"}, true, "", failure);
  REQUIRE_MESSAGE(writer, failure);
  REQUIRE_MESSAGE(writer->read_line(std::chrono::seconds(20)).has_value(),
                  "the other process acknowledged no write");
  writer->kill();
}

// A cache over table t whose values are the stored text of a key (nullopt when absent), counting how
// often the store was read.
struct TextCache {
  store::KvStore& kv;
  store::Table t;
  store::SnapshotCache<std::optional<std::string>> cache;
  int computed = 0;

  TextCache(store::KvStore& k, store::Table table, std::size_t capacity)
      : kv(k), t(table), cache(k, capacity) {}

  std::optional<std::string> get(std::string_view key) {
    auto value = cache.get(key, [&](const store::ReadTxn& txn, std::string_view k) {
      ++computed;
      return core::Result<std::optional<std::string>>(txn.get(t, k));
    });
    REQUIRE(value.ok());
    return *value;
  }
};

}  // namespace

TEST_SUITE("store") {
  TEST_CASE("version grows with every commit, from this process or another, and not with reads") {
    TempDir dir;
    auto [kv, t] = open_store(dir);
    const std::uint64_t start = kv->version();
    CHECK(kv->version() == start);
    CHECK(get(*kv, t, "a") == std::nullopt);
    CHECK(kv->version() == start);

    REQUIRE(put(*kv, t, "a", "1").ok());
    const std::uint64_t after_one = kv->version();
    CHECK(after_one > start);
    REQUIRE(put(*kv, t, "a", "2").ok());
    const std::uint64_t after_two = kv->version();
    CHECK(after_two > after_one);

    // Inside a read() callback too (the gate is entered as a nested reader), where the snapshot has the
    // same version; a write transaction has the version it commits as.
    std::uint64_t inside = 0, snapshot = 0, writing = 0;
    REQUIRE(kv->read([&](const store::ReadTxn& txn) {
                inside = kv->version();
                snapshot = txn.version();
                return core::Status{};
              }).ok());
    CHECK(inside == after_two);
    CHECK(snapshot == after_two);
    REQUIRE(kv->write([&](store::WriteTxn& txn) {
                txn.put(t, "a", "3");
                writing = txn.version();
                return core::Status{};
              }).ok());
    CHECK(writing > after_two);
    CHECK(kv->version() == writing);

    commit_from_another_process(dir.str());
    CHECK(kv->version() > writing);
  }

  TEST_CASE("a snapshot cache answers from memory until any write commits") {
    TempDir dir;
    auto [kv, t] = open_store(dir);
    REQUIRE(put(*kv, t, "a", "1").ok());
    TextCache texts(*kv, t, 100);

    CHECK(texts.get("a") == "1");
    CHECK(texts.get("a") == "1");
    CHECK(texts.get("missing") == std::nullopt);
    CHECK(texts.get("missing") == std::nullopt);  // a negative answer is kept like any other
    CHECK(texts.computed == 2);
    CHECK(texts.cache.hits() == 2);

    // A commit to another key still empties the cache: versions are per store, not per key.
    REQUIRE(put(*kv, t, "b", "x").ok());
    CHECK(texts.get("a") == "1");
    CHECK(texts.computed == 3);
    REQUIRE(put(*kv, t, "a", "2").ok());
    CHECK(texts.get("a") == "2");
    REQUIRE(put(*kv, t, "missing", "now here").ok());
    CHECK(texts.get("missing") == "now here");
    CHECK(texts.computed == 5);

    commit_from_another_process(dir.str());
    CHECK(texts.get("a") == "2");
    CHECK(texts.computed == 6);
  }

  TEST_CASE("a snapshot cache keeps no failure and no value older than a commit made while computing it") {
    TempDir dir;
    auto [kv, t] = open_store(dir);
    REQUIRE(put(*kv, t, "a", "1").ok());
    store::SnapshotCache<std::string> cache(*kv, 100);
    int calls = 0;

    auto failing = [&](const store::ReadTxn&, std::string_view) -> core::Result<std::string> {
      ++calls;
      return core::make_error("storage_error", "injected");
    };
    CHECK(cache.get("a", failing).error().code == "storage_error");
    CHECK_FALSE(cache.get("a", failing).ok());
    CHECK(calls == 2);

    // While the value is computed from its snapshot, another thread commits: the caller gets the value of
    // its snapshot (current when its get began), and the next get reads again.
    auto read_then_commit = [&](const store::ReadTxn& txn,
                                std::string_view key) -> core::Result<std::string> {
      ++calls;
      auto value = txn.get(t, key);
      bool written = false;
      std::thread([&] { written = put(*kv, t, key, "2").ok(); }).join();
      REQUIRE(written);
      return *value;
    };
    CHECK(*cache.get("a", read_then_commit) == "1");
    auto plain = [&](const store::ReadTxn& txn, std::string_view key) -> core::Result<std::string> {
      ++calls;
      return *txn.get(t, key);
    };
    CHECK(*cache.get("a", plain) == "2");
    CHECK(*cache.get("a", plain) == "2");
    CHECK(calls == 4);
    CHECK(cache.hits() == 1);
  }

  TEST_CASE("a full snapshot cache starts over and stays correct") {
    TempDir dir;
    auto [kv, t] = open_store(dir);
    for (const char* key : {"a", "b", "c"}) REQUIRE(put(*kv, t, key, key).ok());
    TextCache texts(*kv, t, 2);
    CHECK(texts.get("a") == "a");
    CHECK(texts.get("b") == "b");
    CHECK(texts.get("c") == "c");  // the third value empties the cache first
    CHECK(texts.computed == 3);
    CHECK(texts.get("c") == "c");
    CHECK(texts.computed == 3);
    CHECK(texts.get("a") == "a");
    CHECK(texts.computed == 4);
  }

  TEST_CASE(
      "readers of a snapshot cache never see a value older than a write acknowledged before they asked") {
    TempDir dir;
    auto [kv, t] = open_store(dir);
    REQUIRE(put(*kv, t, "n", "0").ok());
    store::SnapshotCache<int> cache(*kv, 100);
    std::atomic<int> acknowledged{0};
    std::atomic<bool> done{false};
    std::atomic<int> stale{0}, failed{0}, answers{0};

    std::vector<std::thread> readers;
    for (int r = 0; r < 3; ++r) {
      readers.emplace_back([&] {
        while (!done.load()) {
          const int floor = acknowledged.load();
          auto value =
              cache.get("n", [&](const store::ReadTxn& txn, std::string_view key) -> core::Result<int> {
                auto text = txn.get(t, key);
                if (!text) return core::make_error("missing", "no value");
                return std::stoi(*text);
              });
          if (!value.ok()) {
            ++failed;
          } else if (*value < floor) {
            ++stale;
          }
          ++answers;
        }
      });
    }
    for (int n = 1; n <= 150; ++n) {
      REQUIRE(put(*kv, t, "n", std::to_string(n)).ok());
      acknowledged.store(n);
    }
    done = true;
    for (auto& reader : readers) reader.join();
    CHECK(stale.load() == 0);
    CHECK(failed.load() == 0);
    CHECK(answers.load() > 150);
    CHECK(cache.hits() > 0);
  }
}
