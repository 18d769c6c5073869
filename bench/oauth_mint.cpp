// oauth_mint: pre-mints OAuth token pools in an edge data directory for load runs (bench/oauth_load.sh),
// through the same OAuthStore operations the HTTP endpoints use, so every token is a real grant:
//
//   access   issue_code (openid profile email) + exchange_code: the access token (reusable)
//   refresh  issue_code (openid offline_access) + exchange_code: the refresh token (single-use: rotation)
//   code     issue_code (openid profile email, PKCE S256 from CODE_VERIFIER, a nonce): the code (single-use)
//
// as the peer's mint.js does (same scopes per pool). Run it with the edge stopped. It creates, or reuses
// when they exist, the company `oauth-bench`, its owner `bench@oauth-bench.test` and a confidential client
// (reused when <out>/client.env names a client whose secret still authenticates), and writes to <out>:
// access.txt, refresh.txt, code.txt, refresh-warm.txt, code-warm.txt (one token per line) and client.env
// (CLIENT_ID, CLIENT_SECRET, REDIRECT_URI, CODE_VERIFIER, shell-sourceable).
//
// Every store operation is its own durable write() (the OAuthStore API offers no batching), so the tool
// runs --threads callers at once and lets the store's group commit share fsyncs between them.
// Codes live 600 s (core::oauth::kCodeLifetimeS): the code pools are minted last and must be used within
// ten minutes.

#include <CLI/CLI.hpp>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>

#include <unistd.h>

#include "core/oauth/claims.h"
#include "core/pkce.h"
#include "edge/app.h"
#include "edge/secret_source.h"
#include "native/os/system_clock.h"
#include "native/os/system_random.h"

namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kCompanySlug = "oauth-bench";
constexpr const char* kUserEmail = "bench@oauth-bench.test";
constexpr const char* kUserPassword = "oauth-bench-password";

[[noreturn]] void die(const std::string& what) {
  std::cerr << "oauth_mint: " << what << "\n";
  std::exit(1);
}

template <class T>
T need(core::Result<T> r, const std::string& what) {
  if (!r) die(what + ": " + r.error().message + " (" + r.error().code + ")");
  return std::move(*r);
}

std::map<std::string, std::string> read_env_file(const std::string& path) {
  std::map<std::string, std::string> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    auto eq = line.find('=');
    if (line.empty() || line[0] == '#' || eq == std::string::npos) continue;
    out[line.substr(0, eq)] = line.substr(eq + 1);
  }
  return out;
}

bool plain_value(const std::string& v) {  // safe unquoted in a shell-sourced KEY=value line
  for (char c : v)
    if (!(std::isalnum(static_cast<unsigned char>(c)) ||
          std::string_view("-._~:/?=&%+").find(c) != std::string_view::npos))
      return false;
  return !v.empty();
}

struct Setup {
  edge::User user;
  edge::oauth::OAuthClient client;
  std::string secret;
  bool reused_client = false;
};

Setup prepare(edge::App& app, const std::string& out_dir, const std::string& redirect_uri) {
  Setup s;
  auto company = app.accounts->company_by_slug(kCompanySlug);
  if (!company) company = need(app.accounts->create_company(kCompanySlug, "OAuth Bench"), "create company");
  auto user = app.accounts->user_by_email(kUserEmail);
  if (!user) user = need(app.accounts->create_user(kUserEmail, "Bench User", kUserPassword), "create user");
  s.user = *user;
  if (!app.accounts->membership(company->id, user->id))
    need(app.accounts->add_member(*company, kUserEmail, core::Role::owner, {}, nullptr), "add member");

  const std::vector<std::string> scopes = {"email", "offline_access", "openid", "profile"};
  auto env = read_env_file(out_dir + "/client.env");
  if (env.count("CLIENT_ID") && env.count("CLIENT_SECRET")) {
    auto c = app.oauth->authenticate_client(env["CLIENT_ID"], env["CLIENT_SECRET"]);
    if (c && c->company_id == company->id && !c->is_public && c->scopes == scopes &&
        std::find(c->redirect_uris.begin(), c->redirect_uris.end(), redirect_uri) != c->redirect_uris.end()) {
      s.client = *c;
      s.secret = env["CLIENT_SECRET"];
      s.reused_client = true;
    }
  }
  if (!s.reused_client) {
    edge::oauth::ClientInput in;
    in.name = "OAuth Bench Client";
    in.redirect_uris = std::vector<std::string>{redirect_uri};
    in.scopes = scopes;
    in.is_public = false;
    s.client = need(app.oauth->create_client(company->id, in, &s.secret), "create client");
  }
  // What the consent screen would have recorded (shown under connected apps); not needed by the grants.
  auto consent = app.oauth->grant_consent({user->id, s.client.client_id, scopes, app.clock.now_ms()});
  if (!consent) die("grant consent: " + consent.error().message);
  return s;
}

