#include "edge/platform/server_failure.h"

#include <spdlog/spdlog.h>

namespace edge {

std::string server_failure_message(const core::Error& error) {
  spdlog::error("answered 500 for {}: {}", error.code, error.message);
  return kServerFailureMessage;
}

}  // namespace edge
