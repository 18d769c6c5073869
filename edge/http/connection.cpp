#include "edge/http/connection.h"

#include <fcntl.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>

#include "core/ascii.h"
#include "edge/http/file_response.h"
#include "edge/http/http_date.h"

namespace edge::http_detail {
namespace {

constexpr std::size_t kPiece = 64 << 10;
// Most bytes of a file response sent in one turn of the I/O thread.
constexpr std::uint64_t kFileTurn = 4 << 20;
// After an answer that left a body unread: read and drop at most this much, for at most this long.
constexpr std::uint64_t kLingerBytes = 64ull << 20;
constexpr std::chrono::milliseconds kLingerTime{2000};

std::string_view view(beast::string_view s) {
  return {s.data(), s.size()};
}

// The Date header, formatted once a second per thread.
const std::string& date_now() {
  thread_local std::int64_t second = -1;
  thread_local std::string text;
  auto now =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  if (now != second) {
    second = now;
    text = http_date(now);
  }
  return text;
}

bool client_went_away(const beast::error_code& ec) {
  return ec == http::error::end_of_stream || ec == asio::error::eof || ec == asio::error::connection_reset ||
         ec == asio::error::broken_pipe || ec == asio::error::operation_aborted ||
         ec == http::error::partial_message;
}

bool has_no_body(int status) {
  return status / 100 == 1 || status == 204 || status == 304;
}

// Whether an answer with `status` carries the response's Content-Type.
bool carries_type(const Response& res, int status) {
  return !has_no_body(status) && !res.content_type.empty();
}

// What a handler's own header fields say about the head.
struct HandlerFields {
  bool dated = false;  // it gave a Date
  bool close = false;  // it asked for Connection: close
};

// Passes the handler's header fields to add(name, value), except those the transport writes itself: the
// framing (Content-Length, Transfer-Encoding), Connection, and those replaced(name) says the answer sets.
// Both kinds of head (fill_head, write_file_head) take a handler's fields through here.
template <class Replaced, class Add>
HandlerFields handler_fields(const Response& res, Replaced replaced, Add add) {
  HandlerFields given;
  for (const auto& [name, value] : res.headers) {
    if (core::ascii_iequals(name, "connection")) {
      if (core::ascii_iequals(value, "close")) given.close = true;
      continue;
    }
    if (core::ascii_iequals(name, "content-length") || core::ascii_iequals(name, "transfer-encoding") ||
        replaced(name))
      continue;
    if (core::ascii_iequals(name, "date")) given.dated = true;
    add(name, value);
  }
  return given;
}

// The head of a file response, written straight into `out` (a file answer is the hot path of the CDN: no
// header map is built and walked). The same fields as fill_head() gives other answers, then the file's
// validators and length, which replace a handler's fields of the same names. A handler's Connection:
// close clears `keep_alive`.
void write_file_head(std::string& out, bool http10, bool& keep_alive, const Response& res,
                     const FileAnswer& answer, std::uint64_t size, const std::string& etag,
                     const std::string& last_modified) {
  const bool typed = carries_type(res, answer.status) && answer.status != 416;
  const bool ranged = answer.status == 206 || answer.status == 416;
  auto field = [&out](std::string_view name, std::string_view value) {
    out.append(name).append(": ").append(value).append("\r\n");
  };
  out.clear();
  out.append(http10 ? "HTTP/1.0 " : "HTTP/1.1 ").append(std::to_string(answer.status)).push_back(' ');
  out.append(view(http::obsolete_reason(static_cast<http::status>(answer.status)))).append("\r\n");
  auto replaced = [&](std::string_view name) {
    return core::ascii_iequals(name, "etag") || core::ascii_iequals(name, "last-modified") ||
           core::ascii_iequals(name, "accept-ranges") ||
           ((typed || answer.status == 416) && core::ascii_iequals(name, "content-type")) ||
           (ranged && core::ascii_iequals(name, "content-range"));
  };
  HandlerFields given = handler_fields(res, replaced, field);
  if (given.close) keep_alive = false;
  if (!given.dated) field("Date", date_now());
  if (typed) field("Content-Type", res.content_type);
  if (http10 && keep_alive) field("Connection", "keep-alive");
  if (!http10 && !keep_alive) field("Connection", "close");
  field("ETag", etag);
  field("Last-Modified", last_modified);
  field("Accept-Ranges", "bytes");
  if (answer.status == 206) {
    field("Content-Range", "bytes " + std::to_string(answer.offset) + "-" +
                               std::to_string(answer.offset + answer.length - 1) + "/" +
                               std::to_string(size));
  } else if (answer.status == 416) {
    field("Content-Range", "bytes */" + std::to_string(size));
  }
  if (!has_no_body(answer.status))
    field("Content-Length", std::to_string(answer.status == 416 ? 0 : answer.length));
  out.append("\r\n");
}

// The origin-form path and query of a request target; the absolute form (`http://host/path?q`) is
// reduced to it.
void split_target(std::string_view target, Request& req) {
  if (target.substr(0, 7) == "http://" || target.substr(0, 8) == "https://") {
    std::size_t slash = target.find('/', target.find("//") + 2);
    target = slash == std::string_view::npos ? std::string_view("/") : target.substr(slash);
  }
  std::size_t q = target.find('?');
  req.path = url_decode(target.substr(0, q), false);
  if (q != std::string_view::npos) req.query = parse_url_encoded(target.substr(q + 1));
}

}  // namespace

Connection::Connection(ServerState& state, asio::io_context& io, tcp::socket socket)
    : s_(state), io_(io), socket_(std::move(socket)), timer_(io) {}

Connection::~Connection() {
  if (file_ >= 0) ::close(file_);
  if (stream_) stream_->end(EventStream::State::client_gone);
  {
    std::lock_guard lock(s_.registry_mutex);
    s_.registry.erase(this);
  }
  s_.connections.fetch_sub(1);
}

void Connection::start() {
  beast::error_code ec;
  socket_.set_option(tcp::no_delay(true), ec);  // else Nagle and delayed ACKs hold small answers for 40 ms
  socket_.native_non_blocking(true, ec);        // file responses call send(2) and sendfile(2) themselves
  auto peer = socket_.remote_endpoint(ec);
  if (!ec) remote_ = peer.address().to_string();
  {
    std::lock_guard lock(s_.registry_mutex);
    s_.registry.emplace(this, weak_from_this());
  }
  read_next();
}

void Connection::shutdown() {
  if (phase_ == Phase::idle) return close();
  if (stream_) return stream_->end(EventStream::State::shutdown);  // the last chunk goes out, then close
  keep_alive_ = false;  // answered, then closed; an event stream that starts from here on ends at once
}

void Connection::close() {
  if (phase_ == Phase::closed) return;
  phase_ = Phase::closed;
  timer_.cancel();
  beast::error_code ec;
  socket_.close(ec);
  if (stream_) stream_->end(EventStream::State::client_gone);
}

void Connection::arm(Phase phase, std::chrono::milliseconds after) {
  phase_ = phase;
  timed_out_ = false;
  deadline_ = std::chrono::steady_clock::now() + after;
  if (deadline_ < timer_at_) wait_for_deadline();  // else the pending wait ends sooner and waits again
}

void Connection::wait_for_deadline() {
  timer_at_ = deadline_;
  timer_.expires_at(deadline_);  // ends the pending wait, if any, with operation_aborted
  timer_.async_wait([self = shared_from_this(), generation = ++timer_generation_](beast::error_code ec) {
    self->on_timer_fired(ec, generation);
  });
}

void Connection::no_deadline(Phase phase) {
  phase_ = phase;
  timed_out_ = false;
  deadline_ = std::chrono::steady_clock::time_point::max();
}

void Connection::on_timer_fired(beast::error_code ec, std::uint64_t generation) {
  if (generation != timer_generation_) return;  // replaced by a wait for an earlier deadline
  timer_at_ = std::chrono::steady_clock::time_point::max();
  if (ec || phase_ == Phase::closed || deadline_ == std::chrono::steady_clock::time_point::max()) return;
  if (std::chrono::steady_clock::now() < deadline_) return wait_for_deadline();
  on_timer();
}

void Connection::on_timer() {
  switch (phase_) {
    case Phase::head:
    case Phase::body:
      // The pending read ends with operation_aborted; its handler answers 408.
      timed_out_ = true;
      socket_.cancel();
      break;
    case Phase::streaming:
      if (stream_writing_ && std::chrono::steady_clock::now() - last_write_ > s_.options.send_timeout) {
        stream_->end(EventStream::State::too_slow);
        close();
        return;
      }
      // Heartbeat: a comment line keeps proxies and the client's own idle timers from closing the stream.
      if (!stream_writing_ && std::chrono::steady_clock::now() - last_write_ >= s_.options.event_heartbeat)
        write_event_bytes(":\n\n");
      arm(Phase::streaming, s_.options.event_heartbeat);
      break;
    case Phase::handling:
    case Phase::closed:
      break;
    default:  // idle, writing, lingering
      close();
  }
}

void Connection::read_next() {
  if (phase_ == Phase::closed) return;
  if (s_.stopping.load() && buffer_.size() == 0) return close();
  piece_.reset();
  if (buffer_.size() > 0) return read_head();                  // a pipelined request is already here
  if (buffer_.capacity() > 16 << 10) buffer_.shrink_to_fit();  // an idle connection keeps no large buffer
  arm(Phase::idle, s_.options.idle_timeout);
  if (buffer_.capacity() > 0) {
    // A connection that has served a request keeps its (small) buffer: the next bytes go straight into it.
    // A read costs the reactor nothing more, where a readiness wait re-registers the socket each time.
    socket_.async_read_some(buffer_.prepare(buffer_.capacity()),
                            [self = shared_from_this()](beast::error_code ec, std::size_t n) {
                              if (ec || self->phase_ != Phase::idle) return self->close();
                              self->buffer_.commit(n);
                              self->read_head();
                            });
    return;
  }
  // A new connection holds no buffer until its first byte arrives.
  socket_.async_wait(tcp::socket::wait_read, [self = shared_from_this()](beast::error_code ec) {
    if (ec || self->phase_ != Phase::idle) return self->close();
    self->read_head();
  });
}

void Connection::read_head() {
  parser_.emplace();
  parser_->header_limit(static_cast<std::uint32_t>(s_.options.max_header_bytes));
  parser_->body_limit(boost::none);  // the route's limit is set once the head says which route
  req_ = Request{};
  req_.remote_addr = remote_;
  plan_ = RequestPlan{};
  body_received_ = 0;
  status_ = 0;
  started_ = std::chrono::steady_clock::now();
  if (buffer_.size() > 0) {
    // The whole head is usually in the buffer already: parsed here, without a composed read and the
    // completion it posts. A partial head (need_more) is left in the buffer for the read below.
    beast::error_code ec;
    buffer_.consume(parser_->put(buffer_.data(), ec));
    if (ec ? ec != http::error::need_more : parser_->is_header_done()) {
      phase_ = Phase::head;
      timed_out_ = false;
      return on_head(ec);
    }
  }
  arm(Phase::head, s_.options.header_timeout);
  http::async_read_header(
      socket_, buffer_, *parser_,
      [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_head(ec); });
}

void Connection::on_head(beast::error_code ec) {
  if (phase_ == Phase::closed) return;
  auto& head = parser_->get();
  // The request line, when it was read, tells which product's error format an answer takes.
  req_.method = std::string(view(head.method_string()));
  split_target(view(head.target()), req_);
  if (ec) {
    if (timed_out_) return refuse(408, "request header timeout");
    if (ec == http::error::header_limit) return refuse(431, "request header fields too large");
    if (client_went_away(ec)) return close();
    return refuse(400, "malformed request");
  }
  std::size_t fields = 0;
  for (const auto& f : head) {
    if (++fields > s_.options.max_header_count) return refuse(431, "too many request header fields");
    req_.headers.emplace(core::to_ascii_lower(view(f.name_string())), std::string(view(f.value())));
  }
  std::string_view host = req_.header("host");
  if (!host.empty() && host.front() == '[') {
    host = host.substr(0, host.find(']') + 1);
  } else if (auto colon = host.find(':'); colon != std::string_view::npos) {
    host = host.substr(0, colon);
  }
  req_.host = core::to_ascii_lower(host);
  keep_alive_ = head.keep_alive() && !s_.stopping.load();
  // RFC 9112 §3.2: an HTTP/1.1 request without Host is answered 400.
  if (head.version() >= 11 && head.find(http::field::host) == head.end())
    return refuse(400, "missing Host header");
  bool expect_continue = false;
  if (std::string_view expect = req_.header("expect"); !expect.empty()) {
    if (!core::ascii_iequals(expect, "100-continue")) return refuse(417, "unsupported expectation");
    expect_continue = true;
  }

  try {
    plan_ = s_.service.plan(req_);
  } catch (const std::exception& e) {
    spdlog::error("{} {} planning failed: {}", req_.method, req_.path, e.what());
    return refuse(500, "internal error");
  }
  if (plan_.answer) {
    if (!parser_->is_done()) keep_alive_ = false;  // the body stays unread
    Response answer = std::move(*plan_.answer);
    plan_.answer.reset();
    return respond(std::move(answer));
  }
  if (auto length = parser_->content_length(); length && *length > plan_.max_body)
    return refuse(413, "request body too large");
  if (parser_->is_done()) return run();

  parser_->body_limit(plan_.max_body);  // chunked bodies: checked as the chunks arrive
  auto length = parser_->content_length();
  body_into_string_ = !plan_.sink && length.has_value();
  if (body_into_string_) {
    req_.body.resize(static_cast<std::size_t>(*length));
  }
  if (!expect_continue) return read_body();
  static const std::string kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
  arm(Phase::writing, s_.options.send_timeout);
  asio::async_write(socket_, asio::buffer(kContinue),
                    [self = shared_from_this()](beast::error_code ec, std::size_t) {
                      if (ec || self->phase_ == Phase::closed) return self->close();
                      self->read_body();
                    });
}

void Connection::read_body() {
  auto& body = parser_->get().body();
  if (body_into_string_) {
    body.data = req_.body.data() + body_received_;
    body.size = req_.body.size() - body_received_;
  } else {
    if (!piece_) piece_.reset(new char[kPiece]);
    body.data = piece_.get();
    body.size = kPiece;
  }
  std::size_t offered = body.size;
  // Beast reads as much as the buffer has spare room for (at least 512 bytes), and after a request head
  // that room is small: give it a whole piece, or a 64 MB upload takes 130,000 reads and writes of 512 bytes
  // (measured: docs/performance.md, "Uploads against dd"). An idle connection shrinks it again (read_head).
  if (buffer_.capacity() - buffer_.size() < kPiece) buffer_.reserve(buffer_.size() + kPiece);
  arm(Phase::body, s_.options.body_timeout);
  http::async_read_some(
      socket_, buffer_, *parser_, [self = shared_from_this(), offered](beast::error_code ec, std::size_t) {
        if (self->phase_ == Phase::closed) return;
        std::size_t got = offered - self->parser_->get().body().size;
        if (ec == http::error::need_buffer) ec = {};
        if (!ec && got > 0) {
          if (self->body_into_string_) {
            self->body_received_ += got;
          } else if (self->plan_.sink) {
            auto written = self->plan_.sink->write({self->piece_.get(), got});
            if (!written) {
              spdlog::error("{} {}: {}", self->req_.method, self->req_.path, written.error().message);
              return self->refuse(500, "cannot store the request body");
            }
          } else {
            self->req_.body.append(self->piece_.get(), got);
          }
        }
        self->on_body(ec);
      });
}

void Connection::on_body(beast::error_code ec) {
  if (ec) {
    if (timed_out_) return refuse(408, "request body timeout");
    if (ec == http::error::body_limit) return refuse(413, "request body too large");
    if (client_went_away(ec)) return close();
    return refuse(400, "malformed request body");
  }
  if (!parser_->is_done()) return read_body();
  if (plan_.sink) {
    if (auto done = plan_.sink->finish(); !done) {
      spdlog::error("{} {}: {}", req_.method, req_.path, done.error().message);
      return refuse(500, "cannot store the request body");
    }
    req_.body_sink = plan_.sink;
  }
  run();
}

void Connection::run() {
  no_deadline(Phase::handling);
  piece_.reset();
  if (plan_.try_inline) {
    if (std::optional<Response> answer = s_.service.answer_inline(req_, plan_))
      return respond(std::move(*answer));
  }
  if (plan_.run_inline) return respond(s_.service.handle(req_, plan_));
  asio::post(*s_.workers, [self = shared_from_this()]() mutable {
    Response res = self->s_.service.handle(self->req_, self->plan_);
    auto& io = self->io_;
    asio::post(io,
               [self = std::move(self), res = std::move(res)]() mutable { self->respond(std::move(res)); });
  });
}

void Connection::refuse(int status, std::string_view reason) {
  keep_alive_ = false;
  respond(s_.service.refuse(req_, status, reason));
}

template <class Message>
void Connection::fill_head(Message& m, Response& res) {
  m.result(static_cast<unsigned>(res.status));
  m.version(parser_ && parser_->get().version() == 10 ? 10 : 11);
  const bool typed = carries_type(res, res.status);
  HandlerFields given = handler_fields(
      res, [typed](std::string_view name) { return typed && core::ascii_iequals(name, "content-type"); },
      [&m](std::string_view name, std::string_view value) { m.insert(name, value); });
  if (given.close) keep_alive_ = false;
  if (!given.dated) m.set(http::field::date, date_now());
  if (typed) m.set(http::field::content_type, res.content_type);
  if (s_.stopping.load()) keep_alive_ = false;
  m.keep_alive(keep_alive_);
}

void Connection::respond(Response res) {
  if (phase_ == Phase::closed) return;
  status_ = res.status;
  if (res.events) return start_stream(res);
  if (!res.file.empty()) return send_file(res);
  send_body(res);
}

void Connection::send_body(Response& res) {
  out_.emplace();
  fill_head(*out_, res);
  if (!has_no_body(res.status)) {
    out_->content_length(res.body.size());
    if (req_.method != "HEAD") out_->body() = std::move(res.body);
  }
  arm(Phase::writing, s_.options.send_timeout);
  http::async_write(socket_, *out_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
    self->out_.reset();
    self->finish_response(ec);
  });
}

