#include "dnsmasq_zone.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "native/dns/resolver.h"

namespace test_dns {
namespace {

// Binds a socket of `type` to 127.0.0.1:`port` (0: any) and returns the bound port, or 0.
int bind_port(int type, int port) {
  int fd = ::socket(AF_INET, type, 0);
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

pid_t spawn(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t parent = ::getpid();
  pid_t pid = ::fork();
  if (pid != 0) return pid;
  // Child: die with the test process; keep the test output clean.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(127);
  int null = ::open("/dev/null", O_RDWR);
  ::dup2(null, STDIN_FILENO);
  ::dup2(null, STDOUT_FILENO);
  ::dup2(null, STDERR_FILENO);
  ::execv(argv[0], argv.data());
  ::execvp("dnsmasq", argv.data());
  ::_exit(127);
}

void stop(pid_t pid) {
  ::kill(pid, SIGTERM);
  int status = 0;
  ::waitpid(pid, &status, 0);
}

enum class Startup { answering, silent, exited };

// Polls until the server answers a name of its zone, for 10 s at most.
Startup wait_until_answering(pid_t pid, const std::string& nameserver) {
  auto resolver = native::dns::make_ldns_resolver({nameserver, std::chrono::milliseconds(200), 1});
  if (!resolver.ok()) return Startup::silent;
  for (int i = 0; i < 50; ++i) {
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) return Startup::exited;
    if ((*resolver)->txt("ready.example.test").ok()) return Startup::answering;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return Startup::silent;
}

}  // namespace

int free_port() {
  for (int i = 0; i < 20; ++i) {
    int port = bind_port(SOCK_DGRAM, 0);
    if (port != 0 && bind_port(SOCK_STREAM, port) == port) return port;
  }
  return 0;
}

std::unique_ptr<DnsmasqZone> DnsmasqZone::start(const std::vector<std::string>& records,
                                                std::string& failure, int fixed_port) {
  // The port may be taken between free_port() and dnsmasq's bind; a few attempts cover that race.
  for (int attempt = 0; attempt < 3; ++attempt) {
    int port = fixed_port ? fixed_port : free_port();
    if (port == 0) continue;
    std::vector<std::string> args = {"/usr/sbin/dnsmasq",
                                     "--conf-file=/dev/null",
                                     "--no-hosts",
                                     "--no-resolv",
                                     "--no-poll",
                                     "--bind-interfaces",
                                     "--listen-address=127.0.0.1",
                                     "--port=" + std::to_string(port),
                                     "--local=/example.test/",
                                     "--pid-file=",
                                     "--user=nobody",
                                     "--group=nogroup",
                                     "--no-daemon",
                                     "--txt-record=ready.example.test,ready"};
    args.insert(args.end(), records.begin(), records.end());
    pid_t pid = spawn(args);
    if (pid < 0) break;
    std::unique_ptr<DnsmasqZone> zone(new DnsmasqZone(pid, port));
    auto startup = wait_until_answering(pid, zone->nameserver());
    if (startup == Startup::answering) return zone;
    if (startup == Startup::exited) zone->pid_ = -1;  // already reaped
    failure = "dnsmasq did not answer on port " + std::to_string(port);
  }
  if (failure.empty()) failure = "could not start dnsmasq";
  return nullptr;
}

DnsmasqZone::~DnsmasqZone() {
  if (pid_ > 0) stop(pid_);
}

std::string DnsmasqZone::nameserver() const {
  return "127.0.0.1:" + std::to_string(port_);
}

}  // namespace test_dns
