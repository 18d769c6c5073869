#include "edge/auth_projects/attempt_limits.h"

namespace edge::auth_projects {

Attempt::Attempt(RateLimiter& by_account, RateLimiter& by_address, std::string account, std::string address,
                 std::int64_t now_ms)
    : by_account_(by_account),
      by_address_(by_address),
      account_(std::move(account)),
      address_(std::move(address)) {
  auto by_ip = by_address_.take(address_, now_ms);
  auto by_acct = by_ip.allowed ? by_account_.take(account_, now_ms) : by_ip;
  allowed_ = by_acct.allowed;
  if (!allowed_) {
    if (by_ip.allowed) by_address_.refund(address_);
    retry_after_ = by_acct.retry_after_seconds;
    settled_ = true;
  }
}

Attempt::~Attempt() {
  if (!settled_) not_counted();
}

void Attempt::failed() {
  settled_ = true;
}

void Attempt::succeeded() {
  if (settled_) return;
  by_address_.refund(address_);
  by_account_.forget(account_);
  settled_ = true;
}

void Attempt::not_counted() {
  if (settled_) return;
  by_address_.refund(address_);
  by_account_.refund(account_);
  settled_ = true;
}

}  // namespace edge::auth_projects