void Connection::send_file(Response& res) {
  int fd = res.opened ? res.opened->release() : -1;
  if (fd < 0) fd = ::open(res.file.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    if (fd >= 0) ::close(fd);
    return respond(s_.service.refuse(req_, 404, "not found"));
  }
  FileVersion version{static_cast<std::uint64_t>(st.st_size),
                      static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec};
  FileRequest ask{req_.method == "GET" || req_.method == "HEAD", req_.header("if-none-match"),
                  req_.header("if-modified-since"), req_.header("range"), req_.header("if-range")};
  FileAnswer answer = answer_file_request(ask, version);
  if (answer.status == 200 && res.status != 200) answer.status = res.status;
  status_ = answer.status;
  if (answer.status == 416) answer.length = 0;
  if (s_.stopping.load()) keep_alive_ = false;
  write_file_head(file_head_, parser_ && parser_->get().version() == 10, keep_alive_, res, answer,
                  version.size, file_etag(version), http_date(st.st_mtim.tv_sec));
  file_head_sent_ = 0;
  file_ = fd;
  file_offset_ = answer.offset;
  file_left_ = req_.method == "HEAD" || has_no_body(answer.status) ? 0 : answer.length;
  arm(Phase::writing, s_.options.send_timeout);
  write_file();
}

