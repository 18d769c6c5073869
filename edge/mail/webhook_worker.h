#pragma once
// The webhook worker (docs/mail-api.md, "Webhooks"): takes due jobs from the webhook outbox (`whout/`, one
// per delivery, written with the event by record_events), POSTs the event to the endpoint and records the
// attempt in one transaction:
//   2xx                                   delivered
//   anything else, no answer, a timeout   pending again, retried after the next delay of the schedule
//                                         (Config::Mail::webhook_retry_delays_ms; by default 5 s, 5 min,
//                                         30 min, 2 h, 5 h, 10 h, 10 h: Svix's, eight attempts over about 27
//                                         h); failed when it is spent, or when the attempt was a replay
// Each attempt sends `Content-Type: application/json`, `X-Webhook-Signature: sha256=<hex>` (HMAC-SHA256 of
// the raw body under the endpoint's secret, as the status service signs, spec/DECISIONS.md),
// `X-Webhook-Id: <event id>` and `X-Webhook-Timestamp: <unix seconds>` (the body's `timestamp`). Redirects
// are not followed (a 3xx is a failed attempt) and at most 64 KiB of an answer is read.
//
// At least once: a job leaves the outbox only in the transaction that records its attempt, so after a crash
// (kill -9) anywhere before that commit the restarted worker sends the event again, with the same event id.
//
// Threads: one dispatcher that scans the outbox every Config::Mail::webhook_poll_ms (or when woken), and
// Config::Mail::webhook_workers senders. A job is held by one thread at a time (an in-memory claim).

#include <condition_variable>
#include <deque>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace edge {
struct App;
}

namespace edge::mail {

class WebhookWorker {
 public:
  explicit WebhookWorker(App& app);
  ~WebhookWorker();
  WebhookWorker(const WebhookWorker&) = delete;
  WebhookWorker& operator=(const WebhookWorker&) = delete;

  // Starts the threads; none when webhook_workers is 0.
  void start();
  // Asks the dispatcher to look at the outbox now (after a replay commits).
  void wake();
  // Lets attempts in progress finish (each bounded by webhook_timeout_ms), then joins. Idempotent.
  void stop();

  // Makes one attempt of the job stored under `outbox_key`, now, on the calling thread.
  void deliver(const std::string& outbox_key);

 private:
  void dispatch_loop();
  void send_loop();

  App& app_;
  std::mutex mutex_;
  std::condition_variable wake_dispatcher_, wake_senders_;
  bool stopping_ = false, woken_ = false;
  std::deque<std::string> queue_;
  std::set<std::string> claimed_;  // queued or being sent
  std::thread dispatcher_;
  std::vector<std::thread> senders_;
};

}  // namespace edge::mail
