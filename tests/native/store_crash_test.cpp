// The crash test: a writer process (store_crash_writer) is killed with SIGKILL at random moments, 25 times.
// After every kill the store is reopened and must hold every write the writer acknowledged, intact, with
// records and index entries agreeing one to one; the next round continues from there.
//
// What it can and cannot catch: it fails when an acknowledgement can precede its commit, when a commit can
// be half applied (a record without its index entry, a torn value, a wrong count), when a failed write
// leaks into a shared group commit, or when reopening after a crash loses data. SIGKILL leaves the kernel's
// page cache intact, so it cannot tell an fsync'd commit from an unsynced one; that durability is pinned by
// the env flags test in kv_store_test.cpp ("commits are synchronous").

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "native/store/kv_store.h"
#include "tests/native/crash_records.h"
#include "tests/native/temp_dir.h"

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

constexpr int kRounds = 25;
constexpr int kWriterThreads = 6;

struct Round {
  std::set<std::uint64_t> acknowledged;
  bool killed = false;      // ended by our SIGKILL, not by itself
  std::string exit_status;  // for messages
};

// Starts the writer on `directory` from record `first`, reads its acknowledgements for `lifetime`, kills it
// with SIGKILL and returns every acknowledgement it managed to write.
Round run_and_kill(const std::string& directory, std::uint64_t first, std::chrono::milliseconds lifetime,
                   bool ack_before_commit) {
  Round round;
  int fds[2];
  REQUIRE(::pipe2(fds, O_CLOEXEC) == 0);
  std::vector<std::string> args = {STORE_CRASH_WRITER, directory, std::to_string(first),
                                   std::to_string(kWriterThreads)};
  if (ack_before_commit) args.emplace_back("--ack-before-commit");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::dup2(fds[1], STDOUT_FILENO);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(126);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(fds[1]);

  std::string received;
  char buf[4096];
  auto drain = [&](int timeout_ms) {
    pollfd p{fds[0], POLLIN, 0};
    if (::poll(&p, 1, timeout_ms) <= 0) return false;
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n <= 0) return false;
    received.append(buf, static_cast<std::size_t>(n));
    return true;
  };
  const auto deadline = Clock::now() + lifetime;
  for (auto now = Clock::now(); now < deadline; now = Clock::now()) {
    drain(static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(deadline - now).count()));
  }
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  while (drain(1000)) {
  }
  ::close(fds[0]);

  round.killed = WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
  round.exit_status = WIFEXITED(status) ? "exit " + std::to_string(WEXITSTATUS(status))
                                        : "signal " + std::to_string(WTERMSIG(status));
  // Every line was written whole by one write(2); a kill cannot leave half a line in the pipe.
  std::size_t start = 0;
  for (std::size_t nl = received.find('\n'); nl != std::string::npos; nl = received.find('\n', start)) {
    round.acknowledged.insert(std::stoull(received.substr(start, nl - start)));
    start = nl + 1;
  }
  return round;
}

// Reopens the store after a crash and checks it against everything acknowledged so far.
crash::CheckResult reopen_and_check(const std::string& directory,
                                    const std::set<std::uint64_t>& acknowledged) {
  crash::CheckResult result;
  auto kv = store::open_lmdb(directory);
  REQUIRE_MESSAGE(kv.ok(), (kv.ok() ? "" : kv.error().message));
  auto table = (*kv)->open_table(crash::kTableName);
  REQUIRE(table.ok());
  const core::Status status = (*kv)->read([&](const store::ReadTxn& txn) {
    result = crash::check_store(txn, *table, acknowledged);
    return core::Status{};
  });
  REQUIRE(status.ok());
  return result;
}

}  // namespace

TEST_SUITE("store_crash") {
  TEST_CASE("acknowledged writes survive SIGKILL at random moments and indexes agree with records") {
    store_test::TempDir dir;
    const auto seed = std::random_device{}();
    MESSAGE("seed ", seed);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> lifetime_ms(3, 200);

    const auto started = Clock::now();
    std::set<std::uint64_t> acknowledged;
    std::uint64_t next_n = 0, records = 0;
    for (int round = 0; round < kRounds; ++round) {
      CAPTURE(round);
      const auto lifetime = std::chrono::milliseconds(lifetime_ms(rng));
      CAPTURE(lifetime.count());
      const Round r = run_and_kill(dir.str(), next_n, lifetime, false);
      REQUIRE_MESSAGE(r.killed, "the writer ended by itself: ", r.exit_status);
      acknowledged.insert(r.acknowledged.begin(), r.acknowledged.end());

      const crash::CheckResult check = reopen_and_check(dir.str(), acknowledged);
      for (const auto& problem : check.problems) FAIL_CHECK(problem);
      REQUIRE(check.problems.empty());
      records = check.records;
      next_n = std::max(check.next_n, acknowledged.empty() ? 0 : *acknowledged.rbegin() + 1);
    }
    const auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started);
    MESSAGE(kRounds, " kills in ", elapsed.count(), " ms: ", acknowledged.size(), " acknowledged writes, ",
            records, " records stored");
    CHECK(acknowledged.size() >= 200);  // the rounds did real work
    CHECK(elapsed < 30s);
  }

  TEST_CASE("the crash check catches a writer that acknowledges before its commit") {
    store_test::TempDir dir;
    std::mt19937 rng(std::random_device{}());
    std::uniform_int_distribution<int> lifetime_ms(20, 200);
    std::set<std::uint64_t> acknowledged;
    std::uint64_t next_n = 0;
    bool caught = false;
    for (int round = 0; round < kRounds && !caught; ++round) {
      const Round r = run_and_kill(dir.str(), next_n, std::chrono::milliseconds(lifetime_ms(rng)), true);
      REQUIRE_MESSAGE(r.killed, "the writer ended by itself: ", r.exit_status);
      acknowledged.insert(r.acknowledged.begin(), r.acknowledged.end());
      const crash::CheckResult check = reopen_and_check(dir.str(), acknowledged);
      if (!check.problems.empty()) {
        caught = true;
        MESSAGE("caught in round ", round, ": ", check.problems.back());
      }
      next_n = std::max(check.next_n, acknowledged.empty() ? 0 : *acknowledged.rbegin() + 1);
    }
    CHECK(caught);
  }
}