enum class Kind { access, refresh, code };

struct Pool {
  std::string file;
  Kind kind;
  std::size_t count;
};

struct Minter {
  edge::App& app;
  const Setup& setup;
  std::string redirect_uri, verifier, challenge;
  unsigned threads;
  std::uint64_t writes = 0;  // durable write() calls made, all pools
  bool tty = ::isatty(2) != 0;

  edge::oauth::StoredCode code_for(Kind kind, std::size_t i) const {
    edge::oauth::StoredCode c;
    c.client_id = setup.client.client_id;
    c.user_id = setup.user.id;
    c.redirect_uri = redirect_uri;
    c.nonce = "n-" + std::to_string(i);
    c.code_challenge = challenge;
    c.scopes = kind == Kind::refresh ? std::vector<std::string>{"offline_access", "openid"}
                                     : std::vector<std::string>{"email", "openid", "profile"};
    c.auth_time_ms = app.clock.now_ms();
    return c;
  }

  // One token of the pool: a code, or the access / refresh token of a code exchanged at once.
  std::string mint_one(Kind kind, std::size_t i) {
    std::string code = need(app.oauth->issue_code(code_for(kind, i)), "issue_code");
    if (kind == Kind::code) return code;
    auto r = need(app.oauth->exchange_code(code, {setup.client.client_id, redirect_uri, verifier}),
                  "exchange_code");
    if (auto* refusal = std::get_if<edge::oauth::GrantRefusal>(&r))
      die("exchange_code refused: " + refusal->error + ": " + refusal->description);
    auto& issued = std::get<edge::oauth::IssuedTokens>(r);
    if (kind == Kind::refresh && issued.refresh_token.empty()) die("exchange_code issued no refresh token");
    return kind == Kind::access ? issued.access_token : issued.refresh_token;
  }

