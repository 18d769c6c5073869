#pragma once
// Record ids: opaque and unguessable (spec/DECISIONS.md), with a short type prefix so a log line or a
// support ticket says what an id names (`cmp_`, `usr_`, `tok_`, ...).

#include <cstdint>
#include <string>
#include <string_view>

#include "core/random.h"

namespace core {

// `prefix` followed by 16 base64url characters (96 random bits).
std::string make_id(std::string_view prefix, RandomSource& random);

// `prefix`, the time `now_ms` as 12 lowercase hex digits, then 16 base64url characters (96 random bits): ids
// made later sort after earlier ones, byte for byte. For ids used as key prefixes of records written together
// (a batch of new ones lands on the same B-tree leaf instead of one random leaf each). They reveal when they
// were made; use them only where that is no secret. Times before 1970 count as 0.
std::string make_time_ordered_id(std::string_view prefix, std::int64_t now_ms, RandomSource& random);

// Whether `text` could be an id made by make_id with `prefix`; lets routes reject junk before a lookup.
bool has_id_shape(std::string_view prefix, std::string_view text);

}  // namespace core
