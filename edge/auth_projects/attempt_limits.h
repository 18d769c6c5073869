#pragma once
// Lockout and rate limits of the end-user endpoints (docs/auth-projects.md, "Limits"): failed attempts
// at login, signup, MFA and reset confirmation count per account (project + email or user) and per client
// address (project + address); a success clears the account's count. Reset and verification mail requests
// count every request (each one sends mail), per account and per address.
//
// Each attempt is counted before its work (a password hash), so parallel guesses cannot all slip past the
// limit, and given back when it turns out not to be a failure; the same scheme as platform sign-in
// (edge/accounts/signin_routes.cpp).

#include <cstdint>
#include <string>

#include "edge/platform/rate_limiter.h"

namespace edge::auth_projects {

struct AttemptLimits {
  RateLimiter failures_by_account{RateLimit{10, 15 * 60'000}};
  RateLimiter failures_by_address{RateLimit{100, 15 * 60'000}};
  RateLimiter mails_by_account{RateLimit{5, 60 * 60'000}};
  RateLimiter mails_by_address{RateLimit{50, 60 * 60'000}};
};

// One counted attempt. Refused when either limit is spent (then retry_after_seconds is set and nothing is
// held). Otherwise the attempt holds one unit of each budget: call failed() (keep them), succeeded() (give
// the address's back and clear the account's), or not_counted() (give both back; the default when the
// Attempt goes without a verdict, for errors that are nobody's failure).
class Attempt {
 public:
  Attempt(RateLimiter& by_account, RateLimiter& by_address, std::string account, std::string address,
          std::int64_t now_ms);
  Attempt(const Attempt&) = delete;
  Attempt& operator=(const Attempt&) = delete;
  ~Attempt();

  bool allowed() const { return allowed_; }
  std::int64_t retry_after_seconds() const { return retry_after_; }

  void failed();
  void succeeded();
  void not_counted();

 private:
  RateLimiter &by_account_, &by_address_;
  std::string account_, address_;
  bool allowed_ = false, settled_ = false;
  std::int64_t retry_after_ = 0;
};

}  // namespace edge::auth_projects
