#include "edge_process.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

extern char** environ;

namespace testing {

core::json::object parse_object(const std::string& text) {
  auto v = core::parse_json_object(text);
  REQUIRE_MESSAGE(v.ok(), "not a JSON object: " << text);
  return *v;
}

httplib::Client client_for(int port, const std::string& token) {
  httplib::Client c("127.0.0.1", port);
  c.set_bearer_token_auth(token);
  c.set_tcp_nodelay(true);
  c.set_connection_timeout(2, 0);
  c.set_read_timeout(5, 0);
  return c;
}
namespace {
std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream buf;
  buf << in.rdbuf();
  return buf.str();
}
}  // namespace

Run run(const std::string& command) {
  Run r;
  FILE* p = ::popen(command.c_str(), "r");
  REQUIRE(p);
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int status = ::pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

EdgeProcess::EdgeProcess(const std::string& work_dir, const std::string& data_dir,
                         const std::vector<std::string>& extra, const std::vector<std::string>& env)
    : dir(work_dir) {
  std::string port_file = dir + "/port";
  std::remove(port_file.c_str());
  std::vector<std::string> args = {EDGE_BIN, "--listen",    "127.0.0.1:0", "--data-dir",
                                   data_dir, "--port-file", port_file};
  args.insert(args.end(), extra.begin(), extra.end());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  std::string out_file = dir + "/edge.out", log_file = dir + "/edge.log";
  posix_spawn_file_actions_addopen(&actions, 1, out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, 2, log_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::vector<std::string> env_entries = env;
  std::vector<char*> envp;
  for (char** e = environ; *e != nullptr; ++e) envp.push_back(*e);
  for (auto& e : env_entries) envp.push_back(e.data());
  envp.push_back(nullptr);
  REQUIRE(posix_spawn(&pid, EDGE_BIN, &actions, nullptr, argv.data(), envp.data()) == 0);
  posix_spawn_file_actions_destroy(&actions);
  for (int i = 0; i < 200 && port == 0; ++i) {
    std::ifstream in(port_file);
    if (!(in >> port)) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  REQUIRE_MESSAGE(port > 0, "edge did not report a port; its log:\n" << log());
}

EdgeProcess::~EdgeProcess() {
  if (pid > 0) stop(SIGKILL);
}

int EdgeProcess::stop(int signal) {
  int status = 0;
  if (pid <= 0) return status;
  ::kill(pid, signal);
  ::waitpid(pid, &status, 0);
  pid = 0;
  return status;
}

std::string EdgeProcess::log() const {
  return read_file(dir + "/edge.log");
}

std::string EdgeProcess::output() const {
  return read_file(dir + "/edge.out");
}

}  // namespace testing
