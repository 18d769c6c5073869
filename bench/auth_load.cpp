// auth_load: the end-user endpoints of an auth project under load (docs/performance.md, "Auth projects").
//
// One process: a real edge (EdgeServer, LMDB on disk in --data, the system clock) on a loopback port, and
// --clients threads with keep-alive connections, each with its own end user and session.
//
//   login     POST /login with the right password: bounded by argon2id (libsodium's interactive limits,
//             64 MiB and 2 passes) and the edge's hash slots
//   refresh   POST /refresh, each client rotating its own chain (every answer is durable: the rotated token
//             and its successor committed before the 200)
//   userinfo  GET /userinfo with the client's access token (RS256 verification against the project's keys,
//             then the session read)
//   verify    core::auth::verify_access_token on one thread, no HTTP: access-token verifications per second
//             natively (--sample writes a token and the project's JWKS for bench/jwt_verify_wasm.mjs)
//
// Rate limits are lifted so the clients measure the server.

#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <ctime>
#include <fstream>
#include <iostream>
#include <mutex>

#include "bench/load_phase.h"
#include "core/auth/access_token.h"
#include "edge/auth_projects/end_users.h"
#include "edge/auth_projects/project_store.h"
#include "edge/auth_projects/signing_keys.h"
#include "edge/server.h"
#include "native/os/system_clock.h"
#include "native/os/system_random.h"

