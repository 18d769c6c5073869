#pragma once
// The transport alone, on a free loopback port, serving a few test routes through its real seam
// (HttpService). Each test names the options it exercises (short deadlines, small limits).
//
// Routes:
//   GET  /hello              "hello", inline on the I/O thread
//   *    /path/...           the method and path, on a worker
//   POST /echo               the body back (max_body 1 MiB)
//   POST /upload             the body streamed to a FileSink; answers the byte count and a checksum
//   GET  /slow?ms=N          sleeps N ms on a worker, then "slow"
//   GET  /file               the file at TestServer::file_path (Response::file)
//   GET  /quick?answer=A     planned with try_inline: answer_inline() answers "quick" (A=text) or the file
//                            (A=file); otherwise it declines and the handler says which thread it ran on
//   GET  /events             a Server-Sent Events stream, kept in TestServer::streams
//   POST /early              answered from the plan, before any body byte is read (404-like)

#include <condition_variable>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "edge/http/event_stream.h"
#include "edge/http/http_server.h"

namespace transport_test {

class TestService : public edge::HttpService {
 public:
  explicit TestService(std::string upload_dir) : upload_dir_(std::move(upload_dir)) {}
  edge::RequestPlan plan(edge::Request& head) override;
  edge::Response handle(edge::Request& req, const edge::RequestPlan& plan) override;
  std::optional<edge::Response> answer_inline(edge::Request& req, const edge::RequestPlan& plan) override;
  edge::Response refuse(const edge::Request& req, int status, std::string_view reason) override;

  std::string file_path;
  // The thread answer_inline() last ran on.
  std::thread::id inline_thread;
  // Every event stream handed out, in order, and how many have ended.
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<std::shared_ptr<edge::EventStream>> streams;
  int streams_ended = 0;
  // The upload files the last /upload saw, checked after the sink is gone.
  std::string last_upload_path;

 private:
  std::string upload_dir_;
};

// FNV-1a 64 over bytes, continuing from `h`: the /upload route's checksum (answered in hex).
inline constexpr std::uint64_t kFnvStart = 1469598103934665603ull;
std::uint64_t fnv1a(std::string_view bytes, std::uint64_t h = kFnvStart);
std::string hex(std::uint64_t v);

struct TestServer {
  explicit TestServer(edge::HttpServerOptions options = {});
  ~TestServer();
  // Stops the server and waits for serve() to return; idempotent.
  void stop();

  std::filesystem::path dir;
  std::unique_ptr<TestService> service;
  std::unique_ptr<edge::HttpServer> server;
  int port = 0;
  std::thread thread;
  bool stopped = false;
};

// Waits until `pred` holds, checking every 10 ms, for at most `limit`; returns whether it held.
template <class Pred>
bool eventually(Pred pred, std::chrono::milliseconds limit = std::chrono::seconds(10)) {
  auto until = std::chrono::steady_clock::now() + limit;
  while (!pred()) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

// The process's peak resident memory (VmHWM) in KiB, and a way to start measuring it afresh.
long peak_rss_kib();
void reset_peak_rss();

}  // namespace transport_test