  void mint(const Pool& pool, const std::string& out_dir) {
    if (pool.count == 0) {
      std::remove((out_dir + "/" + pool.file).c_str());
      return;
    }
    std::vector<std::string> tokens(pool.count);
    std::atomic<std::size_t> next{0}, done{0};
    auto started = Clock::now();
    std::mutex print;
    auto report = [&](std::size_t n) {
      double s = std::chrono::duration<double>(Clock::now() - started).count();
      std::lock_guard lock(print);
      // On a terminal one line is redrawn; in a log file each step is its own line.
      std::fprintf(stderr, "%s  %-17s %7zu / %zu  %6.1f s  %7.0f tokens/s%s", tty ? "\r" : "",
                   pool.file.c_str(), n, pool.count, s, s > 0 ? n / s : 0.0, tty ? "" : "\n");
      std::fflush(stderr);
    };
    std::size_t step = std::max<std::size_t>(1000, pool.count / 20);
    std::vector<std::thread> workers;
    for (unsigned t = 0; t < threads; ++t)
      workers.emplace_back([&] {
        for (std::size_t i; (i = next.fetch_add(1)) < pool.count;) {
          tokens[i] = mint_one(pool.kind, i);
          std::size_t n = done.fetch_add(1) + 1;
          if (n % step == 0) report(n);
        }
      });
    for (auto& w : workers) w.join();
    double s = std::chrono::duration<double>(Clock::now() - started).count();
    std::uint64_t w = pool.count * (pool.kind == Kind::code ? 1 : 2);
    writes += w;
    std::fprintf(stderr, "%s  %-17s %7zu tokens in %6.1f s: %7.0f tokens/s, %7.0f durable writes/s\n",
                 tty ? "\r" : "", pool.file.c_str(), pool.count, s, pool.count / s, w / s);
    std::string path = out_dir + "/" + pool.file, tmp = path + ".tmp";
    {
      std::ofstream out(tmp, std::ios::trunc);
      for (auto& t : tokens) out << t << '\n';
      if (!out) die("cannot write " + tmp);
    }
    std::rename(tmp.c_str(), path.c_str());
  }
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{
      "oauth_mint: pre-mint OAuth access/refresh/code pools in an edge data directory (edge stopped)"};
  std::string data_dir, out_dir;
  std::string redirect_uri = "http://127.0.0.1:9999/cb";
  std::string verifier = "oauth-mint-code-verifier-0123456789-abcdefghijklmnopqrstuvwxyz";
  std::string secret_key_file;
  std::size_t access = 1000, refresh = 30000, code = 30000, refresh_warm = 10000, code_warm = 10000;
  unsigned threads = 256;  // the store groups up to 256 queued writes per commit
  cli.add_option("--data-dir", data_dir, "edge LMDB data directory (created if missing)")->required();
  cli.add_option("--out", out_dir, "where the pools and client.env go (must exist)")->required();
  cli.add_option("--access", access, "access tokens (reusable pool)")->capture_default_str();
  cli.add_option("--refresh", refresh, "refresh tokens (single-use)")->capture_default_str();
  cli.add_option("--code", code, "authorization codes (single-use, PKCE S256)")->capture_default_str();
  cli.add_option("--refresh-warm", refresh_warm, "refresh tokens for the warm-up")->capture_default_str();
  cli.add_option("--code-warm", code_warm, "codes for the warm-up")->capture_default_str();
  cli.add_option("--threads", threads, "concurrent store callers (group commit)")->capture_default_str();
  cli.add_option("--redirect-uri", redirect_uri, "the client's redirect URI")->capture_default_str();
  cli.add_option("--code-verifier", verifier, "PKCE verifier every code is bound to")->capture_default_str();
  cli.add_option("--secret-key-file", secret_key_file,
                 "as edge --secret-key-file; PLATFORM_SECRET_KEY works too (default: <data-dir>/secret.key)")
      ->envname("PLATFORM_SECRET_KEY_FILE");
  CLI11_PARSE(cli, argc, argv);
  if (!core::validate_code_verifier(verifier))
    die("--code-verifier: 43 to 128 characters of [A-Za-z0-9-._~]");
  if (!plain_value(redirect_uri)) die("--redirect-uri holds characters client.env cannot carry unquoted");
  if (threads == 0) threads = 1;

  native::SystemClock clock;
  native::SystemRandom random;
  edge::Config config;
  config.data_dir = data_dir;
  config.secret_key_hex = need(edge::read_secret("PLATFORM_SECRET_KEY", secret_key_file), "secret key");
  auto started = Clock::now();
  auto app = need(edge::open_app(config, clock, random), "open " + data_dir);
  Setup setup = prepare(*app, out_dir, redirect_uri);
  std::fprintf(stderr, "oauth_mint: data %s, client %s (%s), user %s, %u threads\n", data_dir.c_str(),
               setup.client.client_id.c_str(), setup.reused_client ? "reused" : "new", setup.user.id.c_str(),
               threads);

  {
    std::string path = out_dir + "/client.env", tmp = path + ".tmp";
    std::ofstream out(tmp, std::ios::trunc);
    out << "CLIENT_ID=" << setup.client.client_id << "\nCLIENT_SECRET=" << setup.secret
        << "\nREDIRECT_URI=" << redirect_uri << "\nCODE_VERIFIER=" << verifier << "\n";
    if (!out) die("cannot write " + tmp);
    out.close();
    std::rename(tmp.c_str(), path.c_str());
  }

  Minter m{*app, setup, redirect_uri, verifier, core::pkce_s256_challenge(verifier), threads};
  // Codes last: they expire 600 s after issue.
  for (const Pool& p : {Pool{"access.txt", Kind::access, access}, Pool{"refresh.txt", Kind::refresh, refresh},
                        Pool{"refresh-warm.txt", Kind::refresh, refresh_warm},
                        Pool{"code-warm.txt", Kind::code, code_warm}, Pool{"code.txt", Kind::code, code}})
    m.mint(p, out_dir);
  double s = std::chrono::duration<double>(Clock::now() - started).count();
  std::fprintf(stderr,
               "oauth_mint: %llu durable writes in %.1f s (%.0f/s); codes valid for %lld s from now\n",
               static_cast<unsigned long long>(m.writes), s, m.writes / s,
               static_cast<long long>(core::oauth::kCodeLifetimeS));
  return 0;
}
