#pragma once
// List paging (spec/DECISIONS.md): `limit` (default 50, max 200) and `skip` (default 0) query parameters.

#include <cstddef>

#include "core/result.h"
#include "edge/http/message.h"

namespace edge {

struct Paging {
  std::size_t limit = 50;
  std::size_t skip = 0;

  // The slice of `items` this page covers.
  template <class Vec>
  Vec apply(const Vec& items) const {
    if (skip >= items.size()) return {};
    auto begin = items.begin() + static_cast<std::ptrdiff_t>(skip);
    auto end = items.size() - skip > limit ? begin + static_cast<std::ptrdiff_t>(limit) : items.end();
    return Vec(begin, end);
  }
};

// `invalid_field` when limit is not an integer in 1..200 or skip not a non-negative integer.
core::Result<Paging> parse_paging(const Request& req);

}  // namespace edge
