#pragma once
// Failures a client can do nothing about (the store failed, an invariant broke) are logged with their detail
// and answered with one generic sentence: engine texts, file paths and key names stay in the operator's log.

#include <string>

#include "core/result.h"

namespace edge {

// The text every 500 carries instead of the error's own message.
inline constexpr const char* kServerFailureMessage =
    "the server could not complete the request; the details are in the server log";

// Logs `error` (code and message) at error level and returns kServerFailureMessage.
std::string server_failure_message(const core::Error& error);

}  // namespace edge
