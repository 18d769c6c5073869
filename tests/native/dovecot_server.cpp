#include "dovecot_server.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include <sodium.h>

#include "native/imap/dovecot_users.h"

namespace test_imap {
namespace {

using namespace std::chrono_literals;

// True once the port accepts and sends Dovecot's greeting.
bool greets(int port) {
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
    ok = ::recv(fd, buffer, sizeof buffer - 1, 0) > 4 && std::string(buffer).starts_with("* OK");
  }
  ::close(fd);
  return ok;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::string random_hex(std::size_t bytes) {
  std::vector<unsigned char> raw(bytes);
  randombytes_buf(raw.data(), raw.size());
  std::string hex(bytes * 2 + 1, '\0');
  sodium_bin2hex(hex.data(), hex.size(), raw.data(), raw.size());
  hex.pop_back();
  return hex;
}

}  // namespace

std::unique_ptr<DovecotServer> DovecotServer::start(std::string& failure) {
  if (sodium_init() < 0) {
    failure = "libsodium cannot start";
    return nullptr;
  }
  static std::atomic<int> counter{0};
  std::unique_ptr<DovecotServer> server(new DovecotServer());
  server->layout_.base_dir = "/tmp/dovecot_" + std::to_string(::getpid()) + "_" + std::to_string(counter++);
  server->layout_.mail_uid = "nobody";
  server->layout_.mail_gid = "nogroup";
  std::error_code ignored;
  std::filesystem::remove_all(server->layout_.base_dir, ignored);

  // The port may be taken between free_tcp_port() and Dovecot's bind; a few attempts cover that race.
  for (int attempt = 0; attempt < 3; ++attempt) {
    server->layout_.imap_port = test_process::free_tcp_port();
    if (auto installed = native::imap::install_dovecot_layout(server->layout_); !installed.ok()) {
      failure = installed.error().message;
      return nullptr;
    }
    auto paths = server->paths();
    server->master_password_ = random_hex(32);
    auto master = native::imap::write_master_file(
        paths.master_users_file, kMasterUser, native::imap::hash_master_password(server->master_password_));
    if (!master.ok()) {
      failure = master.error().message;
      return nullptr;
    }
    test_process::StartOptions options;
    options.stop_grace = 5s;
    server->dovecot_ = test_process::ChildProcess::start({"/usr/sbin/dovecot", "-F", "-c", paths.config_file},
                                                         options, failure);
    if (server->dovecot_ == nullptr) break;
    for (int i = 0; i < 100 && !server->dovecot_->exited(); ++i) {
      if (greets(server->port())) return server;
      std::this_thread::sleep_for(50ms);
    }
    failure =
        "Dovecot did not greet on port " + std::to_string(server->port()) + "; log:\n" + server->log_tail();
    server->dovecot_->kill();
  }
  if (failure.empty()) failure = "could not start Dovecot";
  return nullptr;
}

DovecotServer::~DovecotServer() {
  dovecot_.reset();  // stopped before its folder goes
  std::error_code ignored;
  std::filesystem::remove_all(layout_.base_dir, ignored);
}

bool DovecotServer::running() const {
  return dovecot_ != nullptr && !dovecot_->exited();
}

native::imap::ImapAccount DovecotServer::account(const std::string& address) const {
  return native::imap::ImapAccount{"127.0.0.1", port(), native::imap::master_login(address, kMasterUser),
                                   master_password_, std::chrono::milliseconds(10000)};
}

Delivery DovecotServer::deliver(const std::string& address, const std::string& raw_message,
                                const std::string& sender) const {
  static std::atomic<int> counter{0};
  std::string stem = layout_.base_dir + "/delivery_" + std::to_string(counter++);
  {
    std::ofstream out(stem + ".eml", std::ios::binary);
    out << raw_message;
  }
  test_process::RunOptions options;
  options.stdin_path = stem + ".eml";
  options.capture_stdout = false;  // the reason is on stderr
  auto result = test_process::run(
      {"/usr/lib/dovecot/dovecot-lda", "-c", paths().config_file, "-e", "-d", address, "-f", sender},
      std::chrono::seconds(60), options);
  std::error_code ignored;
  std::filesystem::remove(stem + ".eml", ignored);
  return Delivery{result.exit_code, std::move(result.output)};
}

std::string DovecotServer::log() const {
  return read_file(paths().log_file);
}

std::string DovecotServer::log_tail() const {
  std::string all = log();
  return all.size() > 2000 ? all.substr(all.size() - 2000) : all;
}

void DovecotServer::wait_for_passwd_reload() {
  std::time_t now = std::time(nullptr);
  while (std::time(nullptr) <= now) std::this_thread::sleep_for(20ms);
  std::this_thread::sleep_for(20ms);
}

}  // namespace test_imap
