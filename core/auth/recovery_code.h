#pragma once
// Recovery codes: single-use passwords a user prints or stores at TOTP enrolment and types in when the
// phone is lost. Format `abcd-efgh-jkmn`: 12 characters from a 31-character alphabet without the easily
// confused 0/o, 1/l/i (a-z without i, l, o; digits 2-9), about 59.5 bits each: enough against online
// guessing, which the login's rate limits bound anyway, and short enough to type.
//
// Storage is the caller's: keep only core::sha256_hex(normalized code) per unused code, look a typed code
// up by the hash of normalize_recovery_code(text), and delete the entry when it is used. A fast hash is
// enough: the codes are random, not chosen by people, so there is no dictionary to try offline.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/random.h"
#include "core/result.h"

namespace core::auth {

// `count` fresh codes in display form (`abcd-efgh-jkmn`), drawn from `random` without modulo bias.
std::vector<std::string> make_recovery_codes(RandomSource& random, std::size_t count = 10);

// The canonical form of a typed code: lower case, ASCII whitespace and '-' removed (`abcdefghjkmn`), the form
// to hash for storage and lookup. Errors: `invalid_recovery_code` when 12 alphabet characters do not remain.
Result<std::string> normalize_recovery_code(std::string_view text);

}  // namespace core::auth
