#include "edge/auth_projects/project_api.h"

#include "core/ascii.h"
#include "core/auth/access_token.h"
#include "edge/app.h"
#include "edge/auth_projects/signing_keys.h"
#include "edge/platform/client_address.h"
#include "edge/platform/envelope.h"

namespace edge::auth_projects {

std::string_view bearer_of(const Request& req) {
  std::string_view auth = req.header("authorization");
  if (auth.size() < 7 || !core::ascii_iequals(auth.substr(0, 7), "Bearer ")) return {};
  return core::trim_ascii_space(auth.substr(7));
}

void add_project_route(App& app, const std::string& method, std::string_view path, Access access,
                       ProjectHandler handler, RouteOptions options) {
  app.router.add(
      method, "/api/v1/auth/{project}" + std::string(path),
      [&app, access, handler = std::move(handler)](Request& req) -> Response {
        ProjectContext ctx;
        auto project = project_by_slug(app, req.param("project"));
        if (!project) return envelope_error(project.error());
        ctx.project = std::move(*project);
        if (access == Access::project_key) {
          std::string_view credential = bearer_of(req);
          if (credential.empty())
            return envelope_unauthorized("Authorization must be 'Bearer aps_...' with a key of this project");
          auto key = key_for(app, ctx.project.id, credential);
          if (!key) return envelope_error(key.error());
          if (!*key) return envelope_unauthorized("unknown or revoked project key");
          ctx.key = std::move(**key);
        }
        return handler(req, ctx);
      },
      options);
}

std::variant<json::object, Response> json_body(const Request& req) {
  auto body = core::parse_json_object(req.body);
  if (!body) return envelope_error(body.error());
  return std::move(*body);
}

Attempt failure_attempt(App& app, const Request& req, const Project& project, std::string_view account) {
  return Attempt(app.auth_limits.failures_by_account, app.auth_limits.failures_by_address,
                 project.id + "/" + std::string(account), project.id + "/" + client_of(app, req),
                 app.clock.now_ms());
}

Attempt mail_attempt(App& app, const Request& req, const Project& project, std::string_view email) {
  return Attempt(app.auth_limits.mails_by_account, app.auth_limits.mails_by_address,
                 project.id + "/" + core::to_ascii_lower(email), project.id + "/" + client_of(app, req),
                 app.clock.now_ms());
}

BodyReader::BodyReader(const Request& req) {
  auto body = core::parse_json_object(req.body);
  if (body)
    body_ = std::move(*body);
  else
    error_ = body.error();
}

std::string BodyReader::required(std::string_view key) {
  if (error_) return {};
  auto v = core::require_string(body_, key);
  if (!v) {
    error_ = v.error();
    return {};
  }
  return std::move(*v);
}

std::string BodyReader::optional(std::string_view key) {
  if (error_) return {};
  auto v = core::optional_string(body_, key);
  if (!v) {
    error_ = v.error();
    return {};
  }
  return v->value_or("");
}

std::optional<Response> BodyReader::problem() const {
  if (!error_) return std::nullopt;
  return envelope_error(*error_);
}

std::string client_of(const App& app, const Request& req) {
  return client_address(req, app.config.trusted_proxies);
}

SessionFacts session_facts(const App& app, const Request& req, std::string amr) {
  return SessionFacts{std::move(amr), std::string(req.header("user-agent")), client_of(app, req)};
}

std::optional<Response> authenticate_end_user(App& app, std::string_view access_token, const Project& project,
                                              EndUser& user, std::string& session_id) {
  if (access_token.empty()) return envelope_unauthorized("an end user's access token is required");
  const std::int64_t now_s = app.clock.now_ms() / 1000;
  const std::string issuer = core::auth::project_issuer(app.config.auth_url, project.slug());
  auto known = app.auth_verified_tokens.find(project.id, issuer, access_token, now_s);
  if (!known) {
    auto keys = app.auth_signing_keys->published(project);
    if (!keys) return envelope_error(keys.error());
    auto verified = core::auth::verify_access_token(access_token, *keys, issuer, project.id, now_s);
    if (!verified) return envelope_unauthorized("the access token is invalid or expired");
    known = VerifiedTokens::Entry{project.id, issuer, verified->user_id, verified->session_id,
                                  verified->expires_at_s};
    app.auth_verified_tokens.remember(access_token, *known);
  }
  auto found = live_session_user(app, project.id, known->session_id, known->user_id);
  if (!found) return envelope_error(found.error());
  if (!*found) return envelope_unauthorized("the session of this access token has ended");
  user = std::move(**found);
  session_id = known->session_id;
  return std::nullopt;
}

}  // namespace edge::auth_projects
