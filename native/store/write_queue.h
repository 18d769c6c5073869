#pragma once
// WriteQueue: the hand-over between write() callers and the store's single writer thread (group commit).
// Callers enqueue a request and block; the writer takes the queued requests in arrival order, applies them
// under one commit, and only then finishes them, which wakes their callers. Independent of LMDB, so another
// backend can reuse it.

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <span>
#include <vector>

#include "core/result.h"
#include "native/store/kv_store.h"

namespace store {

// One waiting write() call. Lives on the caller's stack; the writer thread owns it between take() and
// finish() and must not touch it afterwards.
struct WriteRequest {
  explicit WriteRequest(const std::function<core::Status(WriteTxn&)>& f) : fn(f) {}

  const std::function<core::Status(WriteTxn&)>& fn;
  core::Status result;           // set by the writer before finish()
  std::exception_ptr exception;  // set when fn threw; rethrown to the caller
  bool done = false;             // guarded by the queue's mutex
  std::condition_variable woken;
};

class WriteQueue {
 public:
  // Caller side: enqueues `request` and blocks until the writer has finished it. Returns false, without
  // enqueuing, once close() was called.
  bool submit_and_wait(WriteRequest& request);

  // Writer side: blocks until a request is queued, then moves up to `max` of them (oldest first, at least
  // one) to the end of `batch`. Returns false when the queue is closed and empty: the writer should stop.
  bool take(std::vector<WriteRequest*>& batch, std::size_t max);

  // Writer side: marks the requests done and wakes their callers. Their `result` (and `exception`) must be
  // set; afterwards the requests may already be gone.
  void finish(std::span<WriteRequest* const> requests);

  // Rejects further submissions. Requests already queued are still handed out by take().
  void close();

  // Number of requests queued and not yet taken.
  std::size_t queued() const;

 private:
  mutable std::mutex mutex_;
  std::condition_variable writer_wakeup_;
  std::deque<WriteRequest*> queue_;
  bool closed_ = false;
};

}  // namespace store
