#pragma once
// A real dnsmasq serving a test zone on 127.0.0.1 and a free port (SERVICES.md, "DNS"). Everything under
// `example.test` is local: names it has no record for are NXDOMAIN; names outside it are REFUSED.

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

namespace test_dns {

class DnsmasqZone {
 public:
  // Starts dnsmasq with `records` (its own options: --txt-record=..., --cname=..., --mx-host=...) and waits
  // until it answers. Null, with the reason in `failure`, when it cannot be started. `port` 0 picks a free
  // one; a fixed port lets a server configured with it before see a zone replaced by a restart.
  static std::unique_ptr<DnsmasqZone> start(const std::vector<std::string>& records, std::string& failure,
                                            int port = 0);

  // Stops the server and reaps it. The child also gets SIGKILL when this process dies without running
  // destructors (PR_SET_PDEATHSIG), so no server outlives a crashed test.
  ~DnsmasqZone();
  DnsmasqZone(const DnsmasqZone&) = delete;
  DnsmasqZone& operator=(const DnsmasqZone&) = delete;

  std::string nameserver() const;  // "127.0.0.1:<port>"

 private:
  DnsmasqZone(pid_t pid, int port) : pid_(pid), port_(port) {}
  pid_t pid_;
  int port_;
};

// A localhost port with nothing bound to it for UDP or TCP at the time of the call (0 when none is found).
int free_port();

}  // namespace test_dns
