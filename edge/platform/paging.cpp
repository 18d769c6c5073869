#include "edge/platform/paging.h"

#include <charconv>

namespace edge {
namespace {

bool parse_size(const std::string& text, std::size_t& out) {
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && p == text.data() + text.size() && !text.empty();
}

}  // namespace

core::Result<Paging> parse_paging(const Request& req) {
  Paging p;
  if (auto limit = req.query_param("limit")) {
    if (!parse_size(*limit, p.limit) || p.limit < 1 || p.limit > 200)
      return core::make_error("invalid_field", "query parameter 'limit' must be an integer from 1 to 200");
  }
  if (auto skip = req.query_param("skip")) {
    if (!parse_size(*skip, p.skip))
      return core::make_error("invalid_field", "query parameter 'skip' must be a non-negative integer");
  }
  return p;
}

}  // namespace edge
