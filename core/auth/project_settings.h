#pragma once
// The settings of an auth project (document 2, "Auth projects"; docs/auth-projects.md): what the dashboard
// edits and what the end-user endpoints obey. Pure: the edge stores them as JSON and applies every rule from
// here.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/result.h"

namespace core::auth {

struct PasswordPolicy {
  int min_length = 8;  // 8..128 characters (code points)
  bool require_letter = false, require_digit = false, require_symbol = false;
};

// Sign-in methods a project has switched on. Password sign-in is on by default; the others are opt-in.
struct SignInMethods {
  bool password = true, passkey = false, social = false, totp = false;
};

// The project's sender for verify and reset mails: an address on a verified domain of the company, sent
// through the mail product's queue.
struct MailSender {
  std::string domain_id, from, from_name;
};

// Where passkeys are registered (WebAuthn): the relying-party id (a registrable domain, or `localhost`)
// and the exact origins the browser may report.
struct PasskeySettings {
  std::string rp_id, rp_name;
  std::vector<std::string> origins;
};

struct ProjectSettings {
  std::string name, slug;
  std::vector<std::string> allowed_redirect_urls;   // where verify and reset links may point
  std::int64_t access_token_ttl_s = 900;            // DECISIONS.md: 15 minutes by default
  std::int64_t refresh_token_ttl_s = 30LL * 86400;  // 30 days
  std::int64_t refresh_reuse_interval_s = 10;       // 0 = strict rotation
  bool require_email_verification = false;          // login refused until the address is confirmed
  PasswordPolicy password_policy;
  SignInMethods sign_in_methods;
  std::optional<MailSender> mail;
  std::optional<PasskeySettings> passkeys;
};

// Bounds of the numeric settings.
inline constexpr std::int64_t kMinAccessTtlS = 60, kMaxAccessTtlS = 24 * 3600;
inline constexpr std::int64_t kMinRefreshTtlS = 3600, kMaxRefreshTtlS = 365LL * 86400;
inline constexpr std::int64_t kMaxReuseIntervalS = 120;
inline constexpr int kMinPasswordLength = 8, kMaxPasswordLength = 128;
// Longest password accepted at all, in bytes: argon2id hashes what it is given, and a megabyte password
// should not cost the server more than a normal one.
inline constexpr std::size_t kMaxPasswordBytes = 1024;

// Applies the members present in `body` (the dashboard's JSON, camelCase as in to_json) to `settings`.
// `creating`: name and slug are required. Nothing is changed when an error is returned.
// Errors: `missing_field`, `invalid_field` (wrong JSON type), `invalid_slug`, `invalid_url`,
// `invalid_setting` (a number out of bounds, an unknown member of a nested object, an empty name, an origin
// that is not scheme://host[:port]).
Status apply_project_settings(ProjectSettings& settings, const json::object& body, bool creating);

// The JSON the dashboard reads (and apply_project_settings accepts back).
json::object to_json(const ProjectSettings& settings);
// Reads what to_json wrote (stored records). Missing members keep their defaults.
ProjectSettings project_settings_from_json(const json::object& o);

// Checks a new password against the policy. Errors: `weak_password` with a sentence saying what is missing,
// `invalid_password` (longer than kMaxPasswordBytes, or not UTF-8).
Status check_password(const PasswordPolicy& policy, std::string_view password);

// Whether `url` may receive a verify or reset link: it equals an allowed URL exactly (as OAuth redirect
// URIs are matched), so a link can never be pointed at a look-alike host.
bool is_allowed_redirect(const ProjectSettings& settings, std::string_view url);

}  // namespace core::auth
