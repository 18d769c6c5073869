// mail_load: accepted sends per second with durable queueing, and delivery throughput to a local SMTP
// capture server (docs/performance.md, "Mail").
//
// One process: a real edge (EdgeServer, LMDB on disk in --data, the system clock) on a loopback port, and
// --clients threads with keep-alive connections. Every answered send is durable: its log, content and outbox
// job were committed (fsync'd) before the 201.
//
//   raw       POST /send in raw mode (subject, html, text; one recipient) for --seconds
//   template  POST /send in template mode (a receipt template with an items section) for --seconds
//   deliver   the outbox the phases above filled is delivered by --workers delivery threads, through
//             SMTP, to tests/native/smtp_sink.py (python3-aiosmtpd, one file per message), DKIM-signed;
//             the rate is of messages the sink acknowledged
//
// The edge runs without delivery threads during the send phases, so they measure accepting alone; rate
// limits are lifted (the mail limit would otherwise allow 10 sends per second).

#include <spdlog/spdlog.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <csignal>
#include <filesystem>
#include <iostream>

#include "bench/load_phase.h"
#include "core/date.h"
#include "edge/mail/delivery_worker.h"
#include "edge/mail/domains.h"
#include "edge/mail/mail_store.h"
#include "edge/server.h"
#include "native/os/system_clock.h"
#include "native/os/system_random.h"

namespace {

namespace json = core::json;
using bench::Clock;
using bench::ms_since;

struct Setup {
  std::string token, company_id, domain_id, template_id;
};

Setup seed(edge::EdgeServer& server) {
  Setup s;
  auto& app = server.app();
  auto company = app.accounts->create_company("bench", "Bench Mail");
  if (!company) {
    std::cerr << "mail_load: " << company.error().message << " (use an empty --data)\n";
    std::exit(1);
  }
  s.company_id = company->id;
  s.token =
      app.accounts
          ->create_token(*company, "bench", {"domains.manage", "templates.manage", "send.execute"}, nullptr)
          ->plaintext;
  auto domain = edge::mail::create_domain(app, s.company_id, "bench.example.test");
  if (!domain) {
    std::cerr << "mail_load: " << domain.error().message << "\n";
    std::exit(1);
  }
  // Verified without DNS: the benchmark measures sending, not verification.
  domain->status = core::mail::DomainStatus::verified;
  (void)app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    edge::mail::put_object(txn, app.mail_table, edge::mail::company_key(s.company_id, "domain", domain->id),
                           edge::mail::to_record(*domain));
    txn.erase(app.mail_table, "domain-recheck/" + s.company_id + "/" + domain->id);
    return {};
  });
  s.domain_id = domain->id;
  httplib::Client c("127.0.0.1", server.port());
  c.set_bearer_token_auth(s.token);
  auto t = c.Post("/api/companies/bench/templates", R"({"name":"Receipt","domainId":")" + s.domain_id + R"(",
                      "subject":{"en":"Your receipt {order}","tr":"Fişiniz {order}"},
                      "body":{"en":"<h1>Thanks {name}</h1><table>{#items}<tr><td>{title}</td><td>{qty}</td><td>{price}</td></tr>{/items}</table>{^paid}<p>Unpaid</p>{/^paid}<p>Total {total}</p>"}})",
                  "application/json");
  if (!t || t->status != 201) {
    std::cerr << "mail_load: template: " << (t ? t->body : "no answer") << "\n";
    std::exit(1);
  }
  s.template_id = std::string(core::parse_json_object(t->body)->at("data").at("id").as_string());
  return s;
}

std::int64_t outbox_size(edge::App& app) {
  std::int64_t n = 0;
  (void)app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    txn.scan(app.mail_table, "outbox/", [&](std::string_view, std::string_view) {
      ++n;
      return true;
    });
    return {};
  });
  return n;
}

// The capture server of the tests, on a port it prints.
struct Sink {
  pid_t pid = -1;
  int port = 0;
  std::string maildir;

