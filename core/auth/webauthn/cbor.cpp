#include "core/auth/webauthn/cbor.h"

#include <limits>
#include <utility>

namespace core::webauthn {
namespace {

Error cbor_error(std::string message) {
  return make_error("invalid_cbor", std::move(message));
}

// RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF.
bool valid_utf8(std::span<const std::uint8_t> s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const std::uint8_t b = s[i];
    std::size_t extra;
    std::uint32_t cp, min;
    if (b < 0x80) {
      ++i;
      continue;
    } else if ((b & 0xE0) == 0xC0) {
      extra = 1, cp = b & 0x1F, min = 0x80;
    } else if ((b & 0xF0) == 0xE0) {
      extra = 2, cp = b & 0x0F, min = 0x800;
    } else if ((b & 0xF8) == 0xF0) {
      extra = 3, cp = b & 0x07, min = 0x10000;
    } else {
      return false;
    }
    if (s.size() - i <= extra) return false;
    for (std::size_t k = 1; k <= extra; ++k) {
      if ((s[i + k] & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (s[i + k] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += extra + 1;
  }
  return true;
}

class Decoder {
 public:
  explicit Decoder(std::span<const std::uint8_t> data) : data_(data) {}

  std::size_t position() const { return pos_; }

  // `depth`: how many arrays and maps enclose the item.
  Result<CborValue> item(std::size_t depth) {
    if (depth > kMaxCborDepth) {
      return cbor_error("CBOR data is nested more than " + std::to_string(kMaxCborDepth) + " levels deep");
    }
    if (pos_ >= data_.size()) return truncated();
    const std::uint8_t initial = data_[pos_++];
    const std::uint8_t major = initial >> 5;
    const std::uint8_t info = initial & 0x1F;
    if (info == 31) {
      return cbor_error(major == 7 ? "CBOR data contains an unexpected break code"
                                   : "CBOR data uses an indefinite length, which is not accepted");
    }
    if (info >= 28) return cbor_error("CBOR data uses a reserved additional-information value");
    if (major == 7 && info >= 25) {
      return cbor_error("CBOR data contains a floating-point number, which is not accepted");
    }
    auto argument = read_argument(info);
    if (!argument) return argument.error();
    CborValue v;
    v.argument = *argument;
    switch (major) {
      case 0:
        v.type = CborType::unsigned_integer;
        return v;
      case 1:
        v.type = CborType::negative_integer;
        return v;
      case 2:
      case 3: {
        if (v.argument > data_.size() - pos_) return truncated();
        auto bytes = data_.subspan(pos_, static_cast<std::size_t>(v.argument));
        pos_ += bytes.size();
        v.argument = 0;
        if (major == 2) {
          v.type = CborType::byte_string;
          v.bytes.assign(bytes.begin(), bytes.end());
        } else {
          if (!valid_utf8(bytes)) return cbor_error("a CBOR text string is not valid UTF-8");
          v.type = CborType::text_string;
          v.text = to_string(bytes);
        }
        return v;
      }
      case 4: {
        // Every item takes at least one byte: a count beyond the remaining input cannot be satisfied, and
        // checking it first keeps a forged count from reserving memory.
        if (v.argument > data_.size() - pos_) return truncated();
        v.type = CborType::array;
        const auto count = static_cast<std::size_t>(v.argument);
        v.argument = 0;
        v.items.reserve(count);
        for (std::size_t i = 0; i < count; ++i) {
          auto element = item(depth + 1);
          if (!element) return element.error();
          v.items.push_back(std::move(*element));
        }
        return v;
      }
      case 5: {
        if (v.argument > kMaxCborMapEntries) {
          return cbor_error("a CBOR map has more than " + std::to_string(kMaxCborMapEntries) + " entries");
        }
        if (v.argument > (data_.size() - pos_) / 2) return truncated();
        v.type = CborType::map;
        const auto count = static_cast<std::size_t>(v.argument);
        v.argument = 0;
        v.entries.reserve(count);
        for (std::size_t i = 0; i < count; ++i) {
          auto key = item(depth + 1);
          if (!key) return key.error();
          if (key->type != CborType::unsigned_integer && key->type != CborType::negative_integer &&
              key->type != CborType::text_string) {
            return cbor_error("a CBOR map key is neither an integer nor a text string");
          }
          for (const CborEntry& seen : v.entries) {
            // RFC 8949 §5.6: a map with a repeated key is not valid; which value counts would be a guess.
            if (seen.key == *key) return cbor_error("a CBOR map contains the same key twice");
          }
          auto value = item(depth + 1);
          if (!value) return value.error();
          v.entries.push_back(CborEntry{std::move(*key), std::move(*value)});
        }
        return v;
      }
      case 6:
        return cbor_error("CBOR data contains a tag, which is not accepted");
      default:  // 7: simple values
        if (info == 24 && v.argument < 32) {
          return cbor_error(
              "CBOR data encodes a simple value below 32 in two bytes, which is not well-formed");
        }
        v.type = CborType::simple;
        return v;
    }
  }

 private:
  Error truncated() const { return cbor_error("CBOR data ends in the middle of an item"); }

  Result<std::uint64_t> read_argument(std::uint8_t info) {
    if (info < 24) return std::uint64_t{info};
    const std::size_t length = std::size_t{1} << (info - 24);  // 24..27: 1, 2, 4 or 8 bytes follow
    if (length > data_.size() - pos_) return truncated();
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < length; ++i) value = (value << 8) | data_[pos_ + i];
    pos_ += length;
    return value;
  }

  std::span<const std::uint8_t> data_;
  std::size_t pos_ = 0;
};

}  // namespace

std::optional<std::int64_t> CborValue::as_int64() const {
  constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (type == CborType::unsigned_integer && argument <= kMax) return static_cast<std::int64_t>(argument);
  if (type == CborType::negative_integer && argument <= kMax) return -1 - static_cast<std::int64_t>(argument);
  return std::nullopt;
}

const CborValue* CborValue::find(std::int64_t key) const {
  if (type != CborType::map) return nullptr;
  for (const CborEntry& e : entries) {
    if (e.key.is_integer() && e.key.as_int64() == key) return &e.value;
  }
  return nullptr;
}

const CborValue* CborValue::find(std::string_view key) const {
  if (type != CborType::map) return nullptr;
  for (const CborEntry& e : entries) {
    if (e.key.type == CborType::text_string && e.key.text == key) return &e.value;
  }
  return nullptr;
}

bool operator==(const CborValue& a, const CborValue& b) {
  return a.type == b.type && a.argument == b.argument && a.bytes == b.bytes && a.text == b.text &&
         a.items == b.items && a.entries == b.entries;
}

Result<CborPrefix> decode_cbor_prefix(std::span<const std::uint8_t> data) {
  Decoder decoder(data);
  auto value = decoder.item(0);
  if (!value) return value.error();
  return CborPrefix{std::move(*value), decoder.position()};
}

Result<CborValue> decode_cbor(std::span<const std::uint8_t> data) {
  auto prefix = decode_cbor_prefix(data);
  if (!prefix) return prefix.error();
  if (prefix->consumed != data.size()) {
    const std::size_t extra = data.size() - prefix->consumed;
    return cbor_error("CBOR data has " + std::to_string(extra) +
                      (extra == 1 ? " trailing byte" : " trailing bytes") + " after its item");
  }
  return std::move(prefix->value);
}

}  // namespace core::webauthn
