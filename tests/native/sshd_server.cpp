#include "tests/native/sshd_server.h"

#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace test_ssh {
namespace {

using namespace std::chrono_literals;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// True once the port sends an SSH identification string.
bool sends_banner(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return false;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  timeval timeout{1, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  bool ok = false;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
    char buffer[64] = {};
    ok = ::recv(fd, buffer, sizeof buffer - 1, 0) > 4 && std::string(buffer).starts_with("SSH-");
  }
  ::close(fd);
  return ok;
}

// The second field of `ssh-keygen -lf <file>`: `256 SHA256:... comment (ED25519)`.
std::string fingerprint_of(const std::string& public_key_path, std::string& failure) {
  const auto listed = test_process::run({"ssh-keygen", "-l", "-E", "sha256", "-f", public_key_path}, 10s);
  std::istringstream fields(listed.output);
  std::string bits, fingerprint;
  fields >> bits >> fingerprint;
  if (listed.exit_code != 0 || !fingerprint.starts_with("SHA256:")) {
    failure = "ssh-keygen -lf failed: " + listed.output;
    return {};
  }
  return fingerprint;
}

}  // namespace

KeyPair generate_key(const std::string& path, const std::string& type, const std::string& passphrase,
                     bool pem_format, std::string& failure) {
  std::filesystem::remove(path);
  std::filesystem::remove(path + ".pub");
  std::vector<std::string> argv = {"ssh-keygen", "-q", "-t",           type, "-N",
                                   passphrase,   "-C", "restart-test", "-f", path};
  if (type == "rsa") argv.insert(argv.end(), {"-b", "2048"});
  if (pem_format) argv.insert(argv.end(), {"-m", "PEM"});
  const auto made = test_process::run(argv, 60s);
  KeyPair pair;
  if (made.exit_code != 0) {
    failure = "ssh-keygen failed (" + std::to_string(made.exit_code) + "): " + made.output;
    return pair;
  }
  pair.fingerprint = fingerprint_of(path + ".pub", failure);
  if (pair.fingerprint.empty()) return pair;
  pair.privateKey = read_file(path);
  pair.publicKeyLine = read_file(path + ".pub");
  return pair;
}

std::unique_ptr<SshdServer> SshdServer::start(std::string& failure) {
  std::unique_ptr<SshdServer> server(new SshdServer());
  static std::atomic<int> counter{0};
  server->dir_ = (std::filesystem::temp_directory_path() /
                  ("restart_sshd_" + std::to_string(::getpid()) + "_" + std::to_string(counter++)))
                     .string();
  std::filesystem::remove_all(server->dir_);
  std::filesystem::create_directories(server->dir_);
  const passwd* account = ::getpwuid(::geteuid());
  if (account == nullptr) {
    failure = "the current user has no passwd entry";
    return nullptr;
  }
  server->user_ = account->pw_name;
  if (::geteuid() != 0) {
    failure = "sshd needs root to start (running as " + server->user_ + ")";
    return nullptr;
  }
  if (!std::filesystem::exists("/usr/sbin/sshd")) {
    failure = "/usr/sbin/sshd is missing: install openssh-server";
    return nullptr;
  }
  // sshd refuses to start without its privilege separation folder; the package's service would make it.
  ::mkdir("/run/sshd", 0755);

  const std::string& d = server->dir_;
  const KeyPair host = generate_key(d + "/host_ed25519", "ed25519", "", false, failure);
  if (host.privateKey.empty()) return nullptr;
  server->host_fingerprint_ = host.fingerprint;
  ::chmod((d + "/host_ed25519").c_str(), 0600);
  std::ofstream(d + "/authorized_keys") << "";
  server->port_ = test_process::free_tcp_port();
  if (server->port_ == 0) {
    failure = "no free port";
    return nullptr;
  }
  std::ofstream(d + "/sshd_config") << "ListenAddress 127.0.0.1\n"
                                    << "Port " << server->port_ << "\n"
                                    << "HostKey " << d << "/host_ed25519\n"
                                    << "PidFile " << d << "/sshd.pid\n"
                                    << "AuthorizedKeysFile " << d << "/authorized_keys\n"
                                    << "StrictModes no\n"
                                    << "UsePAM no\n"
                                    << "PasswordAuthentication no\n"
                                    << "KbdInteractiveAuthentication no\n"
                                    << "PubkeyAuthentication yes\n"
                                    << "PermitRootLogin prohibit-password\n"
                                    << "LogLevel VERBOSE\n";
  server->sshd_ = test_process::ChildProcess::start({"/usr/sbin/sshd", "-D", "-e", "-f", d + "/sshd_config"},
                                                    false, d + "/sshd.log", failure);
  if (server->sshd_ == nullptr) return nullptr;
  for (int i = 0; i < 100; ++i) {
    if (sends_banner(server->port_)) return server;
    if (server->sshd_->exited()) break;
    std::this_thread::sleep_for(50ms);
  }
  failure = "sshd did not come up on port " + std::to_string(server->port_) + ": " + server->log_tail();
  return nullptr;
}

SshdServer::~SshdServer() {
  sshd_.reset();
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

void SshdServer::authorize(const std::string& public_key_line) {
  std::ofstream(dir_ + "/authorized_keys", std::ios::app) << public_key_line;
}

std::string SshdServer::log_tail() const {
  const std::string log = read_file(dir_ + "/sshd.log");
  return log.size() > 2000 ? log.substr(log.size() - 2000) : log;
}

}  // namespace test_ssh