// The head goes out with MSG_MORE and the body by sendfile(2), straight from the page cache: a small
// file leaves in one segment with its head, and no byte passes through user space (nginx's `sendfile on;
// tcp_nopush on;`). When the socket is full, waits until it is writable (send_timeout per wait).
void Connection::write_file() {
  const int sock = socket_.native_handle();
  std::uint64_t sent_now = 0;
  for (;;) {
    ssize_t n;
    if (file_head_sent_ < file_head_.size()) {
      n = ::send(sock, file_head_.data() + file_head_sent_, file_head_.size() - file_head_sent_,
                 MSG_NOSIGNAL | (file_left_ > 0 ? MSG_MORE : 0));
      if (n > 0) {
        file_head_sent_ += static_cast<std::size_t>(n);
        continue;
      }
    } else if (file_left_ > 0) {
      // A fast reader must not hold this I/O thread: after a few MiB the rest continues as a new task.
      if (sent_now >= kFileTurn) {
        asio::post(io_, [self = shared_from_this()] {
          if (self->phase_ == Phase::writing) self->write_file();
        });
        return;
      }
      off_t offset = static_cast<off_t>(file_offset_);
      n = ::sendfile(sock, file_, &offset,
                     static_cast<std::size_t>(std::min<std::uint64_t>(file_left_, kFileTurn)));
      if (n > 0) {
        file_offset_ += static_cast<std::uint64_t>(n);
        file_left_ -= static_cast<std::uint64_t>(n);
        sent_now += static_cast<std::uint64_t>(n);
        continue;
      }
      if (n == 0) {  // the file shrank under us: the length is already promised, so only closing is honest
        spdlog::error("{} {}: reading {} failed", req_.method, req_.path, "a file response");
        return close();
      }
    } else {
      file_head_.clear();
      return finish_response({});
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      arm(Phase::writing, s_.options.send_timeout);
      socket_.async_wait(tcp::socket::wait_write, [self = shared_from_this()](beast::error_code ec) {
        if (!ec && self->phase_ != Phase::writing) ec = asio::error::operation_aborted;
        if (ec) return self->finish_response(ec);
        self->write_file();
      });
      return;
    }
    return finish_response(beast::error_code(errno, boost::system::system_category()));
  }
}

