// KvStore behaviour on LMDB: single-caller stories (put/get/erase, tables, scans, rollbacks, limits,
// snapshots, reopening, misuse that must not deadlock).

#include <lmdb.h>

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <latch>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "native/store/kv_store.h"
#include "native/store/lmdb_store.h"
#include "tests/native/store_test_util.h"
#include "tests/native/temp_dir.h"

using namespace store;
using namespace store_test;
using namespace std::string_literals;

namespace {
const core::Status kOk{};
}

TEST_SUITE("store") {
  TEST_CASE("put, get and erase round-trip through durable writes") {
    TempDir dir;
    auto [kv, t] = open_store(dir);

    CHECK(get(*kv, t, "c/1/order/1") == std::nullopt);
    REQUIRE(put(*kv, t, "c/1/order/1", R"({"total":100})").ok());
    CHECK(get(*kv, t, "c/1/order/1") == R"({"total":100})");

    REQUIRE(put(*kv, t, "c/1/order/1", R"({"total":250})").ok());
    CHECK(get(*kv, t, "c/1/order/1") == R"({"total":250})");

    const std::string binary = "a\0b\xff"s;
    REQUIRE(put(*kv, t, "bin", binary).ok());
    CHECK(get(*kv, t, "bin") == binary);
    REQUIRE(put(*kv, t, "empty", "").ok());
    CHECK(get(*kv, t, "empty") == "");

    bool existed = false, existed_again = true;
    REQUIRE(kv->write([&](WriteTxn& txn) {
                existed = txn.erase(t, "c/1/order/1");
                existed_again = txn.erase(t, "c/1/order/1");
                return kOk;
              }).ok());
    CHECK(existed);
    CHECK_FALSE(existed_again);
    CHECK(get(*kv, t, "c/1/order/1") == std::nullopt);
  }

  TEST_CASE("tables are separate key spaces and reopening one returns the same handle") {
    TempDir dir;
    auto [kv, t] = open_store(dir);
    auto orders = kv->open_table("orders");
    auto users = kv->open_table("users");
    REQUIRE(orders.ok());
    REQUIRE(users.ok());
    CHECK(orders->id != users->id);
    CHECK(kv->open_table("orders")->id == orders->id);

    REQUIRE(put(*kv, *orders, "k", "order").ok());
    REQUIRE(put(*kv, *users, "k", "user").ok());
    CHECK(get(*kv, *orders, "k") == "order");
    CHECK(get(*kv, *users, "k") == "user");
    CHECK(get(*kv, t, "k") == std::nullopt);

    CHECK(kv->open_table("").error().code == "invalid_table_name");
    CHECK(kv->open_table(std::string(600, 'x')).error().code == "invalid_table_name");
    CHECK(kv->open_table("a\0b"s).error().code == "invalid_table_name");
  }

  TEST_CASE("a table handle that names no table fails the transaction with storage_error") {
    TempDir dir;
    auto [kv, t] = open_store(dir);
    const core::Status read = kv->read([&](const ReadTxn& txn) {
      CHECK(txn.get(Table{}, "k") == std::nullopt);
      return kOk;
    });
    CHECK(read.error().code == "storage_error");
    const core::Status write = kv->write([&](WriteTxn& txn) {
      txn.put(t, "kept?", "no");
      txn.put(Table{9999}, "k", "v");
      return kOk;
    });
    CHECK(write.error().code == "storage_error");
    CHECK(get(*kv, t, "kept?") == std::nullopt);
  }

  TEST_CASE("more tables than max_tables fail with storage_error") {
    TempDir dir;
    LmdbOptions options;
    options.max_tables = 2;
    auto [kv, t] = open_store(dir, options);  // "t" is the first
    CHECK(kv->open_table("second").ok());
    CHECK(kv->open_table("third").error().code == "storage_error");
  }

  TEST_CASE("scan visits the keys of a prefix in ascending byte order and stops when asked") {
    TempDir dir;
    auto [kv, t] = open_store(dir);
    for (const char* key : {"a/2", "b/1", "a/10", "a", "ab/1", "a/1", "a/", "a/\xff", "a/Z"}) {
      REQUIRE(put(*kv, t, key, std::string("v:") + key).ok());
    }
    CHECK(scan_keys(*kv, t, "a/") == std::vector<std::string>{"a/", "a/1", "a/10", "a/2", "a/Z", "a/\xff"});
    CHECK(scan_keys(*kv, t, "a/", {}, 2) == std::vector<std::string>{"a/", "a/1"});
    CHECK(scan_keys(*kv, t, "").size() == 9);
    CHECK(scan_keys(*kv, t, "").front() == "a");
    CHECK(scan_keys(*kv, t, "c/").empty());
    CHECK(scan_keys(*kv, t, std::string(600, 'a')).empty());

    std::vector<std::pair<std::string, std::string>> pairs;
    REQUIRE(kv->read([&](const ReadTxn& txn) {
                txn.scan(t, "ab", [&](std::string_view k, std::string_view v) {
                  pairs.emplace_back(k, v);
                  return true;
                });
                return kOk;
              }).ok());
    CHECK(pairs == std::vector<std::pair<std::string, std::string>>{{"ab/1", "v:ab/1"}});
  }

  TEST_CASE("scan pages through a prefix with start_after") {
    TempDir dir;
    auto [kv, t] = open_store(dir);
    std::vector<std::string> all;
    for (int i = 0; i < 10; ++i) all.push_back("p/0" + std::to_string(i));
    REQUIRE(kv->write([&](WriteTxn& txn) {
                for (const auto& key : all) txn.put(t, key, "v");
                txn.put(t, "o/9", "before");
                txn.put(t, "q/0", "after");
                return kOk;
              }).ok());

    std::vector<std::string> paged;
    std::string cursor;
    for (int pages = 0; pages < 10; ++pages) {
      auto page = scan_keys(*kv, t, "p/", cursor, 3);
      if (page.empty()) break;
      paged.insert(paged.end(), page.begin(), page.end());
      cursor = page.back();
    }
    CHECK(paged == all);

    // start_after need not exist, may lie before or after the prefix, or be longer than any key.
    CHECK(scan_keys(*kv, t, "p/", "p/045", 1) == std::vector<std::string>{"p/05"});
    CHECK(scan_keys(*kv, t, "p/", "a").size() == 10);
    CHECK(scan_keys(*kv, t, "p/", "z").empty());
    CHECK(scan_keys(*kv, t, "p/", "p/09").empty());
    CHECK(scan_keys(*kv, t, "p/", "p/05" + std::string(700, '\0'), 1) == std::vector<std::string>{"p/06"});
    CHECK(scan_keys(*kv, t, "", "p/09") == std::vector<std::string>{"q/0"});
  }

  TEST_CASE("a long stored key is skipped, not repeated, when start_after is longer than any key") {
    TempDir dir;
    auto [kv, t] = open_store(dir);
    const std::string longest(kv->max_key_size(), 'k');
    REQUIRE(put(*kv, t, longest, "v").ok());
    REQUIRE(put(*kv, t, "l", "v").ok());
    CHECK(scan_keys(*kv, t, "", longest + "x") == std::vector<std::string>{"l"});
    CHECK(scan_keys(*kv, t, "", longest) == std::vector<std::string>{"l"});
  }

  TEST_CASE("erasing the visited key during a scan visits every key once") {
    TempDir dir;
    auto [kv, t] = open_store(dir);
    REQUIRE(kv->write([&](WriteTxn& txn) {
                for (int i = 0; i < 2000; ++i)
                  txn.put(t, "exp/" + std::to_string(10000 + i), std::string(100, 'x'));
                txn.put(t, "keep", "v");
                return kOk;
              }).ok());
    int visited = 0;
    REQUIRE(kv->write([&](WriteTxn& txn) {
                txn.scan(t, "exp/", [&](std::string_view key, std::string_view) {
                  ++visited;
                  return txn.erase(t, std::string(key));
                });
                return kOk;
              }).ok());
    CHECK(visited == 2000);
    CHECK(scan_keys(*kv, t, "").size() == 1);
  }

  TEST_CASE("a failing fn keeps none of its writes and its error is returned as is") {
    TempDir dir;
    auto [kv, t] = open_store(dir);
    REQUIRE(put(*kv, t, "stock/1", "5").ok());
    const core::Status status = kv->write([&](WriteTxn& txn) {
      txn.put(t, "stock/1", "4");
      txn.put(t, "order/1", "{}");
      txn.erase(t, "stock/1");
      return core::Status(core::make_error("out_of_stock", "Item 1 is sold out."));
    });
    REQUIRE_FALSE(status.ok());
    CHECK(status.error().code == "out_of_stock");
    CHECK(status.error().message == "Item 1 is sold out.");
    CHECK(get(*kv, t, "stock/1") == "5");
    CHECK(get(*kv, t, "order/1") == std::nullopt);
  }

  TEST_CASE("read returns fn's error as is") {
    TempDir dir;
    auto [kv, t] = open_store(dir);
    const core::Status status =
        kv->read([](const ReadTxn&) { return core::Status(core::make_error("nope", "x")); });
    CHECK(status.error().code == "nope");
  }

  TEST_CASE("reads inside a write see the write's own changes") {
    TempDir dir;
    auto [kv, t] = open_store(dir);
    REQUIRE(put(*kv, t, "n", "1").ok());
    REQUIRE(kv->write([&](WriteTxn& txn) {
                txn.put(t, "n", "2");
                txn.put(t, "m", "x");
                CHECK(txn.get(t, "n") == "2");
                int seen = 0;
                txn.scan(t, "", [&](std::string_view, std::string_view) { return ++seen, true; });
                CHECK(seen == 2);
                txn.erase(t, "m");
                CHECK(txn.get(t, "m") == std::nullopt);
                return kOk;
              }).ok());
    CHECK(get(*kv, t, "n") == "2");
  }

  TEST_CASE("keys that LMDB cannot store fail the write instead of crashing") {
    TempDir dir;
    auto [kv, t] = open_store(dir);
    const std::size_t max = kv->max_key_size();
    CHECK(max == 511);
    CHECK(lmdb_max_key_size() == max);

    CHECK(put(*kv, t, std::string(max, 'k'), "fits").ok());
    CHECK(get(*kv, t, std::string(max, 'k')) == "fits");

    bool fn_went_on = false;
    const core::Status too_long = kv->write([&](WriteTxn& txn) {
      txn.put(t, "before", "x");
      txn.put(t, std::string(max + 1, 'k'), "too long");
      txn.put(t, "after", "x");  // ignored: the transaction already failed
      fn_went_on = true;
      return kOk;  // the recorded failure wins over fn's ok
    });
    CHECK(fn_went_on);
    REQUIRE_FALSE(too_long.ok());
    CHECK(too_long.error().code == "key_too_long");
    CHECK(get(*kv, t, "before") == std::nullopt);
    CHECK(get(*kv, t, "after") == std::nullopt);

    const core::Status empty = put(*kv, t, "", "x");
    CHECK(empty.error().code == "empty_key");

    // Keys that cannot exist are simply absent.
    CHECK(get(*kv, t, std::string(max + 100, 'k')) == std::nullopt);
    CHECK(get(*kv, t, "") == std::nullopt);
    bool erased = true;
    REQUIRE(kv->write([&](WriteTxn& txn) {
                erased = txn.erase(t, std::string(max + 1, 'k'));
                return kOk;
              }).ok());
    CHECK_FALSE(erased);
    CHECK(put(*kv, t, "later", "works").ok());
  }

  TEST_CASE("a read sees one snapshot while writes commit") {
    TempDir dir;
    auto [kv, t] = open_store(dir);
    REQUIRE(put(*kv, t, "balance/a", "100").ok());
    REQUIRE(put(*kv, t, "balance/b", "0").ok());

    std::latch first_read_done(1), transfer_done(1);
    std::optional<std::string> a_before, a_after, b_after;
    std::size_t keys_after = 0;
    std::thread reader([&] {
      CHECK(kv->read([&](const ReadTxn& txn) {
                a_before = txn.get(t, "balance/a");
                first_read_done.count_down();
                transfer_done.wait();
                a_after = txn.get(t, "balance/a");
                b_after = txn.get(t, "balance/b");
                txn.scan(t, "", [&](std::string_view, std::string_view) { return ++keys_after, true; });
                return kOk;
              }).ok());
    });
    first_read_done.wait();
    REQUIRE(kv->write([&](WriteTxn& txn) {
                txn.put(t, "balance/a", "40");
                txn.put(t, "balance/b", "60");
                txn.put(t, "transfer/1", "60");
                return kOk;
              }).ok());
    transfer_done.count_down();
    reader.join();

    CHECK(a_before == "100");
    CHECK(a_after == "100");
    CHECK(b_after == "0");
    CHECK(keys_after == 2);
    CHECK(get(*kv, t, "balance/a") == "40");
    CHECK(get(*kv, t, "transfer/1") == "60");
  }

  TEST_CASE("data survives closing and reopening the store") {
    TempDir dir;
    Table orders;
    {
      auto [kv, t] = open_store(dir);
      orders = *kv->open_table("orders");
      REQUIRE(put(*kv, orders, "o/1", "one").ok());
      REQUIRE(put(*kv, t, "x", "y").ok());
    }
    {
      auto [kv, t] = open_store(dir);
      auto again = kv->open_table("orders");
      REQUIRE(again.ok());
      CHECK(get(*kv, *again, "o/1") == "one");
      CHECK(get(*kv, t, "x") == "y");
    }
  }

  TEST_CASE("the store directory is created with its parents") {
    TempDir dir;
    auto opened = open_lmdb((dir.path() / "a" / "b").string());
    REQUIRE(opened.ok());
    CHECK(std::filesystem::exists(dir.path() / "a" / "b" / "data.mdb"));
  }

  TEST_CASE("a directory that cannot be created fails with storage_error") {
    TempDir dir;
    std::filesystem::create_directories(dir.path());
    { std::ofstream(dir.path() / "file") << "x"; }
    auto opened = open_lmdb((dir.path() / "file" / "sub").string());
    REQUIRE_FALSE(opened.ok());
    CHECK(opened.error().code == "storage_error");
  }

  TEST_CASE("commits are synchronous: no flag trades durability for speed") {
    TempDir dir;
    auto [kv, t] = open_store(dir);
    const unsigned flags = kv->env_flags();
    CHECK((flags & MDB_NOSYNC) == 0);
    // The meta page's flush is the next commit's or an explicit one, before any answer (group_commit_test).
    CHECK((flags & MDB_NOMETASYNC) != 0);
    CHECK((flags & MDB_MAPASYNC) == 0);
    CHECK((flags & MDB_WRITEMAP) == 0);
    CHECK((flags & MDB_NOTLS) != 0);
  }

  TEST_CASE("one directory can be opened by only one store per process") {
    TempDir dir;
    auto first = open_lmdb(dir.str());
    REQUIRE(first.ok());
    auto second = open_lmdb(dir.str() + "/.");
    REQUIRE_FALSE(second.ok());
    CHECK(second.error().code == "already_open");
    first->reset();
    CHECK(open_lmdb(dir.str()).ok());
  }

  TEST_CASE("write or open_table from inside a callback is refused instead of deadlocking") {
    TempDir dir;
    auto [kv, t] = open_store(dir);
    core::Status inner_write, inner_write_from_read;
    core::Result<Table> inner_table = Table{};
    REQUIRE(kv->write([&](WriteTxn&) {
                inner_write = put(*kv, t, "k", "v");
                inner_table = kv->open_table("other");
                return kOk;
              }).ok());
    CHECK(inner_write.error().code == "nested_transaction");
    CHECK(inner_table.error().code == "nested_transaction");
    REQUIRE(kv->read([&](const ReadTxn&) {
                inner_write_from_read = put(*kv, t, "k", "v");
                return kOk;
              }).ok());
    CHECK(inner_write_from_read.error().code == "nested_transaction");
    CHECK(get(*kv, t, "k") == std::nullopt);
  }

  TEST_CASE("reads nest inside reads and writes") {
    TempDir dir;
    auto [kv, t] = open_store(dir);
    REQUIRE(put(*kv, t, "k", "old").ok());
    std::optional<std::string> nested_in_read, nested_in_write;
    REQUIRE(kv->read([&](const ReadTxn&) {
                nested_in_read = get(*kv, t, "k");
                return kOk;
              }).ok());
    REQUIRE(kv->write([&](WriteTxn& txn) {
                txn.put(t, "k", "new");
                nested_in_write = get(*kv, t, "k");  // a separate snapshot: the last commit
                return kOk;
              }).ok());
    CHECK(nested_in_read == "old");
    CHECK(nested_in_write == "old");
  }

  TEST_CASE("an exception thrown by fn reaches the caller and its writes are discarded") {
    TempDir dir;
    auto [kv, t] = open_store(dir);
    CHECK_THROWS_AS(kv->write([&](WriteTxn& txn) -> core::Status {
      txn.put(t, "k", "v");
      throw std::runtime_error("boom");
    }),
                    std::runtime_error);
    CHECK(get(*kv, t, "k") == std::nullopt);
    CHECK(put(*kv, t, "k2", "v").ok());

    CHECK_THROWS_AS(kv->read([&](const ReadTxn&) -> core::Status { throw std::runtime_error("boom"); }),
                    std::runtime_error);
    CHECK(get(*kv, t, "k2") == "v");
  }
}
