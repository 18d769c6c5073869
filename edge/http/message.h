#pragma once
// The HTTP request and response as the products see them. The transport (edge/http/http_server.h)
// converts to and from these, so it can change without touching a product module.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace edge {

class BodySink;
class EventStream;

struct Request {
  std::string method;  // upper case: GET, POST, ...
  std::string path;    // decoded path without the query string
  std::string host;    // Host header without the port
  std::string remote_addr;
  std::string body;
  // Set instead of `body` for a route that streams its body (RouteOptions::body_sink): the sink that took it.
  std::shared_ptr<BodySink> body_sink;
  // Header names are stored lower case; a repeated header keeps its first value.
  std::map<std::string, std::string> headers;
  std::multimap<std::string, std::string> query;
  // Filled by the router from `{name}` segments.
  std::map<std::string, std::string, std::less<>> params;

  std::string_view header(std::string_view lower_name) const;
  std::optional<std::string> query_param(std::string_view name) const;
  std::string_view param(std::string_view name) const;
  // The value of cookie `name`, or empty.
  std::string cookie(std::string_view name) const;
  // application/x-www-form-urlencoded body fields (first value of each name).
  std::map<std::string, std::string> form() const;
};

// A file a handler has opened already (Response::opened), closed with its last owner unless the
// transport took it.
class OpenFile {
 public:
  explicit OpenFile(int fd) : fd_(fd) {}
  ~OpenFile();
  OpenFile(const OpenFile&) = delete;
  OpenFile& operator=(const OpenFile&) = delete;
  // The descriptor, now the caller's to close; -1 once taken.
  int release() {
    int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_;
};

struct Response {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  // When set, the response is this file instead of `body`, sent in pieces; the transport answers Range
  // (206/416), If-None-Match and If-Modified-Since (304) and adds ETag, Last-Modified and Accept-Ranges
  // (edge/http/file_response.h). A file that cannot be opened answers 404.
  std::string file;
  // With `file`: that file already open (a handler that opened it to learn it exists, as the CDN does),
  // sent instead of opening `file` again.
  std::shared_ptr<OpenFile> opened;
  // When set, the response is a Server-Sent Events stream that stays open (edge/http/event_stream.h);
  // `status` and `headers` apply, `content_type` is text/event-stream.
  std::shared_ptr<EventStream> events;

  Response& set_header(std::string name, std::string value) {
    headers.emplace_back(std::move(name), std::move(value));
    return *this;
  }
};

using Handler = std::function<Response(Request&)>;
// A cheap first try at a request on the I/O thread (RouteOptions::inline_answer): an answer, or nullopt
// when the request needs the route's handler.
using InlineAnswer = std::function<std::optional<Response>(Request&)>;

// A redirect (302 Found, 303 See Other) to `location`, never cached.
Response redirect_response(int status, std::string location);

// Decodes %XX escapes, and '+' as a space when `plus_is_space` (form bodies and query strings).
std::string url_decode(std::string_view text, bool plus_is_space);
std::string url_encode(std::string_view text);
// Parses `a=1&b=2` into a multimap, decoding names and values.
std::multimap<std::string, std::string> parse_url_encoded(std::string_view text);

// Escapes text for an HTML body or attribute value.
std::string html_escape(std::string_view text);

}  // namespace edge
