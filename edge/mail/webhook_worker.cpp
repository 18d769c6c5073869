#include "edge/mail/webhook_worker.h"

#include <httplib.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <optional>

#include "core/date.h"
#include "core/mail/delivery.h"
#include "core/status/webhook.h"
#include "edge/app.h"
#include "edge/mail/mail_store.h"
#include "edge/mail/webhooks.h"
#include "edge/platform/record_json.h"

namespace edge::mail {
namespace {

constexpr std::size_t kQueueTarget = 256;          // jobs claimed ahead of the senders
constexpr std::size_t kMaxAnswerBytes = 64 << 10;  // of an endpoint's answer body
constexpr std::size_t kErrorExcerpt = 200;         // of that body, kept in lastError
constexpr std::size_t kHistory = 10;               // attempts kept on a delivery record

// Svix's schedule after the first attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h.
const std::vector<std::int64_t> kDefaultDelays{5'000,      300'000,    1'800'000, 7'200'000,
                                               18'000'000, 36'000'000, 36'000'000};

struct JobKey {
  std::string company_id, delivery_id;
};

// whout/<due>/<cid>/<delivery id>
std::optional<JobKey> parse_job_key(std::string_view key) {
  if (key.substr(0, kWebhookOutboxPrefix.size()) != kWebhookOutboxPrefix) return std::nullopt;
  key.remove_prefix(kWebhookOutboxPrefix.size());
  const auto a = key.find('/');
  if (a == std::string_view::npos) return std::nullopt;
  const auto b = key.find('/', a + 1);
  if (b == std::string_view::npos || key.find('/', b + 1) != std::string_view::npos) return std::nullopt;
  JobKey k{std::string(key.substr(a + 1, b - a - 1)), std::string(key.substr(b + 1))};
  if (k.company_id.empty() || k.delivery_id.empty()) return std::nullopt;
  return k;
}

// What one attempt came to.
struct Outcome {
  int status = 0;     // the HTTP status, 0 when there was no answer
  std::string error;  // empty when delivered
  bool delivered() const { return status >= 200 && status < 300; }
};

// Printable ASCII of at most kErrorExcerpt bytes: an answer body is the endpoint's text, not ours.
std::string excerpt(std::string_view body) {
  std::string out;
  for (char c : body.substr(0, kErrorExcerpt)) out += (c >= 0x20 && c < 0x7f) ? c : ' ';
  return out;
}

Outcome post(const App& app, const std::string& url, const std::string& body, const std::string& secret,
             const std::string& event_id, std::int64_t unix_seconds) {
  // The URL passed core::validate_http_url: scheme://authority, then an optional path and query.
  const auto authority = url.find("://") + 3;
  const auto rest = url.find_first_of("/?", authority);
  const std::string origin = url.substr(0, rest);
  std::string target = rest == std::string::npos ? "/" : url.substr(rest);
  if (target.front() == '?') target.insert(0, "/");

  httplib::Client client(origin);
  const auto timeout = std::chrono::milliseconds(app.config.mail.webhook_timeout_ms);
  client.set_connection_timeout(timeout);
  client.set_read_timeout(timeout);
  client.set_write_timeout(timeout);
  client.set_follow_location(false);
  client.set_url_encode(false);  // the validated URL is already percent-encoded
  client.set_keep_alive(false);
  client.set_tcp_nodelay(true);

  httplib::Request req;
  req.method = "POST";
  req.path = target;
  req.body = body;
  req.set_header("Content-Type", "application/json");
  req.set_header("User-Agent", "platform-mail-webhooks/1");
  req.set_header("X-Webhook-Signature", core::status::sign_webhook(body, secret));
  req.set_header("X-Webhook-Id", event_id);
  req.set_header("X-Webhook-Timestamp", std::to_string(unix_seconds));
  Outcome out;
  std::string answer;
  req.response_handler = [&](const httplib::Response& r) {
    out.status = r.status;
    return true;
  };
  req.content_receiver = [&](const char* data, std::size_t n, std::uint64_t, std::uint64_t) {
    answer.append(data, std::min(n, kMaxAnswerBytes - answer.size()));
    return answer.size() < kMaxAnswerBytes;
  };
  httplib::Response res;
  httplib::Error error = httplib::Error::Success;
  const bool answered = client.send(req, res, error);
  if (out.status == 0 && answered) out.status = res.status;
  if (out.delivered()) return out;
  if (out.status != 0) {
    out.error = "HTTP " + std::to_string(out.status);
    if (!answer.empty()) out.error += ": " + excerpt(answer);
  } else {
    out.error = httplib::to_string(error);
  }
  return out;
}

}  // namespace

WebhookWorker::WebhookWorker(App& app) : app_(app) {}

WebhookWorker::~WebhookWorker() {
  stop();
}

void WebhookWorker::start() {
  std::lock_guard lock(mutex_);
  if (dispatcher_.joinable() || stopping_ || app_.config.mail.webhook_workers == 0) return;
  dispatcher_ = std::thread([this] { dispatch_loop(); });
  for (std::size_t i = 0; i < app_.config.mail.webhook_workers; ++i)
    senders_.emplace_back([this] { send_loop(); });
}

void WebhookWorker::wake() {
  {
    std::lock_guard lock(mutex_);
    woken_ = true;
  }
  wake_dispatcher_.notify_one();
}

void WebhookWorker::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  wake_dispatcher_.notify_all();
  wake_senders_.notify_all();
  if (dispatcher_.joinable()) dispatcher_.join();
  for (auto& t : senders_) t.join();
  senders_.clear();
}

