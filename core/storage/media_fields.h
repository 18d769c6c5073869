#pragma once
// The fields a client gives buckets and media (docs/storage-api.md), checked before anything is stored.
// Pure. Each check answers an Error with a stable code and a message naming the field.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.h"

namespace core::storage {

// A bucket name: 1..100 bytes of UTF-8 without control characters, not only spaces.
// Errors: `invalid_name`.
Status validate_bucket_name(std::string_view name);

// `public` or `private`. Errors: `invalid_visibility`.
Status validate_visibility(std::string_view visibility);

// A media filename: 1..255 bytes of UTF-8 without control characters, `/` or `\`, and not `.` or `..`.
// Errors: `invalid_filename`.
Status validate_filename(std::string_view filename);

// A media folder: "" (the bucket's root) or 1..255 bytes of `/`-separated segments, each non-empty, not `.`
// or `..`, of UTF-8 without control characters or `\`. Errors: `invalid_folder`.
Status validate_folder(std::string_view folder);

// The filename a client sent, reduced to its last path segment (browsers on Windows send `C:\x\y.png`).
std::string base_filename(std::string_view sent);

// `true`/`false` (also `1`/`0`). nullopt for anything else.
std::optional<bool> parse_bool(std::string_view text);

// Valid UTF-8 without control characters (U+0000..U+001F, U+007F).
bool clean_utf8(std::string_view text);

}  // namespace core::storage
