#include "tests/native/child_process.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

namespace test_process {
namespace {

using Clock = std::chrono::steady_clock;

// Forks and execs. Between fork and exec the child only calls async-signal-safe functions: the parent may
// have other threads. `in_fd`, `out_fd` and `err_fd` (or -1 for /dev/null) become stdin, stdout and stderr.
pid_t spawn(const std::vector<std::string>& args, int in_fd, int out_fd, int err_fd) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(127);  // the parent died before prctl took effect
  const int null = ::open("/dev/null", O_RDWR);
  ::dup2(in_fd >= 0 ? in_fd : null, STDIN_FILENO);
  ::dup2(out_fd >= 0 ? out_fd : null, STDOUT_FILENO);
  ::dup2(err_fd >= 0 ? err_fd : null, STDERR_FILENO);
  ::execvp(argv[0], argv.data());  // an absolute path as is, a bare name on PATH
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

// Binds a socket of `type` to 127.0.0.1:`port` (0: any) and returns the bound port, or 0.
int bind_port(int type, int port) {
  const int fd = ::socket(AF_INET, type, 0);
  if (fd < 0) return 0;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  socklen_t len = sizeof addr;
  int bound = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
    bound = ntohs(addr.sin_port);
  ::close(fd);
  return bound;
}

}  // namespace

std::unique_ptr<ChildProcess> ChildProcess::start(const std::vector<std::string>& argv,
                                                  const StartOptions& options, std::string& failure) {
  int pipe_fds[2] = {-1, -1};
  if (options.capture_stdout && ::pipe2(pipe_fds, O_CLOEXEC) != 0) {
    failure = std::string("pipe: ") + std::strerror(errno);
    return nullptr;
  }
  int err_fd = -1;
  if (!options.stderr_path.empty())
    err_fd = ::open(options.stderr_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  const pid_t pid = spawn(argv, -1, pipe_fds[1], err_fd);
  if (pipe_fds[1] >= 0) ::close(pipe_fds[1]);
  if (err_fd >= 0) ::close(err_fd);
  if (pid < 0) {
    if (pipe_fds[0] >= 0) ::close(pipe_fds[0]);
    failure = std::string("fork: ") + std::strerror(errno);
    return nullptr;
  }
  return std::unique_ptr<ChildProcess>(new ChildProcess(pid, pipe_fds[0], options.stop_grace));
}

std::unique_ptr<ChildProcess> ChildProcess::start(const std::vector<std::string>& argv, bool capture_stdout,
                                                  const std::string& stderr_path, std::string& failure) {
  StartOptions options;
  options.capture_stdout = capture_stdout;
  options.stderr_path = stderr_path;
  return start(argv, options, failure);
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0) {
    ::kill(pid_, SIGTERM);
    int status = 0;
    if (reap_within(pid_, stop_grace_, status)) pid_ = -1;
  }
  kill();
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

void ChildProcess::kill() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
}

RunResult run(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
              const RunOptions& options) {
  RunResult result;
  int in_fd = -1;
  if (!options.stdin_path.empty()) {
    in_fd = ::open(options.stdin_path.c_str(), O_RDONLY | O_CLOEXEC);
    if (in_fd < 0) {
      result.output = options.stdin_path + ": " + std::strerror(errno);
      return result;
    }
  }
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) {
    if (in_fd >= 0) ::close(in_fd);
    return result;
  }
  const pid_t pid = spawn(argv, in_fd, options.capture_stdout ? pipe_fds[1] : -1, pipe_fds[1]);
  if (in_fd >= 0) ::close(in_fd);
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

int free_tcp_port() {
  return bind_port(SOCK_STREAM, 0);
}

int free_tcp_udp_port() {
  for (int i = 0; i < 20; ++i) {
    const int port = bind_port(SOCK_DGRAM, 0);
    if (port != 0 && bind_port(SOCK_STREAM, port) == port) return port;
  }
  return 0;
}

}  // namespace test_process