void WebhookWorker::dispatch_loop() {
  const auto interval =
      std::chrono::milliseconds(std::max<std::int64_t>(10, app_.config.mail.webhook_poll_ms));
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    if (!woken_) wake_dispatcher_.wait_for(lock, interval);
    woken_ = false;
    if (stopping_) break;
    if (queue_.size() >= kQueueTarget) continue;
    lock.unlock();
    const std::string horizon = std::string(kWebhookOutboxPrefix) + due_text(app_.clock.now_ms() + 1);
    std::vector<std::string> due;
    auto st = app_.kv->read([&](const store::ReadTxn& txn) -> core::Status {
      due.clear();
      txn.scan(app_.mail_table, kWebhookOutboxPrefix, [&](std::string_view key, std::string_view) {
        if (key >= horizon) return false;
        due.emplace_back(key);
        return due.size() < 2 * kQueueTarget;
      });
      return {};
    });
    if (!st.ok()) spdlog::warn("reading the webhook outbox failed: {}", st.error().message);
    lock.lock();
    for (auto& key : due)
      if (queue_.size() < kQueueTarget && claimed_.insert(key).second) queue_.push_back(std::move(key));
    if (!queue_.empty()) wake_senders_.notify_all();
  }
}

void WebhookWorker::send_loop() {
  std::unique_lock lock(mutex_);
  while (true) {
    wake_senders_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (stopping_) return;
    std::string key = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    deliver(key);
    lock.lock();
    claimed_.erase(key);
  }
}

