#include "edge/http/http_server.h"

#include <httplib.h>

#include <sys/socket.h>

#include <algorithm>
#include <cctype>

namespace edge {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

Request to_request(const httplib::Request& in) {
  Request r;
  r.method = in.method;
  r.path = in.path;
  r.remote_addr = in.remote_addr;
  r.body = in.body;
  for (auto& [name, value] : in.headers) r.headers.emplace(lower(name), value);
  for (auto& [name, value] : in.params) r.query.emplace(name, value);
  std::string host = in.get_header_value("Host");
  if (!host.empty() && host.front() == '[') {
    host = host.substr(0, host.find(']') + 1);
  } else if (auto colon = host.find(':'); colon != std::string::npos) {
    host.resize(colon);
  }
  r.host = lower(host);
  return r;
}

void write_response(const Response& in, httplib::Response& out) {
  out.status = in.status;
  for (auto& [name, value] : in.headers) out.set_header(name, value);
  out.set_content(in.body, in.content_type);
}

}  // namespace

struct HttpServer::Impl {
  HttpServerOptions options;
  Dispatch dispatch;
  TransportError on_error;
  httplib::Server server;
  int listen_socket = -1;
};

HttpServer::HttpServer(HttpServerOptions options, Dispatch dispatch, TransportError on_error)
    : impl_(std::make_unique<Impl>()) {
  impl_->options = std::move(options);
  impl_->dispatch = std::move(dispatch);
  impl_->on_error = std::move(on_error);
  auto& s = impl_->server;
  // Without TCP_NODELAY a keep-alive client waits on delayed ACKs: about 300 requests/s instead of 7k+.
  s.set_tcp_nodelay(true);
  s.set_payload_max_length(impl_->options.max_payload);
  std::size_t threads = impl_->options.threads;
  // cpp-httplib holds a worker for as long as a keep-alive connection stays open, so the pool bounds the
  // number of concurrently served connections.
  s.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  s.set_keep_alive_max_count(10000);
  // Debian's cpp-httplib listens with a backlog of 5 (compiled into the library): 64 clients connecting at
  // once overflow it, and the kernel's dropped handshakes come back after 1-3 s retransmits. Remember the
  // listening socket so bind() can listen again with the system's maximum.
  s.set_socket_options([this](int sock) {
    httplib::default_socket_options(sock);
    impl_->listen_socket = sock;
  });
  auto handle = [this](const httplib::Request& in, httplib::Response& out) {
    Request req = to_request(in);
    write_response(impl_->dispatch(req), out);
  };
  s.Get(".*", handle);
  s.Post(".*", handle);
  s.Put(".*", handle);
  s.Patch(".*", handle);
  s.Delete(".*", handle);
  s.Options(".*", handle);
  // Called for every status >= 400. Our own handlers always write a body; an empty one means the transport
  // answered by itself (413 over max_payload, 400 for unparseable HTTP, 404 for an unknown method).
  s.set_error_handler(
      httplib::Server::HandlerWithResponse([this](const httplib::Request& in, httplib::Response& out) {
        if (!out.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
        Request req = to_request(in);
        std::string reason = out.status == 413 ? "request body too large" : "malformed request";
        write_response(impl_->on_error(req, out.status, reason), out);
        return httplib::Server::HandlerResponse::Handled;
      }));
  s.set_exception_handler([this](const httplib::Request& in, httplib::Response& out, std::exception_ptr) {
    Request req = to_request(in);
    write_response(impl_->on_error(req, 500, "internal error"), out);
  });
}

HttpServer::~HttpServer() = default;

core::Result<int> HttpServer::bind() {
  auto& s = impl_->server;
  int port = impl_->options.port;
  if (port == 0) {
    port = s.bind_to_any_port(impl_->options.host);
    if (port < 0) port = 0;
  } else if (!s.bind_to_port(impl_->options.host, port)) {
    port = 0;
  }
  if (port != 0 && impl_->listen_socket >= 0) ::listen(impl_->listen_socket, SOMAXCONN);
  if (port == 0)
    return core::make_error(
        "bind_failed", "cannot listen on " + impl_->options.host + ":" + std::to_string(impl_->options.port));
  return port;
}

void HttpServer::serve() {
  impl_->server.listen_after_bind();
}

void HttpServer::stop() {
  impl_->server.stop();
}

}  // namespace edge
