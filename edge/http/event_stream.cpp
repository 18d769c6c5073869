#include "edge/http/event_stream.h"

namespace edge {
namespace {

// One field per line; CR, LF and CRLF all end a line in the event-stream format, so a value's own line
// breaks become separate `data:` lines and never end the event early.
void append_field(std::string& out, std::string_view name, std::string_view value) {
  std::size_t start = 0;
  while (true) {
    std::size_t end = value.find_first_of("\r\n", start);
    out.append(name).append(": ").append(value.substr(start, end - start)).push_back('\n');
    if (end == std::string_view::npos) break;
    start = end + (value.compare(end, 2, "\r\n") == 0 ? 2 : 1);
  }
}

// Line breaks in an event name or id would start a new field: they are dropped.
std::string one_line(std::string_view v) {
  std::string out;
  for (char c : v)
    if (c != '\r' && c != '\n') out.push_back(c);
  return out;
}

}  // namespace

bool EventStream::send(std::string_view data, std::string_view event, std::string_view id) {
  std::string text;
  if (!event.empty()) text.append("event: ").append(one_line(event)).push_back('\n');
  if (!id.empty()) text.append("id: ").append(one_line(id)).push_back('\n');
  append_field(text, "data", data);
  text.push_back('\n');
  std::function<void()> wake, after;
  bool queued = false;
  {
    std::lock_guard lock(mutex_);
    if (state_ != State::open) return false;
    if (pending_.size() + text.size() > cap_) {
      ended_locked(State::too_slow, after);
    } else {
      pending_ += text;
      queued = true;
    }
    wake = wake_;
  }
  if (after) after();
  if (wake) wake();
  return queued;
}

void EventStream::close() {
  end(State::closed_by_producer);
}

bool EventStream::open() const {
  std::lock_guard lock(mutex_);
  return state_ == State::open;
}

EventStream::State EventStream::state() const {
  std::lock_guard lock(mutex_);
  return state_;
}

void EventStream::on_end(std::function<void()> fn) {
  {
    std::lock_guard lock(mutex_);
    if (state_ == State::open) {
      on_end_ = std::move(fn);
      return;
    }
  }
  if (fn) fn();
}

void EventStream::attach(std::size_t cap, std::function<void()> wake) {
  std::lock_guard lock(mutex_);
  cap_ = cap;
  wake_ = std::move(wake);
}

EventStream::State EventStream::take(std::string& out) {
  std::lock_guard lock(mutex_);
  out.swap(pending_);
  pending_.clear();
  return state_;
}

void EventStream::end(State why) {
  std::function<void()> wake, after;
  {
    std::lock_guard lock(mutex_);
    if (state_ != State::open) return;
    ended_locked(why, after);
    wake = wake_;
  }
  if (after) after();
  if (wake) wake();
}

void EventStream::ended_locked(State why, std::function<void()>& run_after) {
  state_ = why;
  // A client that is gone or too slow gets nothing more; a producer's close still delivers what it sent.
  if (why != State::closed_by_producer) pending_.clear();
  run_after = std::move(on_end_);
  on_end_ = nullptr;
}

}  // namespace edge
