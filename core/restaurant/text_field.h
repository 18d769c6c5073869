#pragma once
// Short free-text fields of restaurant records (an income channel, a payment method): trimmed of ASCII
// whitespace, then required non-empty and at most a number of characters.

#include <cstddef>
#include <string>
#include <string_view>

#include "core/result.h"

namespace core::restaurant {

// The text with leading and trailing ASCII whitespace (space, tab, CR, LF, FF, VT) removed, if it is
// non-empty and at most `max_chars` characters long (counted as UTF-8 code points: bytes that do not start
// with 0b10).
// Errors: `invalid_field` naming `field` when the trimmed text is empty or too long.
Result<std::string> trimmed_text_field(std::string_view text, std::string_view field, std::size_t max_chars);

}  // namespace core::restaurant
