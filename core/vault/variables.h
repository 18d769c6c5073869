#pragma once
// The env vault's variables (docs/env-vault.md): what a push may carry, and what changed between two sets.
//
// A variable is a key name, a string value and a `public` flag (public variables are readable by browsers
// through GET /api/env-vault/public). Key names: `[A-Za-z_][A-Za-z0-9_]*`, at most kMaxKeyLength bytes, as
// POSIX shells and .env files accept them. Values: any UTF-8 text (the JSON parser already refused invalid
// UTF-8) without NUL, at most kMaxValueBytes; all values of one environment together at most
// kMaxTotalValueBytes; at most kMaxVariables per environment.

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"
#include "core/result.h"

namespace core::vault {

inline constexpr std::size_t kMaxKeyLength = 128;
inline constexpr std::size_t kMaxValueBytes = 32 * 1024;
inline constexpr std::size_t kMaxTotalValueBytes = 256 * 1024;
inline constexpr std::size_t kMaxVariables = 500;

struct Variable {
  std::string value;
  bool is_public = false;
  bool operator==(const Variable&) const = default;
};

// Ordered by key name, so listings and diffs come out sorted.
using Variables = std::map<std::string, Variable, std::less<>>;

// Ok for a valid key name; `invalid_key` naming the key and the rule otherwise.
Status validate_key(std::string_view key);

// Ok when `value` may be stored under `key`; `invalid_value` (NUL) or `value_too_large` otherwise.
Status validate_value(std::string_view key, std::string_view value);

// The body of POST /api/env-vault/push: {variables: {KEY: {value, public?}}, prune?: bool, baseVersion?:
// int}. A bare string in place of {value} is accepted as {value: <string>, public: false}. Errors (400):
// `invalid_body` (missing or mistyped member; named), `invalid_key`, `invalid_value`, `value_too_large`,
// `too_many_variables`.
struct PushRequest {
  Variables variables;
  bool prune = false;
  std::optional<std::int64_t> base_version;
};
Result<PushRequest> parse_push(const json::object& body);

// What a push does to `current`: with prune the pushed set replaces it; without prune pushed keys are set
// and absent keys kept. Errors: `too_many_variables`, `value_too_large` when the result passes the limits.
Result<Variables> merge_push(const Variables& current, const PushRequest& push);

// Key names added, removed and changed (value or public flag) from `before` to `after`, each sorted.
struct Diff {
  std::vector<std::string> added, removed, changed;
  bool empty() const { return added.empty() && removed.empty() && changed.empty(); }
};
Diff diff(const Variables& before, const Variables& after);

// {added: [...], removed: [...], changed: [...]}: key names only, never values.
json::object diff_to_json(const Diff& d);

}  // namespace core::vault
