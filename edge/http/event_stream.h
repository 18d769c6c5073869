#pragma once
// A Server-Sent Events response (text/event-stream, WHATWG HTML §9.2) that stays open while its producer
// sends events from any thread. A handler returns a Response whose `events` holds the stream; the transport
// writes the head, then the events as they are sent, a comment line as a heartbeat while none are, and ends
// the response when the producer closes the stream, the client goes away, the client reads too slowly
// (more than the per-connection cap waiting), or the server shuts down.

#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>

namespace edge {

class EventStream {
 public:
  // Why a stream ended; `open` while it has not.
  enum class State { open, closed_by_producer, client_gone, too_slow, shutdown };

  // Sends one event: optional `event` name and `id`, then `data` (each of its lines as a `data:` line).
  // Returns false, sending nothing, once the stream has ended; when the bytes waiting for the client
  // would pass the cap the stream ends as `too_slow` and this returns false too.
  bool send(std::string_view data, std::string_view event = {}, std::string_view id = {});
  // Ends the response after everything sent so far.
  void close();
  bool open() const;
  State state() const;
  // Called once when the stream ends for any reason, on the thread that ended it. Set it before the handler
  // returns the response (a callback set after the end is called at once).
  void on_end(std::function<void()> fn);

  // The transport's side. `cap` bounds the bytes waiting for the client; `wake` is called (from the
  // sender's thread, without the lock) whenever there is something new to write or the stream ended.
  void attach(std::size_t cap, std::function<void()> wake);
  // Moves the bytes waiting into `out`; returns the state (the transport writes `out` first, then ends the
  // response unless the state is `open`).
  State take(std::string& out);
  // The transport ended the stream (client gone, shutdown). No effect once ended.
  void end(State why);

 private:
  void ended_locked(State why, std::function<void()>& run_after);

  mutable std::mutex mutex_;
  std::string pending_;
  std::size_t cap_ = 1 << 20;
  State state_ = State::open;
  std::function<void()> wake_, on_end_;
};

}  // namespace edge
