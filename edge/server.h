#pragma once
// A running edge: the App behind the HTTP transport, plus its background work (token usage flushes).
// The `edge` executable runs one; API tests start one in-process on port 0.

#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

#include "edge/app.h"
#include "edge/http/http_server.h"

namespace edge {

class EdgeServer {
 public:
  // Opens the app and binds; serving starts on a background thread. Errors: `bind_failed`, `storage_error`.
  static core::Result<std::unique_ptr<EdgeServer>> start(Config config, core::Clock& clock,
                                                         core::RandomSource& random);
  ~EdgeServer();

  int port() const { return port_; }
  App& app() { return *app_; }

  // Stops accepting, closes idle connections, lets in-flight requests finish (within the shutdown grace),
  // flushes pending writes. Idempotent.
  void stop();

 private:
  EdgeServer() = default;
  void background_loop();

  class Service;

  std::unique_ptr<App> app_;
  std::unique_ptr<Service> service_;
  std::unique_ptr<HttpServer> http_;
  int port_ = 0;
  std::thread serve_thread_, background_thread_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  bool reported_store_failure_ = false;  // background thread only
};

}  // namespace edge
