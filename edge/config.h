#pragma once
// Deployment settings of the edge server, read from flags and environment variables (a flag wins over its
// variable). `edge --help` lists them.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"

namespace edge {

struct RateLimit {
  std::int64_t requests = 100;  // per window, per access token
  std::int64_t window_ms = 1000;
};

// `100/1s`, `600/60s`, `100/10s`, `5000/1m`.
core::Result<RateLimit> parse_rate_limit(std::string_view text);

struct Config {
  std::string listen_host = "127.0.0.1";
  int listen_port = 8080;
  std::string data_dir = "data";
  std::string port_file;  // written with the bound port once listening

  // Public addresses of the products (spec/DECISIONS.md). Empty means http://<listen address>; in
  // development one process serves them all on one port since their paths do not collide.
  std::string base_url, auth_url, mail_url, storage_url, cdn_url, status_url, site_url;

  // Domain attribute of the platform session cookie (e.g. `.example.com` to share it across subdomains);
  // empty gives a host-only cookie.
  std::string cookie_domain;

  // 32-byte key (64 hex) for secrets encrypted at rest. Empty: a key file in the data directory, created
  // on first start with mode 0600.
  std::string secret_key_hex;

  // Reverse proxies whose X-Forwarded-For is believed (edge/platform/client_address.h): IP addresses.
  std::vector<std::string> trusted_proxies;
  // Password hashes at once on sign-in, and attempts that may wait for one (edge/accounts/hash_slots.h).
  std::size_t signin_hashes = 4, signin_hash_queue = 16;

  RateLimit rate_limit;
  // Token endpoint requests per OAuth client.
  RateLimit oauth_token_rate_limit{1000, 1000};

  // id_token signing (document 1 §6-7): PEM text of the RSA key (RS256), of the previous key during a
  // rotation, and the HS256 secret used without an RSA key (derived from the secret key when empty).
  std::string oauth_rsa_private_key, oauth_rsa_private_key_previous, oauth_id_token_secret;
  std::size_t max_json_body = 1 << 20;

  // The HTTP transport (edge/http/http_server.h): I/O threads (0: one per core), workers for handlers that
  // may block, deadlines in milliseconds, header limits, open connections, and the grace given to requests
  // in flight at shutdown.
  std::size_t io_threads = 0;
  std::size_t threads = 64;
  std::int64_t header_timeout_ms = 10'000, body_timeout_ms = 30'000, idle_timeout_ms = 60'000,
               send_timeout_ms = 60'000, shutdown_grace_ms = 10'000;
  std::size_t max_header_bytes = 32 << 10, max_header_count = 100, max_connections = 10'000;
  // Where streamed request bodies wait until their handler takes them. Empty: <data-dir>/tmp.
  std::string upload_dir;

  // Transactional mail (docs/mail-*.md).
  struct Mail {
    // Requests per window per access token across the mail endpoints (document 2: 100 per 10 s).
    RateLimit rate_limit{100, 10'000};
    // The deployment's DNS names the sending-domain records point at (core::mail::MailDnsSetup).
    std::string spf_include = "spf.mail.platform.test", dkim_zone = "dkim.mail.platform.test",
                mx_host = "mx.mail.platform.test";
    // Nameserver for verification and MX lookups, `host[:port]`; empty: /etc/resolv.conf.
    std::string nameserver;
    // `host:port` every message goes to instead of the recipient domain's MX (a smarthost); empty: MX.
    std::string relay;
    // EHLO name of the delivery worker; empty: the host of mail_url.
    std::string helo_name;
    // Concurrent SMTP deliveries; 0 keeps sends queued (nothing is delivered by this process).
    std::size_t delivery_workers = 8;
    // Delays before the 2nd, 3rd, ... attempt after a 4xx answer; empty: core::mail::RetrySchedule's.
    std::vector<std::int64_t> retry_delays_ms;
    // Longest SMTP conversation per attempt.
    std::int64_t smtp_timeout_ms = 60'000;
    // Seconds between background re-checks of pending domains.
    std::int64_t recheck_interval_s = 60;
    // Webhook deliveries (edge/mail/webhook_worker.h): concurrent POSTs (0: deliveries stay queued), the
    // delays before the 2nd, 3rd, ... attempt after a failed one (empty: the default of about a day), the
    // longest wait for an endpoint's connection and answer, and how often the outbox is looked at.
    std::size_t webhook_workers = 4;
    std::vector<std::int64_t> webhook_retry_delays_ms;
    std::int64_t webhook_timeout_ms = 10'000;
    std::int64_t webhook_poll_ms = 250;
    // Dovecot serving the mailboxes (docs/mailboxes.md): IMAP address the platform reads through, and the
    // folder holding its users file and mail. Empty imap address: no mailboxes on this deployment.
    std::string imap_address;
    std::string dovecot_dir;
  } mail;

