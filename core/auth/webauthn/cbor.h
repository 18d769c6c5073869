#pragma once
// A strict decoder for the part of CBOR (RFC 8949) that WebAuthn uses: attestation objects, COSE keys and
// authenticator extensions. Only well-formed, definite-length data is accepted; what WebAuthn never sends
// (indefinite lengths, tags, floating-point numbers) is refused rather than half-supported.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/bytes.h"
#include "core/result.h"

namespace core::webauthn {

// Deepest nesting of arrays and maps accepted (an item inside kMaxCborDepth containers is the deepest);
// a COSE key inside an attestation object sits 2 levels deep.
inline constexpr std::size_t kMaxCborDepth = 16;
// Most entries one map may have. WebAuthn's maps have a handful; the bound keeps the repeated-key check
// (quadratic) cheap on hostile input.
inline constexpr std::size_t kMaxCborMapEntries = 256;

enum class CborType { unsigned_integer, negative_integer, byte_string, text_string, array, map, simple };

struct CborEntry;

// One decoded data item. Only the members of its type are meaningful.
struct CborValue {
  CborType type = CborType::simple;
  // unsigned_integer: the value; negative_integer: n for the value -1 - n; simple: the simple value
  // (20 false, 21 true, 22 null, 23 undefined, others unassigned).
  std::uint64_t argument = 0;
  Bytes bytes;                     // byte_string
  std::string text;                // text_string, valid UTF-8
  std::vector<CborValue> items;    // array
  std::vector<CborEntry> entries;  // map, in encoded order, keys unique

  bool is_integer() const { return type == CborType::unsigned_integer || type == CborType::negative_integer; }
  // The integer as int64; nullopt for other types and for integers outside int64's range.
  std::optional<std::int64_t> as_int64() const;
  bool is_bool() const { return type == CborType::simple && (argument == 20 || argument == 21); }
  bool is_true() const { return type == CborType::simple && argument == 21; }
  bool is_null() const { return type == CborType::simple && argument == 22; }

  // The value of a map's entry whose key is the integer `key` / the text string `key`; nullptr when this is
  // not a map or has no such key.
  const CborValue* find(std::int64_t key) const;
  const CborValue* find(std::string_view key) const;

  friend bool operator==(const CborValue&, const CborValue&);
};

struct CborEntry {
  CborValue key, value;
  friend bool operator==(const CborEntry&, const CborEntry&) = default;
};

// The first item of `data` and how many bytes it took: how the credential public key inside
// authenticatorData is read, since extensions may follow it.
struct CborPrefix {
  CborValue value;
  std::size_t consumed = 0;
};

// Decodes exactly one item that must span all of `data`.
// Errors (all `invalid_cbor`): empty or truncated input, trailing bytes after the item, an indefinite length,
// a tag, a floating-point number, a reserved additional-information value (28..30), a two-byte simple value
// below 32, a text string that is not valid UTF-8, a map key that is not an integer or a text string (COSE
// and WebAuthn use no others), a map with a repeated key or more than kMaxCborMapEntries entries, nesting
// deeper than kMaxCborDepth, a length larger than the remaining input. Integers and lengths in a longer
// form than needed are accepted: they are unambiguous, and signatures cover the bytes, not a re-encoding.
Result<CborValue> decode_cbor(std::span<const std::uint8_t> data);

// Decodes the item at the start of `data`; bytes after it are left for the caller. Same errors as
// decode_cbor, except trailing bytes.
Result<CborPrefix> decode_cbor_prefix(std::span<const std::uint8_t> data);

}  // namespace core::webauthn
