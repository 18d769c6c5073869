#pragma once
// The `detail` line of a RestartOutcome: bounded, printable, and free of the target's secrets even when a
// server or a remote command echoes them back.

#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>

namespace native::restart {

inline constexpr std::size_t kMaxDetailBytes = 300;

// `text` with every occurrence of each non-empty secret replaced by `[redacted]` (before any shortening,
// so a cut can never leave a recognisable prefix of a secret), control characters and runs of white space
// collapsed to one space, trimmed, and cut to kMaxDetailBytes on a UTF-8 character boundary (`...` marks
// the cut).
std::string detail_text(std::string_view text, std::initializer_list<std::string_view> secrets);

}  // namespace native::restart
