#pragma once
// A RandomSource for tests: bytes first, first+1, first+2, ... so every token and id is known in advance.

#include <cstdint>
#include <span>

#include "core/random.h"

namespace testing {

class CountingRandom final : public core::RandomSource {
 public:
  explicit CountingRandom(std::uint8_t first = 0) : next_(first) {}
  void fill(std::span<std::uint8_t> out) override {
    for (std::uint8_t& b : out) b = next_++;
  }

 private:
  std::uint8_t next_;
};

}  // namespace testing
