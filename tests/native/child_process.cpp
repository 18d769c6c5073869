#include "tests/native/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

namespace test_process {
namespace {

using Clock = std::chrono::steady_clock;

// Forks and execs. Between fork and exec the child only calls async-signal-safe functions: the parent may
// have other threads. `out_fd` and `err_fd` (or -1 for /dev/null) become stdout and stderr.
pid_t spawn(const std::vector<std::string>& args, int out_fd, int err_fd) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(127);  // the parent died before prctl took effect
  const int null = ::open("/dev/null", O_RDWR);
  ::dup2(null, STDIN_FILENO);
  ::dup2(out_fd >= 0 ? out_fd : null, STDOUT_FILENO);
  ::dup2(err_fd >= 0 ? err_fd : null, STDERR_FILENO);
  ::execv(argv[0], argv.data());
  ::_exit(127);
}

int exit_code(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

// Waits for `pid` to exit for up to `timeout`; true when reaped.
bool reap_within(pid_t pid, std::chrono::milliseconds timeout, int& status) {
  const auto deadline = Clock::now() + timeout;
  while (true) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid || (done < 0 && errno == ECHILD)) return true;
    if (Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace

std::unique_ptr<ChildProcess> ChildProcess::start(const std::vector<std::string>& argv, bool capture_stdout,
                                                  const std::string& stderr_path, std::string& failure) {
  int pipe_fds[2] = {-1, -1};
  if (capture_stdout && ::pipe2(pipe_fds, O_CLOEXEC) != 0) {
    failure = std::string("pipe: ") + std::strerror(errno);
    return nullptr;
  }
  int err_fd = -1;
  if (!stderr_path.empty())
    err_fd = ::open(stderr_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  const pid_t pid = spawn(argv, pipe_fds[1], err_fd);
  if (pipe_fds[1] >= 0) ::close(pipe_fds[1]);
  if (err_fd >= 0) ::close(err_fd);
  if (pid < 0) {
    if (pipe_fds[0] >= 0) ::close(pipe_fds[0]);
    failure = std::string("fork: ") + std::strerror(errno);
    return nullptr;
  }
  return std::unique_ptr<ChildProcess>(new ChildProcess(pid, pipe_fds[0]));
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0) {
    ::kill(pid_, SIGTERM);
    int status = 0;
    if (!reap_within(pid_, std::chrono::seconds(2), status)) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, &status, 0);
    }
  }
  if (stdout_fd_ >= 0) ::close(stdout_fd_);
}

std::optional<std::string> ChildProcess::read_line(std::chrono::milliseconds timeout) {
  if (stdout_fd_ < 0) return std::nullopt;
  const auto deadline = Clock::now() + timeout;
  while (true) {
    if (auto eol = buffered_.find('\n'); eol != std::string::npos) {
      std::string line = buffered_.substr(0, eol);
      buffered_.erase(0, eol + 1);
      return line;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return std::nullopt;
    pollfd fd{stdout_fd_, POLLIN, 0};
    if (::poll(&fd, 1, static_cast<int>(left.count())) <= 0) continue;
    char chunk[512];
    const ssize_t n = ::read(stdout_fd_, chunk, sizeof chunk);
    if (n <= 0) return std::nullopt;  // closed: the child exited
    buffered_.append(chunk, static_cast<std::size_t>(n));
  }
}

bool ChildProcess::exited() {
  int status = 0;
  if (pid_ > 0 && ::waitpid(pid_, &status, WNOHANG) == pid_) pid_ = -1;
  return pid_ <= 0;
}

RunResult run(const std::vector<std::string>& argv, std::chrono::milliseconds timeout) {
  RunResult result;
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) return result;
  const pid_t pid = spawn(argv, pipe_fds[1], pipe_fds[1]);
  ::close(pipe_fds[1]);
  if (pid < 0) {
    ::close(pipe_fds[0]);
    return result;
  }
  const auto deadline = Clock::now() + timeout;
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    pollfd fd{pipe_fds[0], POLLIN, 0};
    const int ready = left.count() > 0 ? ::poll(&fd, 1, static_cast<int>(left.count())) : 0;
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) {
      ::kill(pid, SIGKILL);
      result.output += "\n[killed after the timeout]";
      break;
    }
    char chunk[4096];
    const ssize_t n = ::read(pipe_fds[0], chunk, sizeof chunk);
    if (n <= 0) break;
    result.output.append(chunk, static_cast<std::size_t>(n));
  }
  ::close(pipe_fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  result.exit_code = exit_code(status);
  return result;
}

}  // namespace test_process
