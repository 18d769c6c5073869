#include "edge/status/delivery_http.h"

#include <httplib.h>

#include <algorithm>

namespace edge::status {
namespace {
constexpr std::size_t kMaxAnswerBytes = 64 << 10;
}

PostResult http_post(const std::string& url, const std::string& body,
                     const std::vector<std::pair<std::string, std::string>>& headers,
                     std::chrono::milliseconds timeout) {
  PostResult out;
  const auto scheme_end = url.find("://");
  if (scheme_end == std::string::npos) {
    out.error = "invalid URL";
    return out;
  }
  const auto rest = url.find_first_of("/?", scheme_end + 3);
  const std::string origin = url.substr(0, rest);
  std::string target = rest == std::string::npos ? "/" : url.substr(rest);
  if (target.front() == '?') target.insert(0, "/");

  httplib::Client client(origin);
  client.set_connection_timeout(timeout);
  client.set_read_timeout(timeout);
  client.set_write_timeout(timeout);
  client.set_follow_location(false);
  client.set_url_encode(false);  // the validated URL is already percent-encoded
  client.set_keep_alive(false);
  client.set_tcp_nodelay(true);

  httplib::Request req;
  req.method = "POST";
  req.path = target;
  req.body = body;
  req.set_header("User-Agent", "platform-status-notifications/1");
  for (const auto& [name, value] : headers) req.set_header(name, value);
  req.response_handler = [&](const httplib::Response& r) {
    out.status = r.status;
    return true;
  };
  req.content_receiver = [&](const char* data, std::size_t n, std::uint64_t, std::uint64_t) {
    out.answer.append(data, std::min(n, kMaxAnswerBytes - out.answer.size()));
    return out.answer.size() < kMaxAnswerBytes;
  };
  httplib::Response res;
  httplib::Error error = httplib::Error::Success;
  const bool answered = client.send(req, res, error);
  if (out.status == 0 && answered) out.status = res.status;
  if (out.status == 0) out.error = httplib::to_string(error);
  return out;
}

std::string answer_excerpt(std::string_view body) {
  std::string out;
  for (char c : body.substr(0, 200)) out += (c >= 0x20 && c < 0x7f) ? c : ' ';
  return out;
}

}  // namespace edge::status
