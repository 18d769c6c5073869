#pragma once
// The edge and edge-admin executables as an operator runs them, for process-level tests: a command line with
// its output, and an edge process started on a free port whose standard output and error go to files.

#include <httplib.h>
#include <sys/types.h>

#include <string>
#include <vector>

#include "core/json.h"

namespace testing {

// The body of an answer that must be a JSON object (a test failure otherwise, quoting it).
core::json::object parse_object(const std::string& text);

// A client of a process-level test: keep-alive off by default, Nagle off, bearer `token`, short timeouts
// (a killed server must fail the request, not hang it).
httplib::Client client_for(int port, const std::string& token);

struct Run {
  int exit_code = -1;
  std::string out;
};

// Runs a shell command line, capturing standard output.
Run run(const std::string& command);

// `edge --listen 127.0.0.1:0 --data-dir <data_dir> --port-file <dir>/port <extra...>`, stdout to
// `<dir>/edge.out`, stderr to `<dir>/edge.log`, with this process's environment plus `env` ("NAME=value").
// The constructor waits (up to 10 s) for the port; the destructor kills the process if it still runs.
struct EdgeProcess {
  EdgeProcess(const std::string& dir, const std::string& data_dir, const std::vector<std::string>& extra = {},
              const std::vector<std::string>& env = {});
  ~EdgeProcess();
  EdgeProcess(const EdgeProcess&) = delete;
  EdgeProcess& operator=(const EdgeProcess&) = delete;

  // Sends `signal` and reaps the process; answers its wait status.
  int stop(int signal);
  std::string log() const;     // what it wrote to stderr so far
  std::string output() const;  // what it wrote to stdout so far

  std::string dir;
  pid_t pid = 0;
  int port = 0;
};

}  // namespace testing
