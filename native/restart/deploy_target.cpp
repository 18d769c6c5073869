#include "native/restart/deploy_target.h"

#include <boost/json.hpp>

#include "core/ascii.h"
#include "native/restart/detail_text.h"
#include "native/restart/elapsed.h"
#include "native/restart/http_exchange.h"

namespace native::restart {

std::string deploy_url(const core::status::DeployRestartTarget& target) {
  std::string_view base = target.baseUrl;
  while (!base.empty() && base.back() == '/') base.remove_suffix(1);
  return std::string(base) + "/api/v1/deploy?uuid=" + core::percent_encode(target.uuid) + "&force=true";
}

std::string deploy_message(std::string_view body) {
  boost::system::error_code ec;
  const boost::json::value parsed = boost::json::parse(body, ec);
  if (ec || !parsed.is_object()) return {};
  const boost::json::object& root = parsed.get_object();
  if (const auto* message = root.if_contains("message"); message != nullptr && message->is_string())
    return std::string(message->get_string());
  std::string joined;
  if (const auto* deployments = root.if_contains("deployments");
      deployments != nullptr && deployments->is_array()) {
    for (const boost::json::value& entry : deployments->get_array()) {
      if (!entry.is_object()) continue;
      const auto* message = entry.get_object().if_contains("message");
      if (message == nullptr || !message->is_string()) continue;
      if (!joined.empty()) joined += "; ";
      joined += std::string(message->get_string());
    }
  }
  return joined;
}

RestartOutcome fire_deploy(const core::status::DeployRestartTarget& target) {
  const auto start = std::chrono::steady_clock::now();
  RestartOutcome outcome;
  if (auto valid = core::status::validate_deploy_restart_target(target); !valid) {
    outcome.detail = "invalid target: " + valid.error().code;
    outcome.durationMs = elapsed_ms(start);
    return outcome;
  }
  HttpRequest request;
  request.url = deploy_url(target);
  request.timeout = std::chrono::milliseconds(target.timeoutMs);
  request.headers = {{"Authorization", "Bearer " + target.apiToken}, {"Accept", "application/json"}};
  const HttpExchange exchange = http_exchange(request);
  switch (exchange.end) {
    case HttpExchange::End::response: {
      outcome.httpStatus = exchange.status;
      outcome.ok = exchange.status >= 200 && exchange.status <= 299;
      std::string text = "HTTP " + std::to_string(exchange.status);
      if (const std::string message = deploy_message(exchange.body); !message.empty()) text += ": " + message;
      outcome.detail = detail_text(text, {target.apiToken});
      break;
    }
    case HttpExchange::End::timeout:
      outcome.detail = "timed out after " + std::to_string(target.timeoutMs) + " ms";
      break;
    case HttpExchange::End::error:
      outcome.detail = detail_text("request failed: " + exchange.error, {target.apiToken});
      break;
  }
  outcome.durationMs = elapsed_ms(start);
  return outcome;
}

}  // namespace native::restart
