#pragma once
// A real dnsmasq serving a test zone on 127.0.0.1 and a free port (SERVICES.md, "DNS"). Everything under
// `example.test` is local: names it has no record for are NXDOMAIN; names outside it are REFUSED.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tests/native/child_process.h"

namespace test_dns {

class DnsmasqZone {
 public:
  // Starts dnsmasq with `records` (its own options: --txt-record=..., --cname=..., --mx-host=...) and waits
  // until it answers. Null, with the reason in `failure`, when it cannot be started. `port` 0 picks a free
  // one; a fixed port lets a server configured with it before see a zone replaced by a restart.
  static std::unique_ptr<DnsmasqZone> start(const std::vector<std::string>& records, std::string& failure,
                                            int port = 0);

  // Stops the server and reaps it. The server also dies with the thread that started it
  // (test_process::ChildProcess), so no server outlives a crashed test.
  ~DnsmasqZone();
  DnsmasqZone(const DnsmasqZone&) = delete;
  DnsmasqZone& operator=(const DnsmasqZone&) = delete;

  std::string nameserver() const;  // "127.0.0.1:<port>"

 private:
  DnsmasqZone(std::unique_ptr<test_process::ChildProcess> server, int port)
      : server_(std::move(server)), port_(port) {}
  std::unique_ptr<test_process::ChildProcess> server_;
  int port_;
};

// A localhost port with nothing bound to it for UDP or TCP at the time of the call (0 when none is found):
// test_process::free_tcp_udp_port.
int free_port();

}  // namespace test_dns