  // The status-page service (docs/status-api.md).
  struct Status {
    // Development mode: checks may set insecureSkipTlsVerify (spec: "development only"); refused with 422
    // otherwise, so a production page never trusts an unverified certificate.
    bool development_mode = false;
    // Probes in flight at most (edge/status/probe_worker.h); 0 turns the probe worker off.
    std::size_t probe_workers = 16;
    // Subscribers (docs/status-subscribers.md). The subscriber worker: concurrent deliveries (0 turns it
    // off: events and deliveries stay queued), how often it looks at the outbox, one attempt's longest wait,
    // the retry schedule (exponential from the base, capped, with jitter) and the attempts before a
    // delivery fails.
    std::size_t subscriber_workers = 4;
    std::int64_t subscriber_poll_ms = 500;
    std::int64_t delivery_timeout_ms = 10'000;
    std::int64_t delivery_retry_base_ms = 30'000, delivery_retry_max_ms = 3'600'000;
    int delivery_max_attempts = 12;
    // Status mail: `host:port` of the SMTP relay (empty: the mail product's --mail-relay; neither: no email
    // subscriptions) and the sender address (empty: status@<host of status_url>).
    std::string smtp_relay, mail_from;
    // The Telegram Bot API (tests point it at a local server).
    std::string telegram_api_base = "https://api.telegram.org";
    // New subscriptions per client address.
    RateLimit subscribe_rate_limit{10, 600'000};
    // How often the maintenance ticker moves windows by the clock (edge/status/maintenance_ticker.h):
    // reminders, starts and ends notify at most this late. 0 turns the ticker off.
    std::int64_t maintenance_tick_ms = 5000;
    // Restart firings at once (edge/status/restart_worker.h); 0 leaves firings pending until the next start
    // marks them interrupted (tests of that path).
    std::size_t restart_workers = 2;
  } status;

  // Storage and its CDN (docs/storage-*.md).
  struct Storage {
    // Where blobs live: "local" (files under blob_dir) or "s3" (an S3-compatible service, below).
    std::string backend = "local";
    // Local blobs; empty: <data-dir>/blobs. With S3, originals fetched for the CDN are cached here.
    std::string blob_dir;
    // S3-compatible backend: endpoint URL (path-style requests), bucket, region and credentials.
    std::string s3_endpoint, s3_bucket, s3_region = "us-east-1", s3_access_key, s3_secret_key;
    // Largest single-shot upload (DECISIONS.md: 100 MB; 413 past it).
    std::uint64_t max_upload_bytes = 100ULL * 1000 * 1000;
    // Company-wide quota when the company sets none.
    std::uint64_t default_quota_bytes = 5ULL * 1000 * 1000 * 1000;
    // Images with more pixels than this are refused at upload and never decoded by the CDN.
    std::uint64_t max_image_pixels = 100ULL * 1000 * 1000;
    // CDN variants, one folder per media id (edge/storage/variant_folder.h); empty: <data-dir>/variants.
    std::string variant_dir;
  } storage;

  std::string web_root = "web";
  std::string wasm_root = "build/wasm/wasm";
  std::string bindings_root = "bindings";
  // npm packages (npm ci at the repository root): the dashboard serves mjml-browser from here.
  std::string node_modules_root = "node_modules";

  bool demo = false;  // seed demo data into an empty data directory
  std::string log_level = "info";

  // Fills the empty product URLs from the listen address.
  void resolve_urls();
};

}  // namespace edge
