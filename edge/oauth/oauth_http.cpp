#include "edge/oauth/oauth_http.h"

#include "core/bytes.h"
#include "edge/app.h"

namespace edge::oauth {

Response oauth_json(const core::json::value& body, int status) {
  Response r;
  r.status = status;
  r.body = core::json::serialize(body);
  r.set_header("Cache-Control", "no-store");
  r.set_header("Pragma", "no-cache");
  return r;
}

Response oauth_error(int status, std::string_view error, std::string_view description) {
  Response r = oauth_json(core::json::object{{"error", error}, {"error_description", description}}, status);
  if (status == 401 && error == "invalid_client") r.set_header("WWW-Authenticate", "Basic realm=\"oauth\"");
  return r;
}

std::variant<OAuthClient, Response> authenticate_client(App& app, const Request& req,
                                                        const std::map<std::string, std::string>& form) {
  std::optional<std::string> id, secret;
  std::string_view auth = req.header("authorization");
  auto form_id = form.find("client_id");
  auto form_secret = form.find("client_secret");
  if (auth.rfind("Basic ", 0) == 0) {
    if (form_secret != form.end())
      return oauth_error(400, "invalid_request", "use one client authentication method, not two");
    auto decoded = core::base64_decode(auth.substr(6));
    std::string text = decoded ? core::to_string(*decoded) : std::string();
    auto colon = text.find(':');
    if (!decoded || colon == std::string::npos)
      return oauth_error(401, "invalid_client", "malformed HTTP Basic credentials");
    // RFC 6749 §2.3.1: both parts are form-urlencoded before being joined.
    id = url_decode(text.substr(0, colon), true);
    secret = url_decode(text.substr(colon + 1), true);
    if (form_id != form.end() && form_id->second != *id)
      return oauth_error(400, "invalid_request", "client_id in the body differs from the Basic credentials");
  } else {
    if (form_id == form.end() || form_id->second.empty())
      return oauth_error(401, "invalid_client", "client authentication is required");
    id = form_id->second;
    if (form_secret != form.end()) secret = form_secret->second;
  }
  auto client =
      app.oauth->authenticate_client(*id, secret ? std::optional<std::string_view>(*secret) : std::nullopt);
  if (!client) {
    if (client.error().code == "invalid_client")
      return oauth_error(401, "invalid_client", client.error().message);
    return oauth_error(500, "server_error", "storage failure");
  }
  return *client;
}

std::string with_query(std::string uri, const std::vector<std::pair<std::string, std::string>>& params) {
  char sep = uri.find('?') == std::string::npos ? '?' : '&';
  for (auto& [k, v] : params) {
    uri += sep;
    uri += url_encode(k);
    uri += '=';
    uri += url_encode(v);
    sep = '&';
  }
  return uri;
}

Response redirect_to(std::string location) {
  return redirect_response(302, std::move(location));
}

}  // namespace edge::oauth
