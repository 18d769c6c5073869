// The edge server: every product of the platform over HTTP, backed by LMDB in the data directory.

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <charconv>
#include <csignal>
#include <fstream>
#include <iostream>
#include <vector>

#include "edge/demo.h"
#include "edge/secret_source.h"
#include "edge/server.h"
#include "native/os/system_clock.h"
#include "native/os/system_random.h"

namespace {

bool parse_listen(const std::string& text, edge::Config& config) {
  auto colon = text.rfind(':');
  if (colon == std::string::npos) return false;
  config.listen_host = text.substr(0, colon);
  try {
    config.listen_port = std::stoi(text.substr(colon + 1));
  } catch (...) {
    return false;
  }
  return config.listen_port >= 0 && config.listen_port <= 65535 && !config.listen_host.empty();
}

}  // namespace

int main(int argc, char** argv) {
  edge::Config config;
  std::string listen = "127.0.0.1:8080", rate_limit = "100/1s", mail_rate_limit = "100/10s";
  std::string mail_retry_delays;
  CLI::App cli{
      "edge: the platform server (OAuth/OIDC, mail, storage, env vault, auth projects, restaurant, "
      "status pages). Every flag can also be set by the environment variable named in brackets. Secrets are "
      "never flag values: give them in their environment variable or in a file (the --...-file flags)."};
  cli.add_option("--listen", listen, "address:port to listen on; port 0 picks a free one")
      ->envname("EDGE_LISTEN")
      ->capture_default_str();
  cli.add_option("--data-dir", config.data_dir, "LMDB data directory (created if missing)")
      ->envname("EDGE_DATA_DIR")
      ->capture_default_str();
  cli.add_option("--port-file", config.port_file, "write the bound port here once listening");
  cli.add_option("--base-url", config.base_url, "public platform root {base_url}")->envname("EDGE_BASE_URL");
  cli.add_option("--auth-url", config.auth_url, "public {auth_url}")->envname("EDGE_AUTH_URL");
  cli.add_option("--mail-url", config.mail_url, "public {mail_url}")->envname("EDGE_MAIL_URL");
  cli.add_option("--storage-url", config.storage_url, "public {storage_url}")->envname("EDGE_STORAGE_URL");
  cli.add_option("--cdn-url", config.cdn_url, "public {cdn_url}")->envname("EDGE_CDN_URL");
  cli.add_option("--status-url", config.status_url, "public {status_url}")->envname("EDGE_STATUS_URL");
  cli.add_option("--site-url", config.site_url, "public {site_url}")->envname("EDGE_SITE_URL");
  cli.add_option("--cookie-domain", config.cookie_domain, "Domain of the session cookie, e.g. .example.com")
      ->envname("EDGE_COOKIE_DOMAIN");
  // Secrets: never as flag values (they would show in `ps`); the variable holds the value, the flag or the
  // variable <NAME>_FILE names a file that holds it (edge/secret_source.h).
  struct SecretOption {
    const char* env;
    std::string* value;
    std::string file;
  };
  SecretOption secrets[] = {{"PLATFORM_SECRET_KEY", &config.secret_key_hex, {}},
                            {"OAUTH_RSA_PRIVATE_KEY", &config.oauth_rsa_private_key, {}},
                            {"OAUTH_RSA_PRIVATE_KEY_PREVIOUS", &config.oauth_rsa_private_key_previous, {}},
                            {"OAUTH_ID_TOKEN_SECRET", &config.oauth_id_token_secret, {}},
                            {"STORAGE_S3_SECRET_KEY", &config.storage.s3_secret_key, {}}};
  cli.add_option("--secret-key-file", secrets[0].file,
                 "file holding the 64 hex characters of the key for secrets at rest (or PLATFORM_SECRET_KEY "
                 "holds them); default <data-dir>/secret.key")
      ->envname("PLATFORM_SECRET_KEY_FILE");
  std::vector<std::string> trusted_proxies;
  cli.add_option("--trusted-proxy", trusted_proxies,
                 "IP address of a reverse proxy whose X-Forwarded-For names the client (repeat, or "
                 "comma-separated)")
      ->envname("EDGE_TRUSTED_PROXIES")
      ->delimiter(',');
  cli.add_option("--rate-limit", rate_limit, "per access token, requests/window, e.g. 100/1s or 600/1m")
      ->envname("EDGE_RATE_LIMIT")
      ->capture_default_str();
  // Transactional mail (docs/mail-*.md).
  cli.add_option("--mail-rate-limit", mail_rate_limit, "per access token across the mail endpoints")
      ->envname("EDGE_MAIL_RATE_LIMIT")
      ->capture_default_str();
  cli.add_option("--mail-nameserver", config.mail.nameserver,
                 "DNS server for domain checks and MX lookups, host[:port]; default /etc/resolv.conf")
      ->envname("EDGE_MAIL_NAMESERVER");
  cli.add_option("--mail-relay", config.mail.relay,
                 "deliver every message through this SMTP relay, host:port, instead of the recipient's MX")
      ->envname("EDGE_MAIL_RELAY");
  cli.add_option("--mail-helo-name", config.mail.helo_name, "EHLO name; default the host of --mail-url")
      ->envname("EDGE_MAIL_HELO_NAME");
  cli.add_option("--mail-spf-include", config.mail.spf_include, "SPF include target customers publish")
      ->envname("EDGE_MAIL_SPF_INCLUDE")
      ->capture_default_str();
  cli.add_option("--mail-dkim-zone", config.mail.dkim_zone,
                 "zone serving the DKIM keys the s1/s2 CNAMEs name")
      ->envname("EDGE_MAIL_DKIM_ZONE")
      ->capture_default_str();
  cli.add_option("--mail-mx-host", config.mail.mx_host, "inbound MX host of platform mailboxes")
      ->envname("EDGE_MAIL_MX_HOST")
      ->capture_default_str();
  cli.add_option("--mail-delivery-workers", config.mail.delivery_workers,
                 "concurrent SMTP deliveries; 0 keeps sends queued")
      ->envname("EDGE_MAIL_DELIVERY_WORKERS")
      ->capture_default_str();
  cli.add_option(
         "--mail-retry-delays", mail_retry_delays,
         "delays before the 2nd, 3rd, ... delivery attempt in ms, comma-separated; default about a day")
      ->envname("EDGE_MAIL_RETRY_DELAYS");
  cli.add_option("--mail-smtp-timeout-ms", config.mail.smtp_timeout_ms,
                 "longest SMTP conversation per attempt")
      ->envname("EDGE_MAIL_SMTP_TIMEOUT_MS")
      ->capture_default_str();
  cli.add_option("--mail-imap", config.mail.imap_address,
                 "IMAP server of the mailboxes (Dovecot), host:port; empty: no mailboxes")
      ->envname("EDGE_MAIL_IMAP");
  cli.add_option("--mail-dovecot-dir", config.mail.dovecot_dir,
                 "Dovecot's folder (docs/mailboxes.md): the edge writes its users and master-users files")
      ->envname("EDGE_MAIL_DOVECOT_DIR");
  cli.add_option("--mail-recheck-interval-s", config.mail.recheck_interval_s,
                 "seconds between background checks of pending sending domains")
      ->envname("EDGE_MAIL_RECHECK_INTERVAL_S")
      ->capture_default_str();
  cli.add_option("--max-body", config.max_json_body, "largest JSON request body in bytes")
      ->envname("EDGE_MAX_BODY")
      ->capture_default_str();
  cli.add_option(
         "--threads", config.threads,
         "worker threads for requests that may block (writes waiting for their fsync): requests in flight")
      ->envname("EDGE_THREADS")
      ->capture_default_str();
  cli.add_option("--io-threads", config.io_threads, "threads that own the sockets; 0: one per core")
      ->envname("EDGE_IO_THREADS")
      ->capture_default_str();
  cli.add_option("--max-connections", config.max_connections,
                 "open connections at most; further ones are closed at once (and logged)")
      ->envname("EDGE_MAX_CONNECTIONS")
      ->capture_default_str();
  cli.add_option("--header-timeout-ms", config.header_timeout_ms,
                 "request headers must arrive within this of their first byte, else 408")
      ->envname("EDGE_HEADER_TIMEOUT_MS")
      ->capture_default_str();
  cli.add_option("--body-timeout-ms", config.body_timeout_ms, "longest pause inside a request body, else 408")
      ->envname("EDGE_BODY_TIMEOUT_MS")
      ->capture_default_str();
  cli.add_option("--idle-timeout-ms", config.idle_timeout_ms,
                 "keep-alive connections idle this long are closed")
      ->envname("EDGE_IDLE_TIMEOUT_MS")
      ->capture_default_str();
  cli.add_option("--send-timeout-ms", config.send_timeout_ms,
                 "a client that reads nothing of a response for this long is disconnected")
      ->envname("EDGE_SEND_TIMEOUT_MS")
      ->capture_default_str();
  cli.add_option("--max-header-bytes", config.max_header_bytes,
                 "request line and header fields together, in bytes; past it 431")
      ->envname("EDGE_MAX_HEADER_BYTES")
      ->capture_default_str();
  cli.add_option("--max-header-count", config.max_header_count, "header fields per request; past it 431")
      ->envname("EDGE_MAX_HEADER_COUNT")
      ->capture_default_str();
  cli.add_option("--shutdown-grace-ms", config.shutdown_grace_ms,
                 "on SIGTERM, requests in flight get this long to finish")
      ->envname("EDGE_SHUTDOWN_GRACE_MS")
      ->capture_default_str();
  cli.add_option("--upload-dir", config.upload_dir,
                 "where streamed request bodies wait for their handler (default <data-dir>/tmp)")
      ->envname("EDGE_UPLOAD_DIR");
  cli.add_option("--storage-blob-dir", config.storage.blob_dir,
                 "storage: where the local backend keeps media bytes (default <data-dir>/blobs)")
      ->envname("EDGE_STORAGE_BLOB_DIR");
  cli.add_option("--storage-max-upload-bytes", config.storage.max_upload_bytes,
                 "storage: the single-shot upload limit; past it 413")
      ->envname("EDGE_STORAGE_MAX_UPLOAD_BYTES")
      ->capture_default_str();
  cli.add_option("--storage-default-quota-bytes", config.storage.default_quota_bytes,
                 "storage: a company's quota unless it has its own (edge-admin storage quota)")
      ->envname("EDGE_STORAGE_DEFAULT_QUOTA_BYTES")
      ->capture_default_str();
  cli.add_option("--storage-max-image-pixels", config.storage.max_image_pixels,
                 "storage: images with more pixels are refused at upload")
      ->envname("EDGE_STORAGE_MAX_IMAGE_PIXELS")
      ->capture_default_str();
  cli.add_option("--web-root", config.web_root, "folder served at /web/")
      ->envname("EDGE_WEB_ROOT")
      ->capture_default_str();
  cli.add_option("--wasm-root", config.wasm_root, "wasm build output served at /web/wasm/")
      ->envname("EDGE_WASM_ROOT")
      ->capture_default_str();
  cli.add_option("--bindings-root", config.bindings_root, "JavaScript bindings served at /web/bindings/")
      ->envname("EDGE_BINDINGS_ROOT")
      ->capture_default_str();
  cli.add_option("--node-modules-root", config.node_modules_root,
                 "npm packages folder; the dashboard's MJML editor loads mjml-browser from it")
      ->envname("EDGE_NODE_MODULES_ROOT")
      ->capture_default_str();
  std::string token_rate_limit = "1000/1s";
  cli.add_option("--oauth-token-rate-limit", token_rate_limit,
                 "per OAuth client on /oauth/token, requests/window")
      ->envname("EDGE_OAUTH_TOKEN_RATE_LIMIT")
      ->capture_default_str();
  cli.add_option("--oauth-rsa-private-key-file", secrets[1].file,
                 "file holding the PEM RSA private key (or OAUTH_RSA_PRIVATE_KEY holds it): id_tokens signed "
                 "RS256 (else HS256)")
      ->envname("OAUTH_RSA_PRIVATE_KEY_FILE");
  cli.add_option("--oauth-rsa-private-key-previous-file", secrets[2].file,
                 "file holding the previous PEM key during a rotation (or OAUTH_RSA_PRIVATE_KEY_PREVIOUS); "
                 "published, not used to sign")
      ->envname("OAUTH_RSA_PRIVATE_KEY_PREVIOUS_FILE");
  cli.add_option("--oauth-id-token-secret-file", secrets[3].file,
                 "file holding the HS256 secret for id_tokens without an RSA key (or OAUTH_ID_TOKEN_SECRET); "
                 "derived from the secret key when unset")
      ->envname("OAUTH_ID_TOKEN_SECRET_FILE");
  cli.add_flag("--status-development-mode", config.status.development_mode,
               "status pages: allow checks with insecureSkipTlsVerify (development only)")
      ->envname("EDGE_STATUS_DEVELOPMENT_MODE");
  cli.add_option("--status-probe-workers", config.status.probe_workers,
                 "status pages: probes in flight at most; 0 stops probing")
      ->envname("EDGE_STATUS_PROBE_WORKERS")
      ->capture_default_str();
  cli.add_option("--status-maintenance-tick-ms", config.status.maintenance_tick_ms,
                 "status pages: how often maintenance windows are moved by the clock; 0 stops it")
      ->envname("EDGE_STATUS_MAINTENANCE_TICK_MS")
      ->capture_default_str();
  cli.add_option("--status-subscriber-workers", config.status.subscriber_workers,
                 "status pages: concurrent deliveries to subscribers; 0 keeps them queued")
      ->envname("EDGE_STATUS_SUBSCRIBER_WORKERS")
      ->capture_default_str();
  cli.add_option("--status-subscriber-poll-ms", config.status.subscriber_poll_ms,
                 "status pages: how often the subscriber worker looks at its queue")
      ->envname("EDGE_STATUS_SUBSCRIBER_POLL_MS")
      ->capture_default_str();
  cli.add_option("--status-delivery-retry-base-ms", config.status.delivery_retry_base_ms,
                 "status pages: first retry delay of a failed delivery (doubling, with jitter)")
      ->envname("EDGE_STATUS_DELIVERY_RETRY_BASE_MS")
      ->capture_default_str();
  cli.add_option("--status-delivery-retry-max-ms", config.status.delivery_retry_max_ms,
                 "status pages: longest retry delay")
      ->envname("EDGE_STATUS_DELIVERY_RETRY_MAX_MS")
      ->capture_default_str();
  cli.add_option("--status-delivery-max-attempts", config.status.delivery_max_attempts,
                 "status pages: attempts before a delivery fails")
      ->envname("EDGE_STATUS_DELIVERY_MAX_ATTEMPTS")
      ->capture_default_str();
  cli.add_option("--status-smtp-relay", config.status.smtp_relay,
                 "status pages: host:port of the SMTP relay for subscriber mail (default: --mail-relay)")
      ->envname("EDGE_STATUS_SMTP_RELAY");
  cli.add_option("--status-mail-from", config.status.mail_from,
                 "status pages: sender address of subscriber mail (default status@<status host>)")
      ->envname("EDGE_STATUS_MAIL_FROM");
  cli.add_option("--status-telegram-api-base", config.status.telegram_api_base,
                 "status pages: Telegram Bot API base URL")
      ->envname("EDGE_STATUS_TELEGRAM_API_BASE")
      ->capture_default_str();
  std::string subscribe_rate_limit = "10/600s";
  cli.add_option("--status-subscribe-rate-limit", subscribe_rate_limit,
                 "status pages: new subscriptions per client address, requests/window")
      ->envname("EDGE_STATUS_SUBSCRIBE_RATE_LIMIT")
      ->capture_default_str();
  cli.add_option("--storage-backend", config.storage.backend,
                 "storage: where media bytes live, local (files under the data directory) or s3")
      ->envname("EDGE_STORAGE_BACKEND")
      ->check(CLI::IsMember({"local", "s3"}))
      ->capture_default_str();
  cli.add_option(
         "--storage-s3-endpoint", config.storage.s3_endpoint,
         "storage: S3-compatible service URL, e.g. https://s3.eu-central-1.amazonaws.com (path-style)")
      ->envname("EDGE_STORAGE_S3_ENDPOINT");
  cli.add_option("--storage-s3-bucket", config.storage.s3_bucket, "storage: the S3 bucket holding the blobs")
      ->envname("EDGE_STORAGE_S3_BUCKET");
  cli.add_option("--storage-s3-region", config.storage.s3_region,
                 "storage: the S3 region the requests are signed for")
      ->envname("EDGE_STORAGE_S3_REGION")
      ->capture_default_str();
  cli.add_option("--storage-s3-access-key", config.storage.s3_access_key, "storage: the S3 access key id")
      ->envname("EDGE_STORAGE_S3_ACCESS_KEY");
  cli.add_option("--storage-s3-secret-key-file", secrets[4].file,
                 "storage: file holding the S3 secret access key (or STORAGE_S3_SECRET_KEY holds it)")
      ->envname("STORAGE_S3_SECRET_KEY_FILE");
  cli.add_flag("--demo", config.demo,
               "seed a demo company, owner and access token into an empty data directory");
  cli.add_option("--log-level", config.log_level, "trace, debug, info, warn, error")
      ->envname("EDGE_LOG_LEVEL")
      ->capture_default_str();
  CLI11_PARSE(cli, argc, argv);
  for (SecretOption& secret : secrets) {
    auto value = edge::read_secret(secret.env, secret.file);
    if (!value) {
      std::cerr << "edge: " << value.error().message << "\n";
      return 2;
    }
    *secret.value = std::move(*value);
  }
  config.trusted_proxies = std::move(trusted_proxies);

  if (!parse_listen(listen, config)) {
    std::cerr << "edge: --listen must be host:port, got '" << listen << "'\n";
    return 2;
  }
  auto limit = edge::parse_rate_limit(rate_limit);
  if (!limit) {
    std::cerr << "edge: " << limit.error().message << "\n";
    return 2;
  }
  config.rate_limit = *limit;
  auto token_limit = edge::parse_rate_limit(token_rate_limit);
  if (!token_limit) {
    std::cerr << "edge: " << token_limit.error().message << "\n";
    return 2;
  }
  config.oauth_token_rate_limit = *token_limit;
  auto mail_limit = edge::parse_rate_limit(mail_rate_limit);
  if (!mail_limit) {
    std::cerr << "edge: --mail-rate-limit: " << mail_limit.error().message << "\n";
    return 2;
  }
  config.mail.rate_limit = *mail_limit;
  auto subscribe_limit = edge::parse_rate_limit(subscribe_rate_limit);
  if (!subscribe_limit) {
    std::cerr << "edge: --status-subscribe-rate-limit: " << subscribe_limit.error().message << "\n";
    return 2;
  }
  config.status.subscribe_rate_limit = *subscribe_limit;
  for (std::string_view rest = mail_retry_delays; !rest.empty();) {
    std::string_view item = rest.substr(0, rest.find(','));
    rest.remove_prefix(std::min(rest.size(), item.size() + 1));
    std::int64_t ms = 0;
    auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), ms);
    if (ec != std::errc() || end != item.data() + item.size() || ms <= 0) {
      std::cerr << "edge: --mail-retry-delays must be positive milliseconds separated by commas\n";
      return 2;
    }
    config.mail.retry_delays_ms.push_back(ms);
  }
  // Logs go to standard error; standard output carries only the start-up banner.
  spdlog::set_default_logger(spdlog::stderr_color_mt("edge"));
  spdlog::set_level(spdlog::level::from_str(config.log_level));
  spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%eZ %^%l%$ %v", spdlog::pattern_time_type::utc);

  // Signals are taken by sigwait below, never by a handler, so every thread started from here on has them
  // blocked.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  native::SystemClock clock;
  native::SystemRandom random;
  bool demo = config.demo;
  std::string port_file = config.port_file;
  auto server = edge::EdgeServer::start(config, clock, random);
  if (!server) {
    spdlog::error("edge: {}", server.error().message);
    return 1;
  }
  edge::App& app = (*server)->app();
  spdlog::info("edge listening on http://{}:{} (data in {})", app.config.listen_host, (*server)->port(),
               app.config.data_dir);
  if (demo) {
    auto creds = edge::seed_demo(app);
    if (!creds) {
      spdlog::error("demo data: {}", creds.error().message);
      return 1;
    }
    std::string base = app.config.base_url;
    std::cout << "\n  Platform is running at " << base << "\n\n"
              << "  Sign in:        " << base << "/login\n"
              << "  Email:          " << creds->email << "\n"
              << "  Password:       " << creds->password << "\n"
              << "  Company slug:   " << creds->company_slug << "\n"
              << "  Access token:   " << creds->access_token << "\n"
              << "  Try:            curl -H 'Authorization: Bearer " << creds->access_token << "' " << base
              << "/api/companies/" << creds->company_slug << "\n"
              << "  Dashboard:      " << base << "/dashboard\n";
    if (!creds->auth_project_key.empty())
      std::cout << "  Auth project:   " << creds->auth_project << " (key " << creds->auth_project_key << ")\n"
                << "  Try login:      curl -H 'Authorization: Bearer " << creds->auth_project_key
                << "' -H 'Content-Type: application/json' -d '{\"email\":\"" << creds->auth_user_email
                << "\",\"password\":\"" << creds->auth_user_password << "\"}' " << base << "/api/v1/auth/"
                << creds->auth_project << "/login\n";
    std::cout << "  Offline till:   " << base
              << "/web/till/ (pair it while signed in; board at /web/till/board.html)\n"
              << "  Status page:    " << app.config.status_url
              << "/p/demo (its checks probe this edge; embed at /p/demo/embed)\n"
              << "  Status admin:   " << app.config.status_url << "/d\n"
              << "  Core in wasm:   " << base << "/web/tools/vat.html\n"
              << "  Health:         " << base << "/healthz\n\n"
              << std::flush;
  }
  if (!port_file.empty()) {
    std::string tmp = port_file + ".tmp";
    std::ofstream(tmp) << (*server)->port() << "\n";
    std::rename(tmp.c_str(), port_file.c_str());  // readers never see a half-written file
  }

  int sig = 0;
  sigwait(&signals, &sig);
  spdlog::info("edge: {} received, finishing in-flight requests", sig == SIGTERM ? "SIGTERM" : "SIGINT");
  (*server)->stop();
  spdlog::info("edge: stopped");
  return 0;
}
