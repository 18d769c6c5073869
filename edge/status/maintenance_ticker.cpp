#include "edge/status/maintenance_ticker.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/status/maintenance_store.h"
#include "edge/status/page_events.h"
#include "edge/status/status_events.h"
#include "edge/status/status_store.h"

namespace edge::status {

MaintenanceTicker::MaintenanceTicker(App& app, std::int64_t interval_ms)
    : app_(app), interval_ms_(interval_ms) {}

MaintenanceTicker::~MaintenanceTicker() {
  stop();
}

void MaintenanceTicker::start() {
  std::lock_guard lock(mutex_);
  if (started_ || interval_ms_ <= 0) return;
  started_ = true;
  thread_ = std::thread([this] { loop(); });
}

void MaintenanceTicker::stop() {
  {
    std::lock_guard lock(mutex_);
    if (!started_ || stopping_) return;
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void MaintenanceTicker::loop() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    lock.unlock();
    if (auto ticked = tick(app_.clock.now_ms()); !ticked)
      spdlog::warn("maintenance windows: tick failed: {}", ticked.error().message);
    lock.lock();
    wake_.wait_for(lock, std::chrono::milliseconds(interval_ms_), [this] { return stopping_; });
  }
}

core::Result<int> MaintenanceTicker::tick(std::int64_t now_ms) {
  std::lock_guard pass(tick_mutex_);
  struct Entry {
    std::string windowId, companyId, pageId;
  };
  std::vector<Entry> entries;
  store::Table t = app_.status_table;
  const std::string prefix = maintenance_index_key("");
  auto read = app_.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    entries.clear();
    txn.scan(t, prefix, [&](std::string_view key, std::string_view value) {
      auto where = core::parse_json_object(value);
      entries.push_back({std::string(key.substr(prefix.size())),
                         where ? record::str(*where, "companyId") : std::string(),
                         where ? record::str(*where, "pageId") : std::string()});
      return true;
    });
    return {};
  });
  if (!read.ok()) return read.error();
  int notified = 0;
  std::set<std::pair<std::string, std::string>> pages;
  for (auto& e : entries) {
    bool sent = false;
    auto st = app_.kv->write([&](store::WriteTxn& txn) -> core::Status {
      sent = false;
      const std::string key = maintenance_key(e.companyId, e.pageId, e.windowId);
      auto rec = record::get_object(txn, t, key);
      if (!rec) {  // deleted with its page: nothing is owed any more
        txn.erase(t, maintenance_index_key(e.windowId));
        return {};
      }
      sent = advance_maintenance(app_, txn, e.companyId, *rec, now_ms);
      if (sent) record::put_object(txn, t, key, *rec);
      return {};
    });
    if (!st.ok()) return st.error();
    if (sent) {
      ++notified;
      pages.emplace(e.companyId, e.pageId);
    }
  }
  if (notified > 0) events_committed(app_);
  for (auto& [company, page] : pages) page_changed(app_, company, page);
  return notified;
}

}  // namespace edge::status
