#include "edge/http/http_server.h"

#include <sys/resource.h>

#include <spdlog/spdlog.h>

#include <thread>
#include <vector>

#include "edge/http/connection.h"

namespace edge {

using namespace http_detail;

struct HttpServer::Impl {
  Impl(HttpServerOptions options, HttpService& service) : state(std::move(options), service) {
    std::size_t n = state.options.io_threads;
    if (n == 0) n = std::max(1u, std::thread::hardware_concurrency());
    for (std::size_t i = 0; i < n; ++i) {
      ios.push_back(std::make_unique<asio::io_context>(1));
      guards.emplace_back(asio::make_work_guard(*ios.back()));
    }
    acceptor.emplace(*ios[0]);
    retry.emplace(*ios[0]);
    drain.emplace(*ios[0]);
  }

  void accept_next();
  void on_accepted(beast::error_code ec, tcp::socket socket, asio::io_context& io);
  void begin_shutdown();
  void wait_for_drain(std::chrono::steady_clock::time_point deadline, bool forced);
  template <class Fn>
  void for_each_connection(Fn fn);
  void log_refused();

  ServerState state;
  std::vector<std::unique_ptr<asio::io_context>> ios;
  std::vector<asio::executor_work_guard<asio::io_context::executor_type>> guards;
  std::optional<tcp::acceptor> acceptor;
  std::optional<asio::steady_timer> retry, drain;
  std::size_t next_io = 0;
  std::uint64_t refused = 0, refused_logged = 0;
  std::chrono::steady_clock::time_point refused_log_at{};
};

void HttpServer::Impl::accept_next() {
  asio::io_context& io = *ios[next_io++ % ios.size()];
  acceptor->async_accept(
      io, [this, &io](beast::error_code ec, tcp::socket socket) { on_accepted(ec, std::move(socket), io); });
}

void HttpServer::Impl::on_accepted(beast::error_code ec, tcp::socket socket, asio::io_context& io) {
  if (ec == asio::error::operation_aborted || !acceptor->is_open()) return;
  if (ec) {
    // Out of file descriptors (or another passing error): wait a little instead of spinning on accept.
    spdlog::warn("accepting a connection failed: {}", ec.message());
    retry->expires_after(std::chrono::milliseconds(50));
    retry->async_wait([this](beast::error_code e) {
      if (!e) accept_next();
    });
    return;
  }
  if (state.connections.load() >= state.options.max_connections) {
    beast::error_code ignored;
    socket.close(ignored);
    ++refused;
    log_refused();
  } else {
    state.connections.fetch_add(1);
    auto connection = std::make_shared<Connection>(state, io, std::move(socket));
    asio::post(io, [connection] { connection->start(); });
  }
  accept_next();
}

// One line when connections start being refused, then at most one every 10 s while it goes on.
void HttpServer::Impl::log_refused() {
  auto now = std::chrono::steady_clock::now();
  if (refused_logged != 0 && now - refused_log_at < std::chrono::seconds(10)) return;
  spdlog::warn("refusing new connections: {} open, the maximum (--max-connections); {} refused so far",
               state.connections.load(), refused);
  refused_logged = refused;
  refused_log_at = now;
}

template <class Fn>
void HttpServer::Impl::for_each_connection(Fn fn) {
  std::vector<std::shared_ptr<Connection>> open;
  {
    std::lock_guard lock(state.registry_mutex);
    for (auto& [raw, weak] : state.registry)
      if (auto c = weak.lock()) open.push_back(std::move(c));
  }
  for (auto& c : open) fn(c);
}

void HttpServer::Impl::begin_shutdown() {
  beast::error_code ignored;
  acceptor->close(ignored);
  retry->cancel();
  // Each connection is told on its own I/O thread; posting keeps this thread's lock-free view of it.
  for_each_connection([](const std::shared_ptr<Connection>& c) { c->shutdown(); });
  wait_for_drain(std::chrono::steady_clock::now() + state.options.shutdown_grace, false);
}

void HttpServer::Impl::wait_for_drain(std::chrono::steady_clock::time_point deadline, bool forced) {
  if (state.connections.load() == 0 || (forced && std::chrono::steady_clock::now() >= deadline)) {
    for (auto& g : guards) g.reset();
    for (auto& io : ios) io->stop();
    return;
  }
  if (!forced && std::chrono::steady_clock::now() >= deadline) {
    spdlog::warn("shutdown: closing {} connection(s) still busy after the grace period",
                 state.connections.load());
    for_each_connection([](const std::shared_ptr<Connection>& c) { c->close(); });
    forced = true;
    deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  }
  drain->expires_after(std::chrono::milliseconds(10));
  drain->async_wait([this, deadline, forced](beast::error_code) { wait_for_drain(deadline, forced); });
}

HttpServer::HttpServer(HttpServerOptions options, HttpService& service)
    : impl_(std::make_unique<Impl>(std::move(options), service)) {}

HttpServer::~HttpServer() = default;

core::Result<int> HttpServer::bind() {
  // One descriptor per connection: take every one the hard limit allows, as nginx's worker_rlimit_nofile.
  rlimit files{};
  if (::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
    files.rlim_cur = files.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &files);
  }
  if (::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY &&
      files.rlim_cur < impl_->state.options.max_connections + 64)
    spdlog::warn("the open-file limit ({}) is below --max-connections ({}): connections past it are refused",
                 files.rlim_cur, impl_->state.options.max_connections);

  auto& o = impl_->state.options;
  auto failed = [&](const std::string& why) {
    return core::make_error("bind_failed",
                            "cannot listen on " + o.host + ":" + std::to_string(o.port) + ": " + why);
  };
  beast::error_code ec;
  auto address = asio::ip::make_address(o.host, ec);
  if (ec) return failed("not an IP address");
  tcp::endpoint endpoint(address, static_cast<unsigned short>(o.port));
  auto& acceptor = *impl_->acceptor;
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) return failed(ec.message());
  return static_cast<int>(acceptor.local_endpoint().port());
}

void HttpServer::serve() {
  auto& impl = *impl_;
  impl.state.workers.emplace(impl.state.options.worker_threads);
  asio::post(*impl.ios[0], [&impl] { impl.accept_next(); });
  std::vector<std::thread> threads;
  for (std::size_t i = 1; i < impl.ios.size(); ++i)
    threads.emplace_back([io = impl.ios[i].get()] { io->run(); });
  impl.ios[0]->run();
  for (auto& t : threads) t.join();
  // Handlers still running finish here; what they post back goes nowhere (the connections are closed).
  impl.state.workers->join();
  // Destroying the io_contexts destroys every connection still referenced by a pending operation.
  impl.acceptor.reset();
  impl.retry.reset();
  impl.drain.reset();
  impl.ios.clear();
}

void HttpServer::stop() {
  if (impl_->state.stopping.exchange(true)) return;
  asio::post(*impl_->ios[0], [impl = impl_.get()] { impl->begin_shutdown(); });
}

std::size_t HttpServer::connections() const {
  return impl_->state.connections.load();
}

}  // namespace edge
