#pragma once
// The subscriber worker (docs/status-subscribers.md, "Delivery"): turns each event of the outbox
// (status_events.h, `ev/...`) into one delivery per matching subscriber, and delivers those.
//
// Fan-out: one write transaction per event reads it, writes a delivery record (the delivery log) and a
// queue job (`sdq/<due>/...`) for every verified subscriber of the page whose topic and component filters
// match, and erases the event. A crash before that commit leaves the event for the next scan; after it, the
// jobs exist. The body is fixed at fan-out: {event, pageSlug, data, timestamp (the event's time, ISO with
// milliseconds)}, so every attempt sends the same bytes.
//
// Delivery: a job leaves the queue only in the transaction that records its attempt (and, on failure,
// queues the next one after retry_delay_ms), so a kill -9 at any point before that commit sends it again
// after the restart: at least once, never lost.
//
// Threads: a dispatcher that fans out and scans the queue every Config::Status::subscriber_poll_ms (or when
// woken by events_committed or a new subscription), and Config::Status::subscriber_workers senders. A job
// is held by one thread at a time (an in-memory claim). Tests turn the threads off (subscriber_workers 0)
// and call fan_out and deliver_due themselves.

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/result.h"

namespace edge {
struct App;
}

namespace edge::status {

class SubscriberWorker {
 public:
  explicit SubscriberWorker(App& app);
  ~SubscriberWorker();
  SubscriberWorker(const SubscriberWorker&) = delete;
  SubscriberWorker& operator=(const SubscriberWorker&) = delete;

  // Starts the threads; none when subscriber_workers is 0.
  void start();
  void wake();
  // Lets attempts in progress finish (each bounded by delivery_timeout_ms), then joins. Idempotent.
  void stop();

  // Fans out every event in the outbox, oldest first; answers how many were taken.
  core::Result<std::size_t> fan_out();
  // Makes one attempt of every job due by the clock, on the calling thread; answers how many.
  core::Result<std::size_t> deliver_due();
  // Makes one attempt of the job stored under `job_key`, now, on the calling thread.
  void deliver(const std::string& job_key);

 private:
  void dispatch_loop();
  void send_loop();

  App& app_;
  std::mutex mutex_;
  std::condition_variable wake_dispatcher_, wake_senders_;
  bool stopping_ = false, woken_ = false, started_ = false;
  std::deque<std::string> queue_;
  std::set<std::string> claimed_;
  std::thread dispatcher_;
  std::vector<std::thread> senders_;
};

}  // namespace edge::status