void Connection::start_stream(Response& res) {
  stream_ = res.events;
  keep_alive_ = false;  // the connection ends with the stream
  head_.emplace();
  res.content_type = "text/event-stream";
  fill_head(*head_, res);
  if (head_->find(http::field::cache_control) == head_->end())
    head_->set(http::field::cache_control, "no-cache");
  head_->set("X-Accel-Buffering", "no");  // proxies must pass events on at once
  chunked_ = head_->version() == 11;
  if (chunked_) head_->chunked(true);  // HTTP/1.0 clients: the body ends when the connection does
  std::weak_ptr<Connection> weak = weak_from_this();
  stream_->attach(s_.options.event_buffer_limit, [weak, &io = io_] {
    auto self = weak.lock();
    if (!self || self->wake_posted_.exchange(true)) return;
    asio::post(io, [self] {
      self->wake_posted_ = false;
      self->pump_events();
    });
  });
  head_writer_.emplace(*head_);
  arm(Phase::writing, s_.options.send_timeout);
  http::async_write_header(socket_, *head_writer_,
                           [self = shared_from_this()](beast::error_code ec, std::size_t) {
                             if (ec || self->phase_ == Phase::closed) return self->close();
                             self->log(self->status_);
                             if (self->s_.stopping.load()) self->stream_->end(EventStream::State::shutdown);
                             self->last_write_ = std::chrono::steady_clock::now();
                             self->arm(Phase::streaming, self->s_.options.event_heartbeat);
                             self->watch_for_close();
                             self->pump_events();
                           });
}

