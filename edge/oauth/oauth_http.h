#pragma once
// HTTP conventions of the OAuth endpoints: RFC 6749 §5.2 error bodies, client authentication (§2.3.1:
// HTTP Basic or form fields, never both), redirects with query parameters.

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "edge/http/message.h"
#include "edge/oauth/oauth_store.h"

namespace edge {
struct App;
}

namespace edge::oauth {

// {"error": ..., "error_description": ...} with Cache-Control: no-store. A 401 carries
// `WWW-Authenticate: Basic realm="oauth"` (for invalid_client) or `Bearer error="..."` (for userinfo).
Response oauth_error(int status, std::string_view error, std::string_view description);

// A JSON body with the no-store headers token responses need (RFC 6749 §5.1).
Response oauth_json(const core::json::value& body, int status = 200);

// Authenticates the client of a token, revoke or introspect request. Returns the client, or the response
// to send (400 invalid_request for two methods at once, 401 invalid_client otherwise).
std::variant<OAuthClient, Response> authenticate_client(App& app, const Request& req,
                                                        const std::map<std::string, std::string>& form);

// `uri` with `params` appended to its query (`?` or `&`), values URL-encoded.
std::string with_query(std::string uri, const std::vector<std::pair<std::string, std::string>>& params);

// 302 to `location`.
Response redirect_to(std::string location);

}  // namespace edge::oauth
