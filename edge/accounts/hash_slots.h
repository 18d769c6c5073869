#pragma once
// Bounds the password hashes (argon2id, 64 MiB and tens of milliseconds each) that run at once. Sign-in
// is the one place anybody on the internet can make the server hash; without a bound a burst of attempts
// takes every worker thread and gigabytes of memory. A few attempts may wait for a slot; past that they
// are refused at once, so the caller can answer 503 with Retry-After instead of queueing without end.

#include <condition_variable>
#include <cstddef>
#include <mutex>

namespace edge {

class HashSlots {
 public:
  // `running` hashes at once (at least 1), `waiting` more callers queued for a slot.
  HashSlots(std::size_t running, std::size_t waiting);

  // A held slot, given back when the Ticket goes. Empty (false) when the queue was full.
  class Ticket {
   public:
    Ticket() = default;
    explicit Ticket(HashSlots* owner) : owner_(owner) {}
    Ticket(Ticket&& other) noexcept : owner_(other.owner_) { other.owner_ = nullptr; }
    Ticket& operator=(Ticket&& other) noexcept;
    ~Ticket();
    explicit operator bool() const { return owner_ != nullptr; }

   private:
    HashSlots* owner_ = nullptr;
  };

  // Takes a slot, waiting in the queue when all are running; an empty Ticket at once when the queue is full.
  // Thread-safe.
  Ticket acquire();

  // Callers waiting for a slot now (for tests).
  std::size_t waiting();

 private:
  void release();

  std::mutex mutex_;
  std::condition_variable freed_;
  std::size_t running_limit_, waiting_limit_;
  std::size_t running_ = 0, waiting_ = 0;
};

}  // namespace edge