void Connection::pump_events() {
  if (phase_ != Phase::streaming || stream_writing_) return;
  std::string fresh;
  EventStream::State state = stream_->take(fresh);
  if (!fresh.empty()) return write_event_bytes(std::move(fresh));
  if (state == EventStream::State::open) return;
  if (state == EventStream::State::closed_by_producer || state == EventStream::State::shutdown) {
    // The last chunk ends the response properly; then the connection closes.
    if (chunked_) {
      stream_writing_ = true;
      stream_out_ = "0\r\n\r\n";
      asio::async_write(socket_, asio::buffer(stream_out_),
                        [self = shared_from_this()](beast::error_code, std::size_t) { self->close(); });
      return;
    }
  }
  close();
}

void Connection::write_event_bytes(std::string bytes) {
  if (chunked_) {
    char size[20];
    auto* end = std::to_chars(size, size + sizeof size, bytes.size(), 16).ptr;
    stream_out_.assign(size, end).append("\r\n").append(bytes).append("\r\n");
  } else {
    stream_out_ = std::move(bytes);
  }
  stream_writing_ = true;
  last_write_ = std::chrono::steady_clock::now();
  asio::async_write(socket_, asio::buffer(stream_out_),
                    [self = shared_from_this()](beast::error_code ec, std::size_t) {
                      self->stream_writing_ = false;
                      if (ec) {
                        self->stream_->end(EventStream::State::client_gone);
                        return self->close();
                      }
                      self->last_write_ = std::chrono::steady_clock::now();
                      self->pump_events();
                    });
}