void WebhookWorker::deliver(const std::string& outbox_key) {
  auto job = parse_job_key(outbox_key);
  std::optional<json::object> job_value, endpoint, delivery;
  auto st = app_.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    job_value = get_object(txn, app_.mail_table, outbox_key);
    if (!job_value || !job) return {};
    const std::string webhook_id = record::str(*job_value, "webhookId");
    endpoint = get_object(txn, app_.mail_table, webhook_key(job->company_id, webhook_id));
    delivery =
        get_object(txn, app_.mail_table, webhook_delivery_key(job->company_id, webhook_id, job->delivery_id));
    return {};
  });
  if (!st.ok()) {
    spdlog::warn("reading webhook job {} failed: {}", outbox_key, st.error().message);
    return;
  }
  if (!job_value && job) return;  // done by another attempt, or replayed meanwhile
  if (!job || !endpoint || !delivery) {
    // A malformed key, or the endpoint (and with it its deliveries) was deleted: nothing to send.
    (void)app_.kv->write([&](store::WriteTxn& txn) -> core::Status {
      txn.erase(app_.mail_table, outbox_key);
      return {};
    });
    return;
  }

  const std::int64_t started = app_.clock.now_ms();
  Outcome outcome;
  const auto* enabled = endpoint->if_contains("enabled");
  const bool disabled = enabled && enabled->is_bool() && !enabled->get_bool();
  if (disabled) {
    outcome.error = "the endpoint is disabled";
  } else if (auto secret = webhook_secret(app_, job->company_id, *endpoint); !secret) {
    outcome.error = "the endpoint's signing secret cannot be read";
    spdlog::error("webhook {}: {}", record::str(*endpoint, "id"), secret.error().message);
  } else {
    const json::object payload = delivery->contains("payload") && delivery->at("payload").is_object()
                                     ? delivery->at("payload").get_object()
                                     : json::object();
    const std::int64_t unix_seconds = started / 1000;
    outcome = post(app_, record::str(*endpoint, "url"), webhook_body(payload, unix_seconds), *secret,
                   record::str(*delivery, "eventId"), unix_seconds);
  }
  const bool manual = record::boolean(*job_value, "manual");

  const std::int64_t now = app_.clock.now_ms();
  core::mail::RetrySchedule schedule{app_.config.mail.webhook_retry_delays_ms.empty()
                                         ? kDefaultDelays
                                         : app_.config.mail.webhook_retry_delays_ms};
  const std::string webhook_id = record::str(*job_value, "webhookId");
  const std::string delivery_key = webhook_delivery_key(job->company_id, webhook_id, job->delivery_id);
  auto write = app_.kv->write([&](store::WriteTxn& txn) -> core::Status {
    if (!txn.erase(app_.mail_table, outbox_key)) return {};  // replayed or deleted meanwhile
    auto rec = get_object(txn, app_.mail_table, delivery_key);
    if (!rec) return {};
    const std::int64_t attempts = record::num(*rec, "attempts") + 1;
    (*rec)["attempts"] = attempts;
    (*rec)["lastAttemptAt"] = core::format_timestamp(started);
    (*rec)["lastStatusCode"] = outcome.status ? json::value(outcome.status) : json::value(nullptr);
    (*rec)["lastError"] = outcome.error.empty() ? json::value(nullptr) : json::value(outcome.error);
    json::array history;
    if (auto* h = rec->if_contains("history"); h && h->is_array()) history = h->get_array();
    history.emplace_back(json::object{{"at", core::format_timestamp(started)},
                                      {"statusCode", (*rec)["lastStatusCode"]},
                                      {"error", (*rec)["lastError"]},
                                      {"durationMs", now - started}});
    while (history.size() > kHistory) history.erase(history.begin());
    (*rec)["history"] = std::move(history);
    (*rec)["job"] = nullptr;
    (*rec)["nextAttemptAt"] = nullptr;
    if (outcome.delivered()) {
      (*rec)["status"] = "delivered";
      (*rec)["deliveredAt"] = core::format_timestamp(now);
    } else {
      std::optional<std::int64_t> delay;
      if (!manual && !disabled) {
        const std::int64_t scheduled = record::num(*rec, "scheduledAttempts") + 1;
        (*rec)["scheduledAttempts"] = scheduled;
        delay = core::mail::next_retry_delay(schedule, static_cast<int>(scheduled));
      }
      if (delay) {
        const std::string next = webhook_outbox_key(now + *delay, job->company_id, job->delivery_id);
        put_object(txn, app_.mail_table, next, json::object{{"webhookId", webhook_id}, {"manual", false}});
        (*rec)["status"] = "pending";
        (*rec)["nextAttemptAt"] = core::format_timestamp(now + *delay);
        (*rec)["job"] = next;
      } else {
        (*rec)["status"] = "failed";
      }
    }
    put_object(txn, app_.mail_table, delivery_key, *rec);
    return {};
  });
  if (!write.ok())
    spdlog::error("recording webhook delivery {} failed: {}", outbox_key, write.error().message);
}

}  // namespace edge::mail
