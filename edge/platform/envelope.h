#pragma once
// The platform API's response envelope (document 2, "Errors"): success `{"data": <payload>, "error": null}`,
// failure `{"data": null, "error": "<human-readable string>"}`. Clients branch on the HTTP status.

#include <string_view>

#include "core/json.h"
#include "core/result.h"
#include "edge/http/message.h"

namespace edge {

Response envelope_ok(core::json::value data, int status = 200);
Response envelope_error(int status, std::string_view message);

// The HTTP status for an error code of the account model and the core (see accounts.h): validation codes
// 400, not_found 404, conflict 409, forbidden 403, unprocessable 422, payload_too_large 413,
// storage_error 500, dns_error and imap_error 502 (an upstream failed); any other code 400.
int status_for(const core::Error& error);

// envelope_error(status_for(e), e.message).
Response envelope_error(const core::Error& error);

// 401 with `WWW-Authenticate: Bearer` (RFC 6750 §3).
Response envelope_unauthorized(std::string_view message);

// 429 with `Retry-After` in whole seconds.
Response envelope_rate_limited(std::int64_t retry_after_seconds);

}  // namespace edge
