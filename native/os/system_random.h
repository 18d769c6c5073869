#pragma once

#include <sodium.h>

#include "core/random.h"

namespace native {

// libsodium's randombytes: the kernel's getrandom(2). Thread-safe.
class SystemRandom final : public core::RandomSource {
 public:
  SystemRandom() {
    if (sodium_init() < 0) __builtin_trap();  // no usable random source: nothing safe can be done
  }
  void fill(std::span<std::uint8_t> out) override { randombytes_buf(out.data(), out.size()); }
};

}  // namespace native
