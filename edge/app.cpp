#include "edge/app.h"

#include <spdlog/spdlog.h>

#include <filesystem>

#include "edge/accounts/company_routes.h"
#include "edge/accounts/session_routes.h"
#include "edge/accounts/signin_routes.h"
#include "edge/auth_projects/auth_routes.h"
#include "edge/cdn/cdn_routes.h"
#include "edge/http/head_refusal.h"
#include "edge/mail/mail_routes.h"
#include "edge/mail/mailboxes.h"
#include "edge/oauth/oauth_routes.h"
#include "edge/pages/dashboard_routes.h"
#include "edge/pages/layout.h"
#include "edge/platform/client_address.h"
#include "edge/platform/envelope.h"
#include "edge/platform/static_routes.h"
#include "edge/restaurant/restaurant_http.h"
#include "edge/restaurant/restaurant_routes.h"
#include "edge/status/status_http.h"
#include "edge/status/status_routes.h"
#include "edge/storage/storage_routes.h"
#include "edge/vault/vault_routes.h"
#include "edge/vault/vault_runtime.h"
#include "native/crypto/secret_key.h"

namespace edge {

core::Result<std::unique_ptr<App>> open_app(Config config, core::Clock& clock, core::RandomSource& random) {
  config.resolve_urls();
  for (std::string& proxy : config.trusted_proxies) {
    auto address = canonical_address(proxy);
    if (!address) return address.error();
    proxy = *address;
  }
  if (config.upload_dir.empty()) config.upload_dir = config.data_dir + "/tmp";
  if (config.storage.blob_dir.empty()) config.storage.blob_dir = config.data_dir + "/blobs";
  if (config.storage.variant_dir.empty()) config.storage.variant_dir = config.data_dir + "/variants";
  // Streamed bodies left behind by a crash belong to no request any more (FileSink names them upload-*).
  std::error_code ec;
  for (auto it = std::filesystem::directory_iterator(config.upload_dir, ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec))
    if (it->path().filename().string().rfind("upload-", 0) == 0) std::filesystem::remove(it->path(), ec);
  auto app = std::make_unique<App>(std::move(config), clock, random);
  auto kv = store::open_lmdb(app->config.data_dir);
  if (!kv) return kv.error();
  app->kv = std::move(*kv);
  auto key = native::load_secret_key(app->config.secret_key_hex, app->config.data_dir, random);
  if (!key) return key.error();
  app->secret_key = *key;
  auto accounts_table = app->kv->open_table("accounts");
  if (!accounts_table) return accounts_table.error();
  auto sessions_table = app->kv->open_table("sessions");
  if (!sessions_table) return sessions_table.error();
  auto oauth_table = app->kv->open_table("oauth");
  if (!oauth_table) return oauth_table.error();
  app->oauth_table = *oauth_table;
  auto restaurant_table = app->kv->open_table("restaurant");
  if (!restaurant_table) return restaurant_table.error();
  app->restaurant_table = *restaurant_table;
  auto audit_table = app->kv->open_table("audit");
  if (!audit_table) return audit_table.error();
  app->audit_table = *audit_table;
  auto mail_table = app->kv->open_table("mail");
  if (!mail_table) return mail_table.error();
  app->mail_table = *mail_table;
  auto auth_table = app->kv->open_table("auth");
  if (!auth_table) return auth_table.error();
  app->auth_table = *auth_table;
  auto status_table = app->kv->open_table("status");
  if (!status_table) return status_table.error();
  app->status_table = *status_table;
  auto storage_table = app->kv->open_table("storage");
  if (!storage_table) return storage_table.error();
  app->storage_table = *storage_table;
  auto vault_table = app->kv->open_table("vault");
  if (!vault_table) return vault_table.error();
  app->vault_table = *vault_table;
  auto blobs = storage::make_blob_store(app->config);
  if (!blobs) return blobs.error();
  app->blobs = std::move(*blobs);
  app->auth_signing_keys = std::make_unique<auth_projects::SigningKeys>(*app);
  auto resolver = native::dns::make_ldns_resolver({.nameserver = app->config.mail.nameserver});
  if (!resolver) return resolver.error();
  app->resolver = std::move(*resolver);
  app->accounts_table = *accounts_table;
  app->sessions_table = *sessions_table;
  app->accounts = std::make_unique<Accounts>(*app->kv, app->accounts_table, clock, random);
  app->sessions = std::make_unique<Sessions>(*app->kv, app->sessions_table, clock, random);
  app->oauth = std::make_unique<oauth::OAuthStore>(*app->kv, app->oauth_table, clock, random);
  auto signer = oauth::IdTokenSigner::create(app->config.oauth_rsa_private_key,
                                             app->config.oauth_rsa_private_key_previous,
                                             app->config.oauth_id_token_secret, app->secret_key);
  if (!signer) return signer.error();
  app->id_tokens = std::make_unique<oauth::IdTokenSigner>(std::move(*signer));

  app->hosts = std::make_unique<HostMap>(app->config);
  register_dashboard_routes(*app);  // before the static routes: it serves one path under /web/
  register_static_routes(*app);
  register_signin_routes(*app);
  register_session_routes(*app);
  register_company_routes(*app);
  oauth::register_oauth_routes(*app);
  register_restaurant_routes(*app);
  status::register_status_routes(*app);
  mail::register_mail_routes(*app);
  storage::register_storage_routes(*app);
  cdn::register_cdn_routes(*app);
  auth_projects::register_project_routes(*app);
  auth_projects::register_end_user_routes(*app);
  auth_projects::register_mfa_routes(*app);
  auth_projects::register_social_routes(*app);
  auth_projects::register_passkey_routes(*app);
  app->vault = std::make_shared<vault::VaultRuntime>(*app);
  vault::register_vault_routes(*app);
  app->mail_delivery = std::make_unique<mail::DeliveryWorker>(*app);
  status::ProbeWorkerOptions probes;
  probes.workers = app->config.status.probe_workers;
  app->status_probes = std::make_unique<status::ProbeWorker>(*app, probes);
  app->status_maintenance =
      std::make_unique<status::MaintenanceTicker>(*app, app->config.status.maintenance_tick_ms);
  app->status_restarts = std::make_unique<status::RestartWorker>(
      *app, status::RestartWorkerOptions{.threads = app->config.status.restart_workers});
  // Before anything can record a firing: the previous run's unfinished firings become interrupted.
  if (auto recovered = app->status_restarts->recover(); !recovered.ok()) return recovered.error();
  app->mail_webhooks = std::make_unique<mail::WebhookWorker>(*app);
  app->status_subscribers = std::make_unique<status::SubscriberWorker>(*app);
  // Dovecot's users file follows the store: rewritten now in case a change was cut off by a crash.
  if (auto synced = mail::sync_dovecot(*app); !synced.ok()) return synced.error();
  return app;
}

Response error_for_path(const Request& req, int status, std::string_view message) {
  if (req.path.rfind("/api/restaurant/", 0) == 0) return restaurant::rest_error_for_status(status, message);
  if (req.path.rfind("/api/v1/", 0) == 0 && req.path.rfind("/api/v1/auth/", 0) != 0)
    return status::status_error_for_status(status, message);
  if (req.path.rfind("/api/", 0) == 0) return envelope_error(status, message);
  std::string title = status == 404 ? "Not found" : status == 413 ? "Too large" : "Error";
  return html_page(status, title,
                   "<div class=\"card narrow\"><h1>" + html_escape(title) + "</h1><p class=\"lead\">" +
                       html_escape(message) + "</p></div>");
}

RequestPlan plan_request(App& app, Request& head) {
  RequestPlan plan;
  Router::Match m;
  // A status page's custom domain serves the page at its root (docs/status-public.md).
  if (auto routed = app.hosts->custom_path(head.host, head.path)) head.path = std::move(*routed);
  if (app.hosts->allows(head.host, head.path)) m = app.router.match(head);
  if (m.kind == Router::Match::not_found) {
    plan.answer = error_for_path(head, 404, "not found");
  } else if (m.kind == Router::Match::method_not_allowed) {
    plan.answer = error_for_path(head, 405, "method not allowed");
    plan.answer->set_header("Allow", m.allow);
  } else {
    const RouteOptions& options = *m.options;
    plan.handler = m.handler;
    plan.max_body = options.max_body ? options.max_body : app.config.max_json_body;
    plan.run_inline = options.nonblocking;
    if (options.inline_answer) {
      plan.try_inline = true;
      plan.inline_answer = &options.inline_answer;
    }
    if (options.body_sink) {
      auto sink = options.body_sink(head);
      if (!sink) {
        spdlog::error("{} {}: {}", head.method, head.path, sink.error().message);
        plan.answer = error_for_path(head, 500, "cannot store the request body");
      } else if (auto* refused = dynamic_cast<HeadRefusal*>(sink->get())) {
        plan.answer = std::move(refused->answer);
      } else {
        plan.sink = std::move(*sink);
      }
    }
  }
  return plan;
}

std::optional<Response> answer_inline(Request& req, const RequestPlan& plan) {
  try {
    return (*plan.inline_answer)(req);
  } catch (const std::exception& e) {
    spdlog::error("{} {} inline answer failed: {}", req.method, req.path, e.what());
    return error_for_path(req, 500, "internal error");
  }
}

Response run_request(Request& req, const RequestPlan& plan) {
  try {
    return (*plan.handler)(req);
  } catch (const std::exception& e) {
    spdlog::error("{} {} handler failed: {}", req.method, req.path, e.what());
    return error_for_path(req, 500, "internal error");
  }
}

}  // namespace edge
