#pragma once
// The error body `{"error": "<code>", "message": "<text>"}`: DECISIONS.md's status-service format, which the
// restaurant API answers in too. Each product keeps its own code-to-status table and success shape.

#include <string_view>

#include "edge/http/message.h"

namespace edge {

Response code_error(int status, std::string_view code, std::string_view message);

// The code of an answer the dispatcher or the transport made without a product handler: 400 `bad_request`,
// 404 `not_found`, 405 `method_not_allowed`, 408 `request_timeout`, 413 `payload_too_large`, 417
// `expectation_failed`, 431 `request_header_fields_too_large`, 500 `internal`, else `error`.
std::string_view code_for_status(int status);

}  // namespace edge