// A client that closes an event stream is noticed by the read side (EOF or reset), not only at the next
// write, so producers learn at once that nobody listens.
void Connection::watch_for_close() {
  socket_.async_read_some(
      asio::buffer(watch_), [self = shared_from_this()](beast::error_code ec, std::size_t) {
        if (self->phase_ == Phase::closed) return;
        if (ec) {
          self->stream_->end(EventStream::State::client_gone);
          return self->close();
        }
        self->watch_for_close();  // anything the client sends on an event stream is dropped
      });
}

void Connection::finish_response(beast::error_code ec) {
  if (file_ >= 0) {
    ::close(file_);
    file_ = -1;
  }
  head_writer_.reset();
  head_.reset();
  if (phase_ == Phase::closed) return;
  if (ec) return close();
  log(status_);
  // Nothing of the request outlives its answer: a streamed body's sink (and its file) goes now, and an
  // idle connection holds no body.
  req_ = Request{};
  plan_ = RequestPlan{};
  if (keep_alive_) return read_next();
  if (parser_ && !parser_->is_done()) return linger();
  beast::error_code ignored;
  socket_.shutdown(tcp::socket::shutdown_send, ignored);
  close();
}

void Connection::linger() {
  beast::error_code ignored;
  socket_.shutdown(tcp::socket::shutdown_send, ignored);
  if (phase_ != Phase::lingering) {
    drained_ = 0;
    arm(Phase::lingering, kLingerTime);
  }
  if (!piece_) piece_.reset(new char[kPiece]);
  socket_.async_read_some(asio::buffer(piece_.get(), kPiece),
                          [self = shared_from_this()](beast::error_code ec, std::size_t n) {
                            self->drained_ += n;
                            if (ec || self->drained_ > kLingerBytes || self->phase_ != Phase::lingering)
                              return self->close();
                            self->linger();
                          });
}

void Connection::log(int status) const {
  if (!spdlog::should_log(spdlog::level::info)) return;
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started_).count();
  // Path only: query strings can carry tokens (management links, OAuth codes), headers are never logged.
  spdlog::info("{} {} {} {:.2f}ms", req_.method.empty() ? "-" : req_.method,
               req_.path.empty() ? "-" : req_.path, status, ms);
}

}  // namespace edge::http_detail
