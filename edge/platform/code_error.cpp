#include "edge/platform/code_error.h"

#include "core/json.h"

namespace edge {

Response code_error(int status, std::string_view code, std::string_view message) {
  Response r;
  r.status = status;
  r.body = core::to_json(core::json::object{{"error", code}, {"message", message}});
  return r;
}

std::string_view code_for_status(int status) {
  switch (status) {
    case 400:
      return "bad_request";
    case 404:
      return "not_found";
    case 405:
      return "method_not_allowed";
    case 408:
      return "request_timeout";
    case 413:
      return "payload_too_large";
    case 417:
      return "expectation_failed";
    case 431:
      return "request_header_fields_too_large";
    case 500:
      return "internal";
    default:
      return "error";
  }
}

}  // namespace edge
