#include "raw_client.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>

namespace transport_test {
namespace {

using Clock = std::chrono::steady_clock;

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && s[i] == ' ') ++i;
  return s.substr(i);
}

}  // namespace

std::string RawResponse::header(const std::string& name) const {
  auto it = headers.find(name);
  return it == headers.end() ? std::string() : it->second;
}

RawConn::RawConn(int port) {
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) return;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<unsigned short>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd_);
    fd_ = -1;
    return;
  }
  int one = 1;
  ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

RawConn::~RawConn() {
  close();
}

RawConn::RawConn(RawConn&& other) noexcept : fd_(other.fd_), in_(std::move(other.in_)), eof_(other.eof_) {
  other.fd_ = -1;
}

void RawConn::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

bool RawConn::send(std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

bool RawConn::fill(Clock::time_point until) {
  if (eof_ || fd_ < 0) return false;
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now()).count();
  if (left < 0) return false;
  pollfd p{fd_, POLLIN, 0};
  int r = ::poll(&p, 1, static_cast<int>(left));
  if (r <= 0) return false;
  char buf[65536];
  ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
  if (n <= 0) {
    eof_ = true;
    return false;
  }
  in_.append(buf, static_cast<std::size_t>(n));
  return true;
}

const std::string& RawConn::read_at_least(std::size_t n, std::chrono::milliseconds deadline) {
  auto until = Clock::now() + deadline;
  while (in_.size() < n && fill(until)) {
  }
  return in_;
}

bool RawConn::wait_closed(std::chrono::milliseconds deadline) {
  auto until = Clock::now() + deadline;
  while (fill(until)) {
  }
  return eof_;
}

std::optional<RawResponse> RawConn::read_response(std::chrono::milliseconds deadline, bool head_only) {
  auto until = Clock::now() + deadline;
  std::size_t end;
  while ((end = in_.find("\r\n\r\n")) == std::string::npos)
    if (!fill(until)) return std::nullopt;
  RawResponse r;
  std::string head = in_.substr(0, end + 2);
  std::size_t pos = head.find("\r\n");
  std::string status_line = head.substr(0, pos);
  if (status_line.size() < 12 || status_line.compare(0, 5, "HTTP/") != 0) return std::nullopt;
  r.status = std::stoi(status_line.substr(9, 3));
  while (pos + 2 < head.size()) {
    std::size_t next = head.find("\r\n", pos + 2);
    std::string line = head.substr(pos + 2, next - pos - 2);
    pos = next;
    std::size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    r.headers.emplace(lower(line.substr(0, colon)), trim(line.substr(colon + 1)));
  }
  in_.erase(0, end + 4);
  if (head_only || r.status / 100 == 1 || r.status == 204 || r.status == 304) return r;
  if (r.count("content-length")) {
    std::size_t length = std::stoull(r.header("content-length"));
    while (in_.size() < length)
      if (!fill(until)) return std::nullopt;
    r.body = in_.substr(0, length);
    in_.erase(0, length);
  } else if (lower(r.header("transfer-encoding")) == "chunked") {
    while (true) {
      std::size_t line_end;
      while ((line_end = in_.find("\r\n")) == std::string::npos)
        if (!fill(until)) return std::nullopt;
      std::size_t size = std::stoul(in_.substr(0, line_end), nullptr, 16);
      while (in_.size() < line_end + 2 + size + 2)
        if (!fill(until)) return std::nullopt;
      r.body += in_.substr(line_end + 2, size);
      in_.erase(0, line_end + 2 + size + 2);
      if (size == 0) break;
    }
  } else {
    while (fill(until)) {
    }
    if (!eof_) return std::nullopt;
    r.body = std::move(in_);
    in_.clear();
  }
  return r;
}

}  // namespace transport_test
