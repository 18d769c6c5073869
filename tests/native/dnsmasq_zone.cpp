#include "dnsmasq_zone.h"

#include <unistd.h>

#include <chrono>
#include <thread>

#include "native/dns/resolver.h"

namespace test_dns {
namespace {

// Polls until the server answers a name of its zone, for 10 s at most; false when it exits first.
bool wait_until_answering(test_process::ChildProcess& server, const std::string& nameserver) {
  auto resolver = native::dns::make_ldns_resolver({nameserver, std::chrono::milliseconds(200), 1});
  if (!resolver.ok()) return false;
  for (int i = 0; i < 50; ++i) {
    if (server.exited()) return false;
    if ((*resolver)->txt("ready.example.test").ok()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

}  // namespace

int free_port() {
  return test_process::free_tcp_udp_port();
}

std::unique_ptr<DnsmasqZone> DnsmasqZone::start(const std::vector<std::string>& records, std::string& failure,
                                                int fixed_port) {
  // /usr/sbin/dnsmasq, else whichever dnsmasq is on PATH.
  const std::string program = ::access("/usr/sbin/dnsmasq", X_OK) == 0 ? "/usr/sbin/dnsmasq" : "dnsmasq";
  // The port may be taken between free_port() and dnsmasq's bind; a few attempts cover that race.
  for (int attempt = 0; attempt < 3; ++attempt) {
    int port = fixed_port ? fixed_port : free_port();
    if (port == 0) continue;
    std::vector<std::string> args = {program,
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
    // stdin, stdout and stderr /dev/null: the test output stays clean.
    auto server = test_process::ChildProcess::start(args, false, "", failure);
    if (server == nullptr) break;
    std::unique_ptr<DnsmasqZone> zone(new DnsmasqZone(std::move(server), port));
    if (wait_until_answering(*zone->server_, zone->nameserver())) return zone;
    failure = "dnsmasq did not answer on port " + std::to_string(port);
  }
  if (failure.empty()) failure = "could not start dnsmasq";
  return nullptr;
}

DnsmasqZone::~DnsmasqZone() = default;

std::string DnsmasqZone::nameserver() const {
  return "127.0.0.1:" + std::to_string(port_);
}

}  // namespace test_dns
