#include "edge/status/subscriber_worker.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <optional>

#include "core/date.h"
#include "core/id.h"
#include "edge/app.h"
#include "edge/http/message.h"
#include "edge/platform/record_json.h"
#include "edge/status/delivery_channels.h"
#include "edge/status/delivery_schedule.h"
#include "edge/status/status_events.h"
#include "edge/status/status_store.h"
#include "edge/status/subscriber_texts.h"
#include "edge/status/subscribers.h"
#include "edge/status/telegram_client.h"

namespace edge::status {
namespace {

constexpr std::size_t kQueueTarget = 256;  // jobs claimed ahead of the senders
constexpr std::size_t kHistory = 10;       // attempts kept on a delivery record
constexpr std::size_t kFanOutBatch = 64;   // events taken per scan

// Queue keys below this one are due at `now_ms`.
std::string queue_horizon(std::int64_t now_ms) {
  return delivery_job_key(now_ms + 1, "", "", "", "").substr(0, kDeliveryQueuePrefix.size() + 13);
}

double random_unit(App& app) {
  std::uint8_t b[4];
  app.random.fill(b);
  const std::uint32_t v = (std::uint32_t(b[0]) << 24) | (std::uint32_t(b[1]) << 16) |
                          (std::uint32_t(b[2]) << 8) | std::uint32_t(b[3]);
  return static_cast<double>(v) / 4294967296.0;
}

std::string public_base(const App& app, std::string_view slug) {
  return app.config.status_url + "/p/" + std::string(slug);
}

// The attempt's result for one delivery.
ChannelOutcome attempt(App& app, const DeliveryJob& job, const json::object& delivery,
                       const json::object& subscriber, const json::object& page) {
  ChannelOutcome failed;
  failed.kind = ChannelOutcome::Kind::failed;
  const std::string event = record::str(delivery, "event");
  const std::string type = record::str(subscriber, "type");
  const std::string slug = record::str(page, "slug");
  const Lang lang = lang_from_code(record::str(subscriber, "lang"));
  const SubscriberTexts& t = subscriber_texts(lang);
  std::string page_name = record::str(page, "name");
  if (const auto* b = page.if_contains("branding"); b && b->is_object())
    if (auto n = record::str(b->get_object(), "displayName"); !n.empty()) page_name = n;
  auto replace = [](std::string text, std::string_view name, std::string_view value) {
    for (auto at = text.find(name); at != std::string::npos; at = text.find(name, at + value.size()))
      text.replace(at, name.size(), value);
    return text;
  };
  const std::string message_id = job.deliveryId + "@status.platform";
  const std::int64_t now = app.clock.now_ms();

  if (event == "subscription.confirm") {
    auto token = unseal_member(app, job.companyId, subscriber, "confirmToken");
    if (!token) {
      failed.error = "the confirmation token cannot be read";
      return failed;
    }
    const std::string link = public_base(app, slug) + "/confirm?token=" + url_encode(*token);
    return send_status_mail(app, record::str(subscriber, "email"),
                            replace(std::string(t.optin_subject), "{page}", page_name),
                            replace(replace(std::string(t.optin_body), "{page}", page_name), "{link}", link),
                            message_id, now, {});
  }
  if (record::str(subscriber, "status") != "verified") {
    failed.error = "the subscriber is not verified";
    return failed;
  }
  auto token = unseal_member(app, job.companyId, subscriber, "managementToken");
  if (!token) {
    failed.error = "the management token cannot be read";
    spdlog::error("status subscriber {}: {}", job.subscriberId, token.error().message);
    return failed;
  }
  const std::string body = record::str(delivery, "body");
  if (type == "webhook")
    return post_webhook(app, record::str(subscriber, "webhookUrl"), body, event, *token, job.deliveryId);

  auto parsed = core::parse_json_object(body);
  json::object data;
  if (parsed)
    if (const auto* d = parsed->if_contains("data"); d && d->is_object()) data = d->get_object();
  NotificationText text = notification_text(event, data, page_name, lang);
  const std::string prefs = public_base(app, slug) + "/preferences?token=" + url_encode(*token);
  const std::string unsubscribe = public_base(app, slug) + "/unsubscribe?token=" + url_encode(*token);
  if (type == "email") {
    std::string mail = text.body + "\n--\n" + std::string(t.footer_preferences) + ": " + prefs + "\n" +
                       std::string(t.footer_unsubscribe) + ": " + unsubscribe + "\n";
    // RFC 8058: a POST of `List-Unsubscribe=One-Click` to this URL unsubscribes without a page visit.
    return send_status_mail(app, record::str(subscriber, "email"), text.subject, mail, message_id, now,
                            {{"List-Unsubscribe", "<" + unsubscribe + ">"},
                             {"List-Unsubscribe-Post", "List-Unsubscribe=One-Click"}});
  }
  if (type == "telegram") {
    auto bot = unseal_member(app, job.companyId, subscriber, "botToken");
    if (!bot) {
      failed.error = "the bot token cannot be read";
      return failed;
    }
    auto r =
        telegram_send_message(app.config.status.telegram_api_base, *bot, record::str(subscriber, "chatId"),
                              text.subject + "\n\n" + text.body + "\n" + prefs,
                              std::chrono::milliseconds(app.config.status.delivery_timeout_ms));
    ChannelOutcome out;
    out.status = r.status;
    out.kind = r.ok      ? ChannelOutcome::Kind::delivered
               : r.retry ? ChannelOutcome::Kind::retry
                         : ChannelOutcome::Kind::failed;
    out.error = r.error;
    return out;
  }
  failed.error = "unknown subscriber type";
  return failed;
}

}  // namespace

SubscriberWorker::SubscriberWorker(App& app) : app_(app) {}

SubscriberWorker::~SubscriberWorker() {
  stop();
}

void SubscriberWorker::start() {
  std::lock_guard lock(mutex_);
  if (started_ || stopping_ || app_.config.status.subscriber_workers == 0) return;
  started_ = true;
  woken_ = true;
  dispatcher_ = std::thread([this] { dispatch_loop(); });
  for (std::size_t i = 0; i < app_.config.status.subscriber_workers; ++i)
    senders_.emplace_back([this] { send_loop(); });
}

void SubscriberWorker::wake() {
  {
    std::lock_guard lock(mutex_);
    woken_ = true;
  }
  wake_dispatcher_.notify_one();
}

void SubscriberWorker::stop() {
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

core::Result<std::size_t> SubscriberWorker::fan_out() {
  store::Table t = app_.status_table;
  std::size_t total = 0;
  while (true) {
    std::vector<std::string> keys;
    auto st = app_.kv->read([&](const store::ReadTxn& txn) -> core::Status {
      keys.clear();
      txn.scan(t, "ev/", [&](std::string_view key, std::string_view) {
        keys.emplace_back(key);
        return keys.size() < kFanOutBatch;
      });
      return {};
    });
    if (!st.ok()) return st.error();
    if (keys.empty()) return total;
    for (const auto& key : keys) {
      const std::int64_t now = app_.clock.now_ms();
      auto written = app_.kv->write([&](store::WriteTxn& txn) -> core::Status {
        auto ev = record::get_object(txn, t, key);
        txn.erase(t, key);  // a value that is not an event object is dropped too, or it would come back
        if (!ev) return {};
        const std::string company_id = record::str(*ev, "companyId"), page_id = record::str(*ev, "pageId");
        if (!is_key_segment(company_id) || !is_key_segment(page_id)) return {};
        auto page = record::get_object(txn, t, page_key(company_id, page_id));
        if (!page) return {};  // the page was deleted: nobody to tell
        const std::string event = record::str(*ev, "event");
        json::object body{{"event", event},
                          {"pageSlug", record::str(*page, "slug")},
                          {"data", ev->contains("data") ? ev->at("data") : json::value(json::object())},
                          {"timestamp", core::format_timestamp(record::num(*ev, "at"))}};
        const std::string bytes = core::to_json(body);
        const auto components = record::strs(*ev, "componentIds");
        std::vector<json::object> subscribers;
        txn.scan(t, subscriber_prefix(company_id, page_id), [&](std::string_view, std::string_view value) {
          if (auto s = core::parse_json_object(value)) subscribers.push_back(std::move(*s));
          return true;
        });
        for (const auto& s : subscribers) {
          if (record::str(s, "status") != "verified" || !subscriber_matches(s, event, components)) continue;
          const std::string sid = record::str(s, "id");
          const std::string did = core::make_time_ordered_id("sdl_", now, app_.random);
          json::object delivery{{"id", did},
                                {"subscriberId", sid},
                                {"event", event},
                                {"eventId", record::str(*ev, "id")},
                                {"status", "pending"},
                                {"attempts", 0},
                                {"createdAt", core::format_timestamp(now)},
                                {"nextAttemptAt", core::format_timestamp(now)},
                                {"history", json::array()},
                                {"body", bytes}};
          record::put_object(txn, t, delivery_key(company_id, page_id, sid, did), delivery);
          record::put_object(txn, t, delivery_job_key(now, company_id, page_id, sid, did), json::object{});
        }
        return {};
      });
      if (!written.ok()) return written.error();
      ++total;
    }
  }
}

core::Result<std::size_t> SubscriberWorker::deliver_due() {
  const std::string horizon = queue_horizon(app_.clock.now_ms());
  std::vector<std::string> due;
  auto st = app_.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    due.clear();
    txn.scan(app_.status_table, kDeliveryQueuePrefix, [&](std::string_view key, std::string_view) {
      if (key >= horizon) return false;
      due.emplace_back(key);
      return true;
    });
    return {};
  });
  if (!st.ok()) return st.error();
  for (const auto& key : due) deliver(key);
  return due.size();
}

