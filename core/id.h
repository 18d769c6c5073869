#pragma once
// Record ids: opaque and unguessable (spec/DECISIONS.md), with a short type prefix so a log line or a
// support ticket says what an id names (`cmp_`, `usr_`, `tok_`, ...).

#include <string>
#include <string_view>

#include "core/random.h"

namespace core {

// `prefix` followed by 16 base64url characters (96 random bits).
std::string make_id(std::string_view prefix, RandomSource& random);

// Whether `text` could be an id made by make_id with `prefix`; lets routes reject junk before a lookup.
bool has_id_shape(std::string_view prefix, std::string_view text);

}  // namespace core