namespace {

namespace json = core::json;

struct Client {
  std::string email, access, refresh;
};

std::string member(const std::string& body, const char* key) {
  auto o = core::parse_json_object(body);
  if (!o) return {};
  auto* data = o->if_contains("data");
  if (!data || !data->is_object()) return {};
  auto* v = data->as_object().if_contains(key);
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

int ok_or_report(const httplib::Result& res, const char* what) {
  if (res && res->status == 200) return 1;
  static std::once_flag once;
  std::call_once(once, [&] {
    std::fprintf(stderr, "auth_load: %s failed: %s\n", what,
                 res ? (std::to_string(res->status) + " " + res->body).c_str()
                     : httplib::to_string(res.error()).c_str());
  });
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{
      "auth_load: logins, refreshes and userinfo per second of an auth project (docs/performance.md)."};
  std::string data, phases = "login,refresh,userinfo,verify", sample;
  int clients = 64, server_threads = 128;
  double seconds = 10;
  cli.add_option("--data", data,
                 "empty data directory on the disk to measure (default: a new one under ./build)");
  cli.add_option("--clients", clients, "concurrent HTTP clients, one end user each (default 64)");
  cli.add_option("--seconds", seconds, "length of each phase (default 10)");
  cli.add_option("--server-threads", server_threads, "edge worker threads (default 128)");
  cli.add_option("--phases", phases, "comma-separated: login,refresh,userinfo,verify");
  cli.add_option("--sample", sample,
                 "write {token, jwks, issuer, audience} to this file for the wasm benchmark");
  CLI11_PARSE(cli, argc, argv);

  edge::Config config = bench::load_config(data, "auth-load", server_threads);
  config.mail.delivery_workers = 0;
  native::SystemClock clock;
  native::SystemRandom random;
  auto server = edge::EdgeServer::start(config, clock, random);
  if (!server) {
    std::cerr << "auth_load: " << server.error().message << "\n";
    return 1;
  }
  edge::App& app = (*server)->app();
  const int port = (*server)->port();
  auto company = app.accounts->create_company("bench", "Bench Auth");
  if (!company) {
    std::cerr << "auth_load: " << company.error().message << " (use an empty --data)\n";
    return 1;
  }
  auto project = edge::auth_projects::create_project(
      app, company->id, *core::parse_json_object(R"({"name":"Bench","slug":"bench"})"));
  if (!project) {
    std::cerr << "auth_load: " << project.error().message << "\n";
    return 1;
  }
  std::string key;
  (void)edge::auth_projects::create_key(app, *project, "bench", key);
  const std::string base = "/api/v1/auth/bench";
  const std::string password = "correct horse battery";
  std::vector<Client> users(static_cast<std::size_t>(clients));
  std::printf("creating %d end users (one argon2id hash each)...\n", clients);
  for (int i = 0; i < clients; ++i) {
    users[i].email = "user" + std::to_string(i) + "@bench.test";
    auto u = edge::auth_projects::create_user(app, *project, users[i].email, password, "Bench", true);
    if (!u) {
      std::cerr << "auth_load: " << u.error().message << "\n";
      return 1;
    }
  }
  bench::CommitMeter commits(app);
  auto login_body = [&](int t) {
    return R"({"email":")" + users[t].email + R"(","password":")" + password + R"("})";
  };

  auto wanted = [&](const char* phase) {
    return ("," + phases + ",").find("," + std::string(phase) + ",") != std::string::npos;
  };
  if (wanted("login")) {
    auto r = bench::run_phase(port, key, clients, seconds, [&](httplib::Client& c, int t, std::int64_t) {
      return ok_or_report(c.Post(base + "/login", login_body(t), "application/json"), "login");
    });
    bench::report_phase("login", r, clients);
    commits.print();
  }
  // Every client signs in once for the phases below.
  {
    httplib::Client c("127.0.0.1", port);
    c.set_bearer_token_auth(key);
    for (int t = 0; t < clients; ++t) {
      auto res = c.Post(base + "/login", login_body(t), "application/json");
      if (!ok_or_report(res, "login")) return 1;
      users[t].access = member(res->body, "accessToken");
      users[t].refresh = member(res->body, "refreshToken");
    }
  }
  if (wanted("refresh")) {
    auto r = bench::run_phase(port, key, clients, seconds, [&](httplib::Client& c, int t, std::int64_t) {
      auto res =
          c.Post(base + "/refresh", R"({"refreshToken":")" + users[t].refresh + R"("})", "application/json");
      if (!ok_or_report(res, "refresh")) return 0;
      users[t].refresh = member(res->body, "refreshToken");
      users[t].access = member(res->body, "accessToken");
      return 1;
    });
    bench::report_phase("refresh", r, clients);
    commits.print();
  }
  if (wanted("userinfo")) {
    // No project key here: the Bearer is the end user's access token.
    auto r = bench::run_phase(port, "", clients, seconds, [&](httplib::Client& c, int t, std::int64_t) {
      return ok_or_report(c.Get(base + "/userinfo", {{"Authorization", "Bearer " + users[t].access}}),
                          "userinfo");
    });
    bench::report_phase("userinfo", r, clients);
  }
  auto keys = app.auth_signing_keys->published(*project);
  const std::string issuer = core::auth::project_issuer(app.config.auth_url, "bench");
  if (wanted("verify") && keys) {
    std::int64_t n = 0, bad = 0;
    auto start = bench::Clock::now();
    while (bench::ms_since(start) < seconds * 1000) {
      for (int i = 0; i < 100; ++i, ++n)
        if (!core::auth::verify_access_token(users[0].access, *keys, issuer, project->id, std::time(nullptr)))
          ++bad;
    }
    std::printf("verify    1 thread   %8lld ok  %4lld failed  %6.2f s  %9.0f /s  (native, BearSSL)\n",
                static_cast<long long>(n - bad), static_cast<long long>(bad), bench::ms_since(start) / 1000,
                static_cast<double>(n - bad) / (bench::ms_since(start) / 1000));
  }
  if (!sample.empty() && keys) {
    json::array jwks;
    for (const auto& k : *keys) jwks.push_back(core::to_jwk(k));
    std::ofstream(sample) << core::to_json(json::object{{"token", users[0].access},
                                                        {"jwks", json::object{{"keys", jwks}}},
                                                        {"issuer", issuer},
                                                        {"audience", project->id}});
    std::printf("sample written to %s\n", sample.c_str());
  }
  return 0;
}
