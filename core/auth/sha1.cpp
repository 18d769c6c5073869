#include "core/auth/sha1.h"

#include <algorithm>
#include <cstddef>

namespace core::auth {
namespace {

constexpr std::size_t kBlockSize = 64;

std::uint32_t rotl(std::uint32_t x, int n) {
  return (x << n) | (x >> (32 - n));
}

// Streaming state, so that HMAC hashes key pad and message without concatenating them.
class Sha1 {
 public:
  void update(std::span<const std::uint8_t> data) {
    total_bytes_ += data.size();
    for (std::uint8_t byte : data) {
      block_[block_used_++] = byte;
      if (block_used_ == kBlockSize) {
        compress();
        block_used_ = 0;
      }
    }
  }

  // FIPS 180-4 §5.1.1: a 1 bit, zeros up to 56 mod 64 bytes, then the message length in bits (64-bit,
  // big-endian).
  Sha1Digest finish() {
    const std::uint64_t total_bits = total_bytes_ * 8;
    const std::uint8_t one = 0x80;
    update({&one, 1});
    const std::uint8_t zero = 0;
    while (block_used_ != kBlockSize - 8) update({&zero, 1});
    std::uint8_t length[8];
    for (int i = 0; i < 8; ++i) length[i] = static_cast<std::uint8_t>(total_bits >> (56 - 8 * i));
    update(length);
    Sha1Digest out;
    for (int i = 0; i < 5; ++i) {
      for (int j = 0; j < 4; ++j) out[4 * i + j] = static_cast<std::uint8_t>(h_[i] >> (24 - 8 * j));
    }
    return out;
  }

 private:
  // FIPS 180-4 §6.1.2, with the 80-word schedule kept in a 16-word ring.
  void compress() {
    std::uint32_t w[16];
    for (int t = 0; t < 16; ++t) {
      w[t] = (std::uint32_t{block_[4 * t]} << 24) | (std::uint32_t{block_[4 * t + 1]} << 16) |
             (std::uint32_t{block_[4 * t + 2]} << 8) | std::uint32_t{block_[4 * t + 3]};
    }
    std::uint32_t a = h_[0], b = h_[1], c = h_[2], d = h_[3], e = h_[4];
    for (int t = 0; t < 80; ++t) {
      if (t >= 16) {
        w[t % 16] = rotl(w[(t - 3) % 16] ^ w[(t - 8) % 16] ^ w[(t - 14) % 16] ^ w[t % 16], 1);
      }
      std::uint32_t f, k;
      if (t < 20) {
        f = (b & c) | (~b & d);
        k = 0x5a827999;
      } else if (t < 40) {
        f = b ^ c ^ d;
        k = 0x6ed9eba1;
      } else if (t < 60) {
        f = (b & c) | (b & d) | (c & d);
        k = 0x8f1bbcdc;
      } else {
        f = b ^ c ^ d;
        k = 0xca62c1d6;
      }
      const std::uint32_t temp = rotl(a, 5) + f + e + k + w[t % 16];
      e = d;
      d = c;
      c = rotl(b, 30);
      b = a;
      a = temp;
    }
    h_[0] += a;
    h_[1] += b;
    h_[2] += c;
    h_[3] += d;
    h_[4] += e;
  }

  std::uint32_t h_[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};
  std::uint8_t block_[kBlockSize] = {};
  std::size_t block_used_ = 0;
  std::uint64_t total_bytes_ = 0;
};

}  // namespace

Sha1Digest sha1(std::span<const std::uint8_t> data) {
  Sha1 hash;
  hash.update(data);
  return hash.finish();
}

Sha1Digest hmac_sha1(std::span<const std::uint8_t> key, std::span<const std::uint8_t> message) {
  std::array<std::uint8_t, kBlockSize> block_key{};
  if (key.size() > kBlockSize) {
    const Sha1Digest hashed = sha1(key);
    std::copy(hashed.begin(), hashed.end(), block_key.begin());
  } else {
    std::copy(key.begin(), key.end(), block_key.begin());
  }
  std::array<std::uint8_t, kBlockSize> pad;
  for (std::size_t i = 0; i < kBlockSize; ++i) pad[i] = block_key[i] ^ 0x36;
  Sha1 inner;
  inner.update(pad);
  inner.update(message);
  const Sha1Digest inner_digest = inner.finish();
  for (std::size_t i = 0; i < kBlockSize; ++i) pad[i] = block_key[i] ^ 0x5c;
  Sha1 outer;
  outer.update(pad);
  outer.update(inner_digest);
  return outer.finish();
}

}  // namespace core::auth
