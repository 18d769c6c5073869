#pragma once
// The delivery worker (docs/mail-delivery.md): takes due outbox jobs (one per recipient), builds the
// message (GMime), signs it with the sending domain's DKIM key, hands it over SMTP to the configured relay
// or the recipient domain's MX, and records the outcome with its events in one transaction:
//   2xx        sent + delivered
//   4xx / no answer   deferred, retried on the schedule; bounced ("gave up") when it is spent
//   5xx        bounced, and the address joins the suppression list
// A job leaves the outbox only in the transaction that records its outcome, so a crash (kill -9) at any
// point before that delivers it again after the restart: at least once, never lost. The Message-ID stays
// the same across attempts, so a receiver can tell a repeat.
//
// Threads: one dispatcher that scans the outbox (woken by each accepted send, else once a second for
// scheduled and deferred jobs) and Config::Mail::delivery_workers that deliver. A job is held by one
// thread at a time (an in-memory claim). A third kind of thread re-checks pending sending domains every
// Config::Mail::recheck_interval_s (DNS lookups, which may take seconds, kept off the request threads).

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

class DeliveryWorker {
 public:
  explicit DeliveryWorker(App& app);
  ~DeliveryWorker();
  DeliveryWorker(const DeliveryWorker&) = delete;
  DeliveryWorker& operator=(const DeliveryWorker&) = delete;

  // Starts the threads (no delivery threads when delivery_workers is 0).
  void start();
  // Asks the dispatcher to look at the outbox now (after a send commits).
  void wake();
  // Lets deliveries in progress finish, then joins every thread. Idempotent.
  void stop();

  // Delivers the job stored under `outbox_key` once, now, on the calling thread. For tests and the
  // dispatcher's threads.
  void deliver(const std::string& outbox_key);

 private:
  void dispatch_loop();
  void delivery_loop();
  void recheck_loop();

  App& app_;
  std::mutex mutex_;
  std::condition_variable wake_dispatcher_, wake_workers_, wake_rechecker_;
  bool stopping_ = false, woken_ = false;
  std::deque<std::string> queue_;
  std::set<std::string> claimed_;  // queued or being delivered
  std::thread dispatcher_, rechecker_;
  std::vector<std::thread> workers_;
};

}  // namespace edge::mail
