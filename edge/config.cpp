#include "edge/config.h"

#include <charconv>

namespace edge {

core::Result<RateLimit> parse_rate_limit(std::string_view text) {
  auto bad = [&] {
    return core::make_error("invalid_rate_limit", "rate limit '" + std::string(text) +
                                                      "' must look like 100/10s (requests/window)");
  };
  std::size_t slash = text.find('/');
  if (slash == std::string_view::npos) return bad();
  RateLimit limit;
  auto [p1, e1] = std::from_chars(text.data(), text.data() + slash, limit.requests);
  if (e1 != std::errc() || p1 != text.data() + slash || limit.requests <= 0) return bad();
  std::string_view window = text.substr(slash + 1);
  std::int64_t amount = 0;
  auto [p2, e2] = std::from_chars(window.data(), window.data() + window.size(), amount);
  if (e2 != std::errc() || amount <= 0) return bad();
  std::string_view unit(p2, window.data() + window.size() - p2);
  if (unit == "ms") {
    limit.window_ms = amount;
  } else if (unit == "s") {
    limit.window_ms = amount * 1000;
  } else if (unit == "m") {
    limit.window_ms = amount * 60'000;
  } else {
    return bad();
  }
  return limit;
}

void Config::resolve_urls() {
  std::string fallback = "http://" + listen_host + ":" + std::to_string(listen_port);
  for (std::string* url : {&base_url, &auth_url, &mail_url, &storage_url, &cdn_url, &status_url, &site_url}) {
    if (url->empty()) *url = fallback;
    while (!url->empty() && url->back() == '/') url->pop_back();
  }
}

}  // namespace edge
