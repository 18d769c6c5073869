#include "edge/platform/event_hub.h"

#include <algorithm>

namespace edge {
namespace {

void drop_ended(std::vector<std::shared_ptr<EventStream>>& streams) {
  std::erase_if(streams, [](const std::shared_ptr<EventStream>& s) { return !s->open(); });
}

}  // namespace

std::shared_ptr<EventStream> EventHub::subscribe(const std::string& topic,
                                                 const std::function<void(EventStream&)>& first) {
  auto stream = std::make_shared<EventStream>();
  std::lock_guard lock(mutex_);
  auto& streams = topics_[topic];
  drop_ended(streams);
  first(*stream);
  if (stream->open()) streams.push_back(stream);
  if (streams.empty()) topics_.erase(topic);
  return stream;
}

std::size_t EventHub::publish(const std::string& topic, std::string_view data, std::string_view event) {
  // EventStream::send never blocks (it queues for the transport), so sending under the lock keeps every
  // subscriber's order the publish order without holding up writers for long.
  std::lock_guard lock(mutex_);
  auto it = topics_.find(topic);
  if (it == topics_.end()) return 0;
  const std::string id = std::to_string(++sequence_);
  std::size_t delivered = 0;
  for (const auto& stream : it->second)
    if (stream->send(data, event, id)) ++delivered;
  drop_ended(it->second);
  if (it->second.empty()) topics_.erase(it);
  return delivered;
}

std::size_t EventHub::subscribers(const std::string& topic) const {
  std::lock_guard lock(mutex_);
  auto it = topics_.find(topic);
  if (it == topics_.end()) return 0;
  return static_cast<std::size_t>(std::count_if(
      it->second.begin(), it->second.end(), [](const std::shared_ptr<EventStream>& s) { return s->open(); }));
}

}  // namespace edge
