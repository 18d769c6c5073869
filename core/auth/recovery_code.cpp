#include "core/auth/recovery_code.h"

#include <array>
#include <cstdint>

#include "core/ascii.h"

namespace core::auth {
namespace {

constexpr std::string_view kAlphabet = "abcdefghjkmnpqrstuvwxyz23456789";
static_assert(kAlphabet.size() == 31);
constexpr std::size_t kCodeLength = 12;
constexpr std::size_t kGroupLength = 4;
// The largest multiple of the alphabet size that fits a byte: bytes at or above it are drawn again, so
// that every character is equally likely.
constexpr unsigned kAcceptBelow = 256 / kAlphabet.size() * kAlphabet.size();

// Hands out random bytes from `random` in batches, to avoid one fill() call per byte.
class ByteStream {
 public:
  explicit ByteStream(RandomSource& random) : random_(random) {}
  std::uint8_t next() {
    if (used_ == buffer_.size()) {
      random_.fill(buffer_);
      used_ = 0;
    }
    return buffer_[used_++];
  }

 private:
  RandomSource& random_;
  std::array<std::uint8_t, 16> buffer_{};
  std::size_t used_ = buffer_.size();
};

Error invalid_recovery_code() {
  return make_error("invalid_recovery_code",
                    "a recovery code has 12 letters and digits, like abcd-efgh-jkmn");
}

}  // namespace

std::vector<std::string> make_recovery_codes(RandomSource& random, std::size_t count) {
  ByteStream bytes(random);
  std::vector<std::string> codes;
  codes.reserve(count);
  for (std::size_t n = 0; n < count; ++n) {
    std::string code;
    for (std::size_t i = 0; i < kCodeLength; ++i) {
      if (i > 0 && i % kGroupLength == 0) code += '-';
      std::uint8_t byte = bytes.next();
      while (byte >= kAcceptBelow) byte = bytes.next();
      code += kAlphabet[byte % kAlphabet.size()];
    }
    codes.push_back(std::move(code));
  }
  return codes;
}

Result<std::string> normalize_recovery_code(std::string_view text) {
  std::string code;
  for (char c : text) {
    if (is_ascii_space(c) || c == '-') continue;
    const char lower = to_ascii_lower(c);
    if (kAlphabet.find(lower) == std::string_view::npos || code.size() == kCodeLength) {
      return invalid_recovery_code();
    }
    code += lower;
  }
  if (code.size() != kCodeLength) return invalid_recovery_code();
  return code;
}

}  // namespace core::auth
