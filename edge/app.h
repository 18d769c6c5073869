#pragma once
// The edge application: configuration, store, account model and the routes of every product, without the
// network. Tests drive it in-process through EdgeServer (edge/server.h) on port 0.

#include <memory>

#include "core/clock.h"
#include "core/random.h"
#include "core/sealed.h"
#include "edge/accounts/accounts.h"
#include "edge/accounts/hash_slots.h"
#include "edge/accounts/sessions.h"
#include "edge/auth_projects/attempt_limits.h"
#include "edge/auth_projects/signing_keys.h"
#include "edge/auth_projects/verified_tokens.h"
#include "edge/config.h"
#include "edge/http/http_server.h"
#include "edge/http/router.h"
#include "edge/mail/delivery_worker.h"
#include "edge/mail/templates.h"
#include "edge/mail/webhook_worker.h"
#include "edge/oauth/id_token_signer.h"
#include "edge/oauth/oauth_store.h"
#include "edge/platform/event_hub.h"
#include "edge/platform/host_map.h"
#include "edge/platform/rate_limiter.h"
#include "edge/platform/token_usage.h"
#include "edge/status/maintenance_ticker.h"
#include "edge/status/probe_worker.h"
#include "edge/status/restart_worker.h"
#include "edge/status/snapshot_cache.h"
#include "edge/status/subscriber_worker.h"
#include "edge/storage/blob_store.h"
#include "native/dns/resolver.h"
#include "native/store/kv_store.h"

namespace edge {

namespace vault {
// The env vault's live parts: change notifications and the webhook worker (edge/vault/vault_runtime.h).
class VaultRuntime;
}  // namespace vault

struct App {
  Config config;
  core::Clock& clock;
  core::RandomSource& random;
  // Key of the values sealed at rest (core/sealed.h): PLATFORM_SECRET_KEY or <data-dir>/secret.key.
  core::SecretKey secret_key{};
  std::unique_ptr<store::KvStore> kv;
  store::Table accounts_table, sessions_table, oauth_table, restaurant_table, audit_table, mail_table,
      auth_table, status_table, storage_table, vault_table;
  std::unique_ptr<Accounts> accounts;
  std::unique_ptr<Sessions> sessions;
  std::unique_ptr<oauth::OAuthStore> oauth;
  std::unique_ptr<oauth::IdTokenSigner> id_tokens;
  RateLimiter api_limiter;
  // Failed sign-in attempts per client address and per account (normalized email), and the password
  // hashes sign-in may run at once (docs/accounts.md).
  RateLimiter login_ip_limiter{RateLimit{30, 60'000}};
  RateLimiter login_email_limiter{RateLimit{10, 15 * 60'000}};
  HashSlots signin_hashes;
  RateLimiter token_limiter;
  // Document 2's mail limit, across the mail endpoints, on top of api_limiter.
  RateLimiter mail_limiter;
  // Sending-domain checks and MX lookups (Config::Mail::nameserver).
  std::unique_ptr<native::dns::Resolver> resolver;
  mail::TemplateCache mail_templates;
  // Started by EdgeServer; absent in a bare App.
  std::unique_ptr<mail::DeliveryWorker> mail_delivery;
  std::unique_ptr<mail::WebhookWorker> mail_webhooks;
  // Auth projects (edge/auth_projects/): per-project signing keys (cached) and the end-user limits.
  std::unique_ptr<auth_projects::SigningKeys> auth_signing_keys;
  auth_projects::AttemptLimits auth_limits;
  auth_projects::VerifiedTokens auth_verified_tokens;
  TokenUsage token_usage;
  // Public status snapshots for 30 s per slug and locale (edge/status/snapshot_cache.h).
  status::SnapshotCache status_snapshots;
  // Probes every stored check at its interval and records the verdicts (started by EdgeServer).
  std::unique_ptr<status::ProbeWorker> status_probes;
  // Delivers the status events to the pages' subscribers (started by EdgeServer), and bounds new
  // subscriptions per client address (docs/status-subscribers.md).
  std::unique_ptr<status::SubscriberWorker> status_subscribers;
  RateLimiter status_subscribe_limiter{config.status.subscribe_rate_limit};
  // Reminds, starts and completes maintenance windows by the clock (started by EdgeServer).
  std::unique_ptr<status::MaintenanceTicker> status_maintenance;
  // Fires the restart targets that probe verdicts decided (started by EdgeServer).
  std::unique_ptr<status::RestartWorker> status_restarts;
  // Where media bytes live: the local filesystem or an S3-compatible service (edge/storage/blob_store.h).
  std::unique_ptr<storage::BlobStore> blobs;
  // Live updates over Server-Sent Events (the restaurant board, later the status pages).
  EventHub events;
  // The env vault's change waiters and webhook worker (edge/vault/vault_runtime.h); set by open_app.
  std::shared_ptr<vault::VaultRuntime> vault;
  Router router;
  // Built by open_app from the resolved product URLs.
  std::unique_ptr<HostMap> hosts;

  App(Config c, core::Clock& clk, core::RandomSource& rnd)
      : config(std::move(c)),
        clock(clk),
        random(rnd),
        api_limiter(config.rate_limit),
        signin_hashes(config.signin_hashes, config.signin_hash_queue),
        token_limiter(config.oauth_token_rate_limit),
        mail_limiter(config.mail.rate_limit) {}
};

// Opens the data directory and registers every product's routes. Errors: the store's (`storage_error`).
core::Result<std::unique_ptr<App>> open_app(Config config, core::Clock& clock, core::RandomSource& random);

// Decides, from a request's head alone, which route serves it, how large its body may be, where the body
// goes and whether the handler may run on an I/O thread; unmatched paths get their answer here (404, 405 in
// the path's error format). Never blocks, never throws.
RequestPlan plan_request(App& app, Request& head);
// Runs the planned route's handler; an exception becomes a 500 in the path's error format. Never throws.
Response run_request(Request& req, const RequestPlan& plan);
// Runs the planned route's inline answer (on the I/O thread); an exception becomes a 500 as above.
std::optional<Response> answer_inline(Request& req, const RequestPlan& plan);

// The error response for a path when no handler produced one: the restaurant format under
// /api/restaurant/, the status format under /api/v1/ except the auth product's /api/v1/auth/, the platform
// envelope elsewhere under /api/, HTML elsewhere.
Response error_for_path(const Request& req, int status, std::string_view message);

}  // namespace edge
