#include "test_server.h"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "edge/http/body_sink.h"
#include "edge/http/router.h"

namespace transport_test {

std::uint64_t fnv1a(std::string_view bytes, std::uint64_t h) {
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string hex(std::uint64_t v) {
  std::ostringstream out;
  out << std::hex << v;
  return out.str();
}

edge::RequestPlan TestService::plan(edge::Request& head) {
  edge::RequestPlan p;
  p.max_body = 1 << 20;
  if (head.path == "/hello") p.run_inline = true;
  if (head.path == "/quick") p.try_inline = true;
  if (head.path == "/upload") {
    p.max_body = 200u << 20;
    auto sink = edge::FileSink::create(upload_dir_);
    REQUIRE(sink.ok());
    last_upload_path = (*sink)->path();
    p.sink = std::move(*sink);
  }
  if (head.path == "/early") {
    edge::Response r;
    r.status = 404;
    r.content_type = "text/plain";
    r.body = "no such route";
    p.answer = std::move(r);
  }
  return p;
}

std::optional<edge::Response> TestService::answer_inline(edge::Request& req, const edge::RequestPlan&) {
  inline_thread = std::this_thread::get_id();
  if (req.query_param("answer") == "text") {
    edge::Response r;
    r.content_type = "text/plain";
    r.body = "quick";
    return r;
  }
  if (req.query_param("answer") == "file") {
    edge::Response r;
    r.content_type = "application/octet-stream";
    r.file = file_path;
    return r;
  }
  return std::nullopt;
}

edge::Response TestService::handle(edge::Request& req, const edge::RequestPlan&) {
  edge::Response r;
  r.content_type = "text/plain";
  if (req.path == "/quick") {
    r.body =
        std::this_thread::get_id() == inline_thread ? "handler on the I/O thread" : "handler on a worker";
  } else if (req.path == "/hello") {
    r.body = "hello";
  } else if (req.path == "/echo") {
    r.body = req.body;
  } else if (req.path == "/upload") {
    auto& sink = static_cast<edge::FileSink&>(*req.body_sink);
    std::ifstream in(sink.path(), std::ios::binary);
    std::uint64_t h = kFnvStart, total = 0;
    std::vector<char> buf(1 << 16);
    while (in.read(buf.data(), static_cast<std::streamsize>(buf.size())) || in.gcount() > 0) {
      std::string_view piece(buf.data(), static_cast<std::size_t>(in.gcount()));
      h = fnv1a(piece, h);
      total += piece.size();
    }
    // Bytes in the file, their checksum, and what reached Request::body (nothing, for a streamed route).
    r.body = std::to_string(total) + " " + hex(h) + " " + std::to_string(req.body.size());
  } else if (req.path == "/slow") {
    int ms = std::stoi(req.query_param("ms").value_or("100"));
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    r.body = "slow";
  } else if (req.path == "/file") {
    r.content_type = "application/octet-stream";
    r.file = file_path;
  } else if (req.path == "/events") {
    auto stream = std::make_shared<edge::EventStream>();
    stream->on_end([this] {
      std::lock_guard lock(mutex);
      ++streams_ended;
      changed.notify_all();
    });
    {
      std::lock_guard lock(mutex);
      streams.push_back(stream);
      changed.notify_all();
    }
    r.events = stream;
  } else {
    r.body = req.method + " " + req.path;
  }
  return r;
}

edge::Response TestService::refuse(const edge::Request&, int status, std::string_view reason) {
  edge::Response r;
  r.status = status;
  r.content_type = "text/plain";
  r.body = std::string(reason);
  return r;
}

TestServer::TestServer(edge::HttpServerOptions options) {
  static std::atomic<int> counter{0};
  dir = std::filesystem::temp_directory_path() /
        ("transport_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
  std::filesystem::create_directories(dir);
  service = std::make_unique<TestService>((dir / "uploads").string());
  options.host = "127.0.0.1";
  options.port = 0;
  server = std::make_unique<edge::HttpServer>(options, *service);
  auto bound = server->bind();
  REQUIRE_MESSAGE(bound.ok(), (bound.ok() ? "" : bound.error().message));
  port = *bound;
  thread = std::thread([this] { server->serve(); });
}

void TestServer::stop() {
  if (stopped) return;
  stopped = true;
  server->stop();
  thread.join();
}

TestServer::~TestServer() {
  stop();
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);
}

long peak_rss_kib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
  return -1;
}

void reset_peak_rss() {
  std::ofstream("/proc/self/clear_refs") << "5";  // resets VmHWM to the current RSS (Linux 4.0+)
}

}  // namespace transport_test
