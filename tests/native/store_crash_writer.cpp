// store_crash_writer <directory> <first n> <threads> [--ack-before-commit]
//
// The victim of the crash test: opens the store and writes records crash::write_record(n) for n = first,
// first+1, ... from several threads (so writes share group commits) until it is killed. After a write()
// returns ok it reports the acknowledged n as one line "<n>\n" on stdout, written with one write(2) so lines
// from different threads never interleave.
//
// --ack-before-commit reports n from inside fn, before the commit: a deliberately broken writer that the
// crash test must catch.

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "native/store/kv_store.h"
#include "tests/native/crash_records.h"

namespace {

void report(std::uint64_t n) {
  char line[32];
  const int len = std::snprintf(line, sizeof line, "%llu\n", static_cast<unsigned long long>(n));
  if (::write(STDOUT_FILENO, line, static_cast<std::size_t>(len)) != len) std::_Exit(3);  // parent gone
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s <directory> <first n> <threads> [--ack-before-commit]\n", argv[0]);
    return 2;
  }
  const std::string directory = argv[1];
  const std::uint64_t first = std::strtoull(argv[2], nullptr, 10);
  const int threads = std::atoi(argv[3]);
  const bool ack_before_commit = argc > 4 && std::strcmp(argv[4], "--ack-before-commit") == 0;

  store::LmdbOptions options;
  options.initial_map_size = 1 << 20;  // small, so the map grows while we get killed
  options.max_batch = 64;
  auto kv = store::open_lmdb(directory, options);
  if (!kv.ok()) {
    std::fprintf(stderr, "store_crash_writer: %s\n", kv.error().message.c_str());
    return 1;
  }
  auto table = (*kv)->open_table(crash::kTableName);
  if (!table.ok()) {
    std::fprintf(stderr, "store_crash_writer: %s\n", table.error().message.c_str());
    return 1;
  }

  std::atomic<std::uint64_t> next{first};
  std::atomic<bool> failed{false};
  std::vector<std::thread> workers;
  for (int i = 0; i < threads; ++i) {
    workers.emplace_back([&] {
      while (!failed) {
        const std::uint64_t n = next++;
        const core::Status status = (*kv)->write([&](store::WriteTxn& txn) {
          core::Status s = crash::write_record(txn, *table, n);
          if (s.ok() && ack_before_commit) report(n);
          return s;
        });
        if (status.ok()) {
          if (!ack_before_commit) report(n);
        } else if (status.error().code != "rejected") {
          std::fprintf(stderr, "store_crash_writer: write %llu: %s: %s\n", static_cast<unsigned long long>(n),
                       status.error().code.c_str(), status.error().message.c_str());
          failed = true;
        }
      }
    });
  }
  // Never outlive a parent that forgot us for long.
  for (int s = 0; s < 60 && !failed; ++s) std::this_thread::sleep_for(std::chrono::seconds(1));
  std::_Exit(failed ? 1 : 4);
}