void SubscriberWorker::dispatch_loop() {
  const auto interval =
      std::chrono::milliseconds(std::max<std::int64_t>(10, app_.config.status.subscriber_poll_ms));
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    if (!woken_) wake_dispatcher_.wait_for(lock, interval);
    woken_ = false;
    if (stopping_) break;
    lock.unlock();
    if (auto fanned = fan_out(); !fanned)
      spdlog::warn("status: fanning out events failed: {}", fanned.error().message);
    const std::string horizon = queue_horizon(app_.clock.now_ms());
    std::vector<std::string> due;
    auto st = app_.kv->read([&](const store::ReadTxn& txn) -> core::Status {
      due.clear();
      txn.scan(app_.status_table, kDeliveryQueuePrefix, [&](std::string_view key, std::string_view) {
        if (key >= horizon) return false;
        due.emplace_back(key);
        return due.size() < 2 * kQueueTarget;
      });
      return {};
    });
    if (!st.ok()) spdlog::warn("status: reading the delivery queue failed: {}", st.error().message);
    lock.lock();
    for (auto& key : due)
      if (queue_.size() < kQueueTarget && claimed_.insert(key).second) queue_.push_back(std::move(key));
    if (!queue_.empty()) wake_senders_.notify_all();
  }
}

void SubscriberWorker::send_loop() {
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

void SubscriberWorker::deliver(const std::string& job_key) {
  store::Table t = app_.status_table;
  auto job = parse_delivery_job(job_key);
  bool queued = false;
  std::optional<json::object> delivery, subscriber, page;
  auto st = app_.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    queued = txn.get(t, job_key).has_value();
    if (!queued || !job) return {};
    delivery = record::get_object(
        txn, t, delivery_key(job->companyId, job->pageId, job->subscriberId, job->deliveryId));
    subscriber = record::get_object(txn, t, subscriber_key(job->companyId, job->pageId, job->subscriberId));
    page = record::get_object(txn, t, page_key(job->companyId, job->pageId));
    return {};
  });
  if (!st.ok()) {
    spdlog::warn("status: reading delivery job failed: {}", st.error().message);
    return;
  }
  if (!queued) return;  // done by another attempt meanwhile
  if (!job || !delivery || !subscriber || !page) {
    // A malformed key, or the subscriber (with its log) or the page is gone: nothing to send.
    (void)app_.kv->write([&](store::WriteTxn& txn) -> core::Status {
      txn.erase(t, job_key);
      return {};
    });
    return;
  }

  const std::int64_t started = app_.clock.now_ms();
  ChannelOutcome outcome = attempt(app_, *job, *delivery, *subscriber, *page);
  const std::int64_t now = app_.clock.now_ms();
  const double unit = random_unit(app_);
  const RetryPolicy policy{app_.config.status.delivery_retry_base_ms,
                           app_.config.status.delivery_retry_max_ms,
                           app_.config.status.delivery_max_attempts};
  const std::string dkey = delivery_key(job->companyId, job->pageId, job->subscriberId, job->deliveryId);
  auto write = app_.kv->write([&](store::WriteTxn& txn) -> core::Status {
    if (!txn.erase(t, job_key)) return {};  // taken by another attempt meanwhile
    auto rec = record::get_object(txn, t, dkey);
    if (!rec) return {};
    const std::int64_t attempts = record::num(*rec, "attempts") + 1;
    (*rec)["attempts"] = attempts;
    (*rec)["lastAttemptAt"] = core::format_timestamp(started);
    (*rec)["lastError"] = outcome.error.empty() ? json::value(nullptr) : json::value(outcome.error);
    json::array history;
    if (auto* h = rec->if_contains("history"); h && h->is_array()) history = h->get_array();
    history.emplace_back(
        json::object{{"at", core::format_timestamp(started)},
                     {"status", outcome.status ? json::value(outcome.status) : json::value(nullptr)},
                     {"error", (*rec)["lastError"]},
                     {"durationMs", now - started}});
    while (history.size() > kHistory) history.erase(history.begin());
    (*rec)["history"] = std::move(history);
    (*rec)["nextAttemptAt"] = nullptr;
    if (outcome.delivered()) {
      (*rec)["status"] = "delivered";
      (*rec)["deliveredAt"] = core::format_timestamp(now);
    } else {
      std::optional<std::int64_t> delay;
      if (outcome.kind == ChannelOutcome::Kind::retry)
        delay = retry_delay_ms(policy, static_cast<int>(attempts), unit);
      if (delay) {
        record::put_object(
            txn, t,
            delivery_job_key(now + *delay, job->companyId, job->pageId, job->subscriberId, job->deliveryId),
            json::object{});
        (*rec)["status"] = "pending";
        (*rec)["nextAttemptAt"] = core::format_timestamp(now + *delay);
      } else {
        (*rec)["status"] = "failed";
      }
    }
    record::put_object(txn, t, dkey, *rec);
    return {};
  });
  if (!write.ok())
    spdlog::error("status: recording delivery {} failed: {}", job->deliveryId, write.error().message);
}

}  // namespace edge::status
