#include "edge/server.h"

#include <spdlog/spdlog.h>

#include "edge/auth_projects/auth_sweep.h"
#include "edge/storage/storage_routes.h"
#include "edge/vault/vault_runtime.h"

namespace edge {

// The App as the transport sees it.
class EdgeServer::Service : public HttpService {
 public:
  explicit Service(App& app) : app_(app) {}
  RequestPlan plan(Request& head) override { return plan_request(app_, head); }
  Response handle(Request& req, const RequestPlan& plan) override { return run_request(req, plan); }
  std::optional<Response> answer_inline(Request& req, const RequestPlan& plan) override {
    return edge::answer_inline(req, plan);
  }
  Response refuse(const Request& req, int status, std::string_view reason) override {
    return error_for_path(req, status, reason);
  }

 private:
  App& app_;
};

namespace {

HttpServerOptions transport_options(const Config& c) {
  HttpServerOptions o;
  o.host = c.listen_host;
  o.port = c.listen_port;
  o.io_threads = c.io_threads;
  o.worker_threads = c.threads;
  o.header_timeout = std::chrono::milliseconds(c.header_timeout_ms);
  o.body_timeout = std::chrono::milliseconds(c.body_timeout_ms);
  o.idle_timeout = std::chrono::milliseconds(c.idle_timeout_ms);
  o.send_timeout = std::chrono::milliseconds(c.send_timeout_ms);
  o.shutdown_grace = std::chrono::milliseconds(c.shutdown_grace_ms);
  o.max_header_bytes = c.max_header_bytes;
  o.max_header_count = c.max_header_count;
  o.max_connections = c.max_connections;
  return o;
}

}  // namespace

core::Result<std::unique_ptr<EdgeServer>> EdgeServer::start(Config config, core::Clock& clock,
                                                            core::RandomSource& random) {
  std::unique_ptr<EdgeServer> s(new EdgeServer());
  HttpServerOptions options = transport_options(config);
  auto app = open_app(std::move(config), clock, random);
  if (!app) return app.error();
  s->app_ = std::move(*app);
  App* a = s->app_.get();
  // Before serving (never in edge-admin, which may run beside a serving edge): a blob no record names was
  // left by a crash between writing the blob and committing its record (docs/storage-blobs.md).
  auto swept = storage::sweep_orphan_blobs(*a);
  if (!swept) return swept.error();
  if (*swept > 0) spdlog::info("storage: removed {} orphan blobs", *swept);
  s->service_ = std::make_unique<Service>(*a);
  s->http_ = std::make_unique<HttpServer>(options, *s->service_);
  auto port = s->http_->bind();
  if (!port) return port.error();
  s->port_ = *port;
  // Product URLs default to the bound address, so with port 0 they must be resolved after binding.
  if (a->config.listen_port == 0) {
    a->config.listen_port = s->port_;
    std::string old = "http://" + a->config.listen_host + ":0";
    for (std::string* url :
         {&a->config.base_url, &a->config.auth_url, &a->config.mail_url, &a->config.storage_url,
          &a->config.cdn_url, &a->config.status_url, &a->config.site_url})
      if (*url == old) *url = "http://" + a->config.listen_host + ":" + std::to_string(s->port_);
    a->hosts = std::make_unique<HostMap>(a->config);
  }
  s->serve_thread_ = std::thread([srv = s.get()] { srv->http_->serve(); });
  s->background_thread_ = std::thread([srv = s.get()] { srv->background_loop(); });
  s->app_->mail_delivery->start();
  s->app_->mail_webhooks->start();
  s->app_->status_restarts->start();
  s->app_->status_probes->start();
  s->app_->status_subscribers->start();
  s->app_->status_maintenance->start();
  s->app_->vault->start(true);
  return s;
}

void EdgeServer::background_loop() {
  std::unique_lock lock(mutex_);
  std::uint64_t ticks = 0;
  while (!stopping_) {
    wake_.wait_for(lock, std::chrono::seconds(1));
    lock.unlock();
    if (core::Status health = app_->kv->health(); !health.ok() && !reported_store_failure_) {
      reported_store_failure_ = true;
      spdlog::critical(
          "the store stopped taking writes ({}); /healthz answers 503. Check the disk, then "
          "restart the edge: nothing acknowledged was lost",
          health.error().message);
    }
    if (auto flushed = app_->token_usage.flush(*app_->accounts); !flushed)
      spdlog::warn("recording token use failed: {}", flushed.error().message);
    // Expired OAuth codes and tokens, once a minute, a bounded batch at a time.
    if (++ticks % 60 == 0) {
      auto swept = app_->oauth->sweep();
      if (!swept)
        spdlog::warn("sweeping expired OAuth records failed: {}", swept.error().message);
      else if (*swept > 0)
        spdlog::info("swept {} expired OAuth codes and tokens", *swept);
      // The same for auth projects' refresh tokens, ended sessions, links and tickets.
      auto auth_swept = auth_projects::sweep_auth_records(*app_);
      if (!auth_swept)
        spdlog::warn("sweeping expired auth project records failed: {}", auth_swept.error().message);
      else if (*auth_swept > 0)
        spdlog::info("swept {} expired auth project index entries and their records", *auth_swept);
    }
    lock.lock();
  }
}

void EdgeServer::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  // First, so the env vault's long polls end before the transport waits for the handlers in progress.
  if (app_ && app_->vault) app_->vault->stop();
  if (http_) http_->stop();  // absent when start() failed before binding
  if (serve_thread_.joinable()) serve_thread_.join();
  if (app_ && app_->mail_delivery) app_->mail_delivery->stop();
  if (app_ && app_->mail_webhooks) app_->mail_webhooks->stop();
  if (app_ && app_->status_probes) app_->status_probes->stop();
  if (app_ && app_->status_subscribers) app_->status_subscribers->stop();
  if (app_ && app_->status_maintenance) app_->status_maintenance->stop();
  if (app_ && app_->status_restarts) app_->status_restarts->stop();
  wake_.notify_all();
  if (background_thread_.joinable()) background_thread_.join();
  if (app_) (void)app_->token_usage.flush(*app_->accounts);
}

EdgeServer::~EdgeServer() {
  stop();
}

}  // namespace edge
