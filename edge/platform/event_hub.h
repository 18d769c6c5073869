#pragma once
// Live updates by topic over Server-Sent Events (edge/http/event_stream.h): a route subscribes a client to a
// topic (for example the open orders of one branch) and writes publish to it after their commit.
//
// Ordering contract: a subscriber's first event is what `subscribe`'s `first` callback sent (the snapshot),
// and every event published after the subscription follows it. `first` runs under the hub's lock, so a
// write that commits before the snapshot is read is in the snapshot, and one published while the snapshot
// is read waits and follows it; none is lost between the two. Events of one topic reach every subscriber
// in the order `publish` was called. Publishers call it after their transaction committed, so two writes
// to one record may publish in the other order than they committed: events carry whole records with a
// version and readers keep the highest version they have seen.
//
// A stream that ended (client gone, too slow, shutdown) is dropped at the next publish or subscribe.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "edge/http/event_stream.h"

namespace edge {

class EventHub {
 public:
  // A new stream on `topic`. `first` is called with it before any published event can reach it; it sends
  // the snapshot (or closes the stream if the snapshot cannot be read).
  std::shared_ptr<EventStream> subscribe(const std::string& topic,
                                         const std::function<void(EventStream&)>& first);
  // Sends one event to every open stream of `topic`; the id is the hub's sequence number, increasing
  // across topics. Returns how many streams took it.
  std::size_t publish(const std::string& topic, std::string_view data, std::string_view event);
  // Open streams on `topic` (ended ones that no publish has dropped yet are not counted).
  std::size_t subscribers(const std::string& topic) const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::vector<std::shared_ptr<EventStream>>, std::less<>> topics_;
  std::uint64_t sequence_ = 0;
};

}  // namespace edge
