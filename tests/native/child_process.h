#pragma once
// Child processes for tests: servers the tests start (the SMTP sink, dnsmasq, Dovecot) and tools they run
// to completion (the python3-dkim verifier, dovecot-lda), and free loopback ports for the servers. No
// doctest here, so edge suites can link it too.

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace test_process {

// How ChildProcess::start sets up a child. Streams not given are /dev/null.
struct StartOptions {
  bool capture_stdout = false;  // stdout is a pipe read with read_line
  std::string stderr_path;      // stderr is appended to this file
  // How long the destructor waits after SIGTERM before SIGKILL.
  std::chrono::milliseconds stop_grace = std::chrono::seconds(2);
};

// A running child. It gets SIGKILL when the thread that started it ends (PR_SET_PDEATHSIG fires on the
// starting thread's exit, not only the process's), so no server outlives a crashed test run: start
// long-lived children from the main thread or a thread that lives as long as they should.
class ChildProcess {
 public:
  // Runs `argv` (argv[0] an absolute path, or a bare name looked up on PATH) as `options` say. Null, with
  // the reason in `failure`, when the process cannot be started (an exec failure is an exit status 127).
  static std::unique_ptr<ChildProcess> start(const std::vector<std::string>& argv,
                                             const StartOptions& options, std::string& failure);
  // The same with stdout captured or not, stderr to `stderr_path` (appended), or /dev/null when empty.
  static std::unique_ptr<ChildProcess> start(const std::vector<std::string>& argv, bool capture_stdout,
                                             const std::string& stderr_path, std::string& failure);

  // SIGTERM, then kill() if it has not exited after the options' stop_grace; always reaped.
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // The next line the child writes to stdout, without its LF; nullopt when `timeout` passes first, the
  // child closes stdout, or stdout is not captured.
  std::optional<std::string> read_line(std::chrono::milliseconds timeout);

  // Whether the child has exited (it is then reaped).
  bool exited();

  // SIGKILL now and reap, unless it has been reaped already.
  void kill();

  pid_t pid() const { return pid_; }  // -1 once reaped

 private:
  ChildProcess(pid_t pid, int stdout_fd, std::chrono::milliseconds stop_grace)
      : pid_(pid), stdout_fd_(stdout_fd), stop_grace_(stop_grace) {}
  pid_t pid_;
  int stdout_fd_;
  std::chrono::milliseconds stop_grace_;
  std::string buffered_;
};

// How run sets up a child.
struct RunOptions {
  std::string stdin_path;      // stdin reads this file; /dev/null when empty
  bool capture_stdout = true;  // output holds stdout and stderr together; only stderr when false
};

struct RunResult {
  int exit_code = -1;  // the exit status, 128 + the signal for a killed child, -1 if it could not start
  std::string output;  // stdout and stderr together (only stderr without capture_stdout)
};

// Runs `argv` (argv[0] as for ChildProcess::start) to completion; it is killed after `timeout`. The child
// gets SIGKILL if the calling thread ends first.
RunResult run(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
              const RunOptions& options = {});

// A 127.0.0.1 port nothing was bound to for TCP at the time of the call (0 when none is found).
int free_tcp_port();
// A 127.0.0.1 port nothing was bound to for UDP or TCP at the time of the call (0 when none is found).
int free_tcp_udp_port();

}  // namespace test_process
