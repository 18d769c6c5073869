#include "edge/platform/envelope.h"

#include <string>

#include "edge/platform/server_failure.h"

namespace edge {

Response envelope_ok(core::json::value data, int status) {
  Response r;
  r.status = status;
  r.body = core::json::serialize(core::json::object{{"data", std::move(data)}, {"error", nullptr}});
  return r;
}

Response envelope_error(int status, std::string_view message) {
  Response r;
  r.status = status;
  r.body = core::json::serialize(core::json::object{{"data", nullptr}, {"error", message}});
  return r;
}

int status_for(const core::Error& error) {
  const std::string& c = error.code;
  if (c == "not_found") return 404;
  if (c == "conflict") return 409;
  if (c == "forbidden") return 403;
  if (c == "unprocessable") return 422;
  if (c == "payload_too_large") return 413;
  if (c == "storage_error" || c == "internal" || c == "key_error" || c == "sealed_invalid") return 500;
  // An upstream the platform asked (a DNS resolver, an IMAP server) failed: the reason is no secret and
  // tells the caller whether to retry.
  if (c == "dns_error" || c == "imap_error") return 502;
  if (c == "unavailable") return 503;
  return 400;
}

Response envelope_error(const core::Error& error) {
  const int status = status_for(error);
  if (status == 500) return envelope_error(status, server_failure_message(error));
  return envelope_error(status, error.message);
}

Response envelope_unauthorized(std::string_view message) {
  Response r = envelope_error(401, message);
  r.set_header("WWW-Authenticate", "Bearer");
  return r;
}

Response envelope_rate_limited(std::int64_t retry_after_seconds) {
  Response r =
      envelope_error(429, "rate limit exceeded; retry after " + std::to_string(retry_after_seconds) + " s");
  r.set_header("Retry-After", std::to_string(retry_after_seconds));
  return r;
}

}  // namespace edge
