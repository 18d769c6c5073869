#pragma once
// Maps (method, path) to a handler. Patterns are literal segments and `{name}` segments, which capture
// one non-empty segment into Request::params; a final `{name*}` captures the rest of the path.

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "edge/http/body_sink.h"
#include "edge/http/message.h"

namespace edge {

struct RouteOptions {
  // Largest request body this route accepts; larger ones answer 413 while the body arrives (at once when
  // Content-Length says so), before the handler runs. 0: the configured JSON body limit
  // (Config::max_json_body).
  std::size_t max_body = 0;
  // When set, the body goes to a new sink made by this factory as it arrives (Request::body_sink) instead
  // of Request::body. Called on an I/O thread with the request head; an error answers 500.
  std::function<core::Result<std::shared_ptr<BodySink>>(const Request& head)> body_sink = nullptr;
  // The handler only reads and does bounded work (no write to the store, which waits for an fsync; no
  // password hashing; no scan of a whole company's data): it runs on the I/O thread, saving two thread
  // switches. Everything else runs on the worker pool.
  bool nonblocking = false;
  // Tried on the I/O thread before the handler, under nonblocking's rules: when it answers, that is the
  // response and the handler does not run; nullopt hands the request to the handler. For routes whose
  // common case is cheap and whose rare case is not (a CDN variant that exists against one to be made),
  // so the common case saves the two thread switches of the worker pool.
  InlineAnswer inline_answer = nullptr;
};

class Router {
 public:
  void add(std::string method, std::string_view pattern, Handler handler, RouteOptions options = {});

  struct Match {
    enum Kind { found, method_not_allowed, not_found } kind = not_found;
    const Handler* handler = nullptr;
    const RouteOptions* options = nullptr;  // with handler
    std::string allow;                      // for method_not_allowed: the methods the path has
  };
  // Finds the route for `req` and fills req.params. HEAD is served by GET routes.
  Match match(Request& req) const;

 private:
  struct Segment {
    std::string text;
    bool capture = false;
    bool rest = false;
  };
  struct Route {
    std::string method;
    std::vector<Segment> segments;
    Handler handler;
    RouteOptions options;
  };
  static bool matches(const Route& route, const std::vector<std::string_view>& parts, Request* fill);
  // The routes a path whose first segment is `first` can match, in the order they were added.
  const std::vector<std::size_t>& candidates(std::string_view first) const;

  std::vector<Route> routes_;
  // Routes by their literal first segment, each list also holding (in order) the routes that start with a
  // capture or have no segment, which can match any path; those alone are in open_routes_. A request
  // walks one short list instead of every route.
  std::map<std::string, std::vector<std::size_t>, std::less<>> by_first_;
  std::vector<std::size_t> open_routes_;
};

// Splits `/a/b/c` into {"a","b","c"}; empty segments (double or trailing slashes) are kept as empty strings
// except a single trailing slash, which is dropped.
std::vector<std::string_view> split_path(std::string_view path);

}  // namespace edge