  bool start(const std::string& script, const std::string& dir) {
    maildir = dir + "/Maildir";
    int out[2];
    if (pipe(out) != 0) return false;
    pid = fork();
    if (pid == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      dup2(out[1], 1);
      close(out[0]);
      execl("/usr/bin/python3", "python3", script.c_str(), maildir.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    close(out[1]);
    std::string line;
    char ch;
    while (read(out[0], &ch, 1) == 1 && ch != '\n') line += ch;
    close(out[0]);
    port = std::atoi(line.c_str());
    return port > 0;
  }
  std::int64_t received() const {
    std::error_code ec;
    std::int64_t n = 0;
    for (auto it = std::filesystem::directory_iterator(maildir + "/new", ec);
         !ec && it != std::filesystem::directory_iterator(); it.increment(ec))
      ++n;
    return n;
  }
  ~Sink() {
    if (pid > 0) {
      kill(pid, SIGTERM);
      waitpid(pid, nullptr, 0);
    }
  }
};

// 1 for a 201; otherwise 0, and the first refusal is printed (a benchmark of failures measures nothing).
int sent(const httplib::Result& res) {
  if (res && res->status == 201) return 1;
  static std::once_flag once;
  std::call_once(once, [&] {
    std::fprintf(stderr, "mail_load: a send failed: %s\n",
                 res ? (std::to_string(res->status) + " " + res->body).c_str()
                     : httplib::to_string(res.error()).c_str());
  });
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{
      "mail_load: accepted sends per second with durable queueing, and SMTP delivery throughput "
      "(docs/performance.md)."};
  std::string data, phases = "raw,template,deliver", sink_script = "tests/native/smtp_sink.py";
  int clients = 64, server_threads = 128, workers = 16;
  double seconds = 10;
  std::int64_t deliver_max = 20'000;
  cli.add_option("--data", data,
                 "empty data directory on the disk to measure (default: a new one under ./build)");
  cli.add_option("--clients", clients, "concurrent HTTP clients (default 64)");
  cli.add_option("--seconds", seconds, "length of each send phase (default 10)");
  cli.add_option("--server-threads", server_threads, "edge worker threads (default 128)");
  cli.add_option("--workers", workers, "delivery threads of the deliver phase (default 16)");
  cli.add_option("--deliver-max", deliver_max, "messages left queued for the deliver phase (default 20000)");
  cli.add_option("--sink", sink_script, "the SMTP capture server script (default tests/native/smtp_sink.py)");
  cli.add_option("--phases", phases, "comma-separated: raw,template,deliver");
  CLI11_PARSE(cli, argc, argv);

  edge::Config config = bench::load_config(data, "mail-load", server_threads);
  config.mail.rate_limit = {1'000'000'000, 1000};
  config.mail.delivery_workers = 0;  // the send phases measure accepting alone
  native::SystemClock clock;
  native::SystemRandom random;
  auto server = edge::EdgeServer::start(config, clock, random);
  if (!server) {
    std::cerr << "mail_load: " << server.error().message << "\n";
    return 1;
  }
  edge::App& app = (*server)->app();
  const int port = (*server)->port();
  Setup s = seed(**server);
  bench::CommitMeter commits(app);

  const std::string raw_head =
      R"({"domainId":")" + s.domain_id +
      R"(","from":"Bench <hello@bench.example.test>","subject":"Your order has shipped",)"
      R"("text":"Your order is on its way.","html":")" +
      std::string(900, 'x') + R"(","to":"customer-)";
  if (phases.find("raw") != std::string::npos) {
    auto r =
        bench::run_phase(port, s.token, clients, seconds, [&](httplib::Client& c, int t, std::int64_t i) {
          auto res = c.Post("/api/companies/bench/send",
                            raw_head + std::to_string(t) + "-" + std::to_string(i) + R"(@example.net"})",
                            "application/json");
          return sent(res);
        });
    bench::report_phase("raw", r, clients);
    commits.print();
  }
  const std::string tpl_head =
      R"({"domainId":")" + s.domain_id + R"(","from":"hello@bench.example.test","templateId":")" +
      s.template_id +
      R"(","locale":"en","variables":{"order":"A-1042","name":"Ayşe","total":"1.250,00 TL",)"
      R"("items":[{"title":"Çay","qty":2,"price":"40,00"},{"title":"Simit","qty":3,"price":"60,00"},)"
      R"({"title":"Börek","qty":1,"price":"150,00"}]},"to":"customer-)";
  if (phases.find("template") != std::string::npos) {
    auto r =
        bench::run_phase(port, s.token, clients, seconds, [&](httplib::Client& c, int t, std::int64_t i) {
          auto res = c.Post("/api/companies/bench/send",
                            tpl_head + std::to_string(t) + "-" + std::to_string(i) + R"(@example.net"})",
                            "application/json");
          return sent(res);
        });
    bench::report_phase("template", r, clients);
    commits.print();
  }
  if (phases.find("deliver") != std::string::npos) {
    // Keep --deliver-max jobs: erase the rest of the outbox (the send phases may have queued far more).
    std::int64_t queued = outbox_size(app);
    if (queued > deliver_max) {
      std::vector<std::string> extra;
      (void)app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
        std::int64_t n = 0;
        txn.scan(app.mail_table, "outbox/", [&](std::string_view k, std::string_view) {
          if (++n > deliver_max) extra.emplace_back(k);
          return true;
        });
        return {};
      });
      for (std::size_t i = 0; i < extra.size(); i += 5000)
        (void)app.kv->write([&](store::WriteTxn& txn) -> core::Status {
          for (std::size_t j = i; j < std::min(extra.size(), i + 5000); ++j)
            txn.erase(app.mail_table, extra[j]);
          return {};
        });
      queued = deliver_max;
    }
    Sink sink;
    if (!sink.start(sink_script, config.data_dir)) {
      std::cerr << "mail_load: cannot start " << sink_script << "\n";
      return 1;
    }
    app.config.mail.relay = "127.0.0.1:" + std::to_string(sink.port);
    app.config.mail.delivery_workers = static_cast<std::size_t>(workers);
    edge::mail::DeliveryWorker worker(app);
    auto start = Clock::now();
    worker.start();
    worker.wake();
    std::int64_t left = queued;
    while ((left = outbox_size(app)) > 0 && ms_since(start) < 600'000)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    double secs = ms_since(start) / 1000;
    worker.stop();
    std::int64_t got = sink.received();
    std::printf("deliver   workers %3d  %8lld delivered (sink holds %lld)  %4lld left  %6.2f s  %9.0f /s\n",
                workers, static_cast<long long>(queued - left), static_cast<long long>(got),
                static_cast<long long>(left), secs, (queued - left) / secs);
    commits.print();
  }
  (*server)->stop();
  return 0;
}
