#pragma once
// How the end-user endpoints of an auth project are exposed: `{auth_url}/api/v1/auth/{project}<path>`,
// answering in the platform envelope (document 2, "Errors"). Checks, in order:
//   404  `{project}` names no auth project
//   401  Authorization is not `Bearer aps_...` of a live key of THIS project (WWW-Authenticate: Bearer); a
//        key of another project is unknown here
// Routes marked public skip the key (userinfo takes the end user's access token; jwks.json is open).

#include <functional>
#include <string>
#include <string_view>
#include <variant>

#include "edge/auth_projects/attempt_limits.h"
#include "edge/auth_projects/end_users.h"
#include "edge/auth_projects/project_sessions.h"
#include "edge/auth_projects/project_store.h"
#include "edge/http/message.h"
#include "edge/http/router.h"

namespace edge {
struct App;
}

namespace edge::auth_projects {

struct ProjectContext {
  Project project;
  ProjectKey key;  // empty for public routes
};

using ProjectHandler = std::function<Response(Request&, const ProjectContext&)>;

enum class Access { project_key, open };

// Registers `method` `/api/v1/auth/{project}<path>`.
void add_project_route(App& app, const std::string& method, std::string_view path, Access access,
                       ProjectHandler handler, RouteOptions options = {});

// The request's JSON object body, or the 400 to answer.
std::variant<json::object, Response> json_body(const Request& req);

// The string members of a request's JSON object body, read one by one. The first problem (not JSON, a
// member missing or not a string) is kept; problem() answers it as the envelope's 400.
class BodyReader {
 public:
  explicit BodyReader(const Request& req);
  std::string required(std::string_view key);
  std::string optional(std::string_view key);  // "" when absent or null
  const json::object& object() const { return body_; }
  std::optional<Response> problem() const;

 private:
  json::object body_;
  std::optional<core::Error> error_;
};

// One attempt counted on the project's failure budgets (attempt_limits.h): `account` names what is being
// guessed at (a lower-cased email, a user id, a credential), the address is the request's client.
Attempt failure_attempt(App& app, const Request& req, const Project& project, std::string_view account);
// The same on the mail budgets (verify and reset requests), `email` lower-cased here.
Attempt mail_attempt(App& app, const Request& req, const Project& project, std::string_view email);

// Where a sign-in comes from, for the session list and the limits.
SessionFacts session_facts(const App& app, const Request& req, std::string amr);
std::string client_of(const App& app, const Request& req);

// An end user's access token (userinfo's Bearer, or the `accessToken` member of a call made with the
// project key on the user's behalf), checked against the project's published keys and its session (live,
// user enabled). Fills `user` and `session_id`; otherwise returns the 401 (or 500) to answer.
std::optional<Response> authenticate_end_user(App& app, std::string_view access_token, const Project& project,
                                              EndUser& user, std::string& session_id);

// The Bearer credential of a request, or empty.
std::string_view bearer_of(const Request& req);

}  // namespace edge::auth_projects
