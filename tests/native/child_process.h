#pragma once
// Child processes for tests: servers the tests start (the SMTP sink) and tools they run to completion (the
// python3-dkim verifier). No doctest here, so edge suites can link it too.

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace test_process {

// A running child. It gets SIGKILL when the thread that started it ends (PR_SET_PDEATHSIG fires on the
// starting thread's exit, not only the process's), so no server outlives a crashed test run: start
// long-lived children from the main thread or a thread that lives as long as they should.
class ChildProcess {
 public:
  // Runs `argv` (argv[0] an absolute path). stdin is /dev/null; stdout is a pipe read with read_line when
  // `capture_stdout`, else /dev/null; stderr goes to `stderr_path` (appended), or /dev/null when empty.
  // Null, with the reason in `failure`, when the process cannot be started.
  static std::unique_ptr<ChildProcess> start(const std::vector<std::string>& argv, bool capture_stdout,
                                             const std::string& stderr_path, std::string& failure);

  // SIGTERM, then SIGKILL if it has not exited after 2 s; always reaped.
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // The next line the child writes to stdout, without its LF; nullopt when `timeout` passes first, the
  // child closes stdout, or stdout is not captured.
  std::optional<std::string> read_line(std::chrono::milliseconds timeout);

  // Whether the child has exited (it is then reaped).
  bool exited();

  pid_t pid() const { return pid_; }

 private:
  ChildProcess(pid_t pid, int stdout_fd) : pid_(pid), stdout_fd_(stdout_fd) {}
  pid_t pid_;
  int stdout_fd_;
  std::string buffered_;
};

struct RunResult {
  int exit_code = -1;  // the exit status, 128 + the signal for a killed child, -1 if it could not start
  std::string output;  // stdout and stderr together
};

// Runs `argv` (argv[0] an absolute path) to completion; it is killed after `timeout`.
RunResult run(const std::vector<std::string>& argv, std::chrono::milliseconds timeout);

}  // namespace test_process
