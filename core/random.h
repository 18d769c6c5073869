#pragma once
// Randomness enters the core only through this interface: natively it is libsodium's system source,
// in the browser crypto.getRandomValues, in tests a fixed sequence.

#include <cstdint>
#include <span>

namespace core {

class RandomSource {
 public:
  virtual ~RandomSource() = default;
  // Fills `out` with unpredictable bytes. Never fails.
  virtual void fill(std::span<std::uint8_t> out) = 0;
};

}  // namespace core
