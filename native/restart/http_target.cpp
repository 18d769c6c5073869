#include "native/restart/http_target.h"

#include "native/restart/detail_text.h"
#include "native/restart/elapsed.h"
#include "native/restart/http_exchange.h"

namespace native::restart {

RestartOutcome fire_http(const core::status::HttpRestartTarget& target) {
  const auto start = std::chrono::steady_clock::now();
  RestartOutcome outcome;
  const std::string_view secret = target.authHeaderValue;
  if (auto valid = core::status::validate_http_restart_target(target); !valid) {
    outcome.detail = "invalid target: " + valid.error().code;
    outcome.durationMs = elapsed_ms(start);
    return outcome;
  }
  HttpRequest request;
  request.method = target.method;
  request.url = target.url;
  request.timeout = std::chrono::milliseconds(target.timeoutMs);
  if (!target.authHeaderValue.empty())
    request.headers.emplace_back(target.authHeaderName, target.authHeaderValue);
  if (!target.body.empty()) {
    request.headers.emplace_back("Content-Type", target.contentType);
    request.body = target.body;
  }
  const HttpExchange exchange = http_exchange(request);
  switch (exchange.end) {
    case HttpExchange::End::response: {
      outcome.httpStatus = exchange.status;
      outcome.ok = exchange.status >= target.expectedStatusMin && exchange.status <= target.expectedStatusMax;
      std::string text = "HTTP " + std::to_string(exchange.status);
      if (!outcome.ok)
        text += " (expected " + std::to_string(target.expectedStatusMin) + "-" +
                std::to_string(target.expectedStatusMax) + ")";
      outcome.detail = detail_text(text, {secret});
      break;
    }
    case HttpExchange::End::timeout:
      outcome.detail = "timed out after " + std::to_string(target.timeoutMs) + " ms";
      break;
    case HttpExchange::End::error:
      outcome.detail = detail_text("request failed: " + exchange.error, {secret});
      break;
  }
  outcome.durationMs = elapsed_ms(start);
  return outcome;
}

}  // namespace native::restart
