#include "edge/accounts/company_routes.h"

#include "edge/app.h"
#include "edge/platform/company_auth.h"
#include "edge/platform/envelope.h"
#include "edge/platform/paging.h"

namespace edge {
namespace json = core::json;

namespace {

core::Result<std::vector<std::string>> permissions_field(const json::object& body) {
  auto p = core::optional_string_array(body, "permissions");
  if (!p) return p.error();
  return p->value_or(std::vector<std::string>{});
}

core::Result<std::optional<core::Role>> role_field(const json::object& body) {
  auto text = core::optional_string(body, "role");
  if (!text) return text.error();
  if (!*text) return std::optional<core::Role>();
  auto role = core::parse_role(**text);
  if (!role) return core::make_error("invalid_role", "field 'role' must be owner, admin or member");
  return std::optional<core::Role>(*role);
}

template <class T, class ToJson>
Response paged_list(const Request& req, const std::vector<T>& all, ToJson to_json_fn) {
  auto paging = parse_paging(req);
  if (!paging) return envelope_error(paging.error());
  json::array out;
  for (auto& item : paging->apply(all)) out.emplace_back(to_json_fn(item));
  Response r = envelope_ok(std::move(out));
  r.set_header("X-Total-Count", std::to_string(all.size()));
  return r;
}

}  // namespace

void register_company_routes(App& app) {
  Router& r = app.router;
  Accounts& accounts = *app.accounts;

  // Reads of a company's own small lists run on the I/O thread (RouteOptions::nonblocking).
  const RouteOptions read = {.nonblocking = true};
  r.add("GET", "/api/companies/{slug}", company_route(app, "", [](Request&, const CompanyContext& ctx) {
          return envelope_ok(to_json(ctx.company));
        }), read);

  // Members.
  r.add("GET", "/api/companies/{slug}/members",
        company_route(app, "members.manage", [&accounts](Request& req, const CompanyContext& ctx) {
          auto members = accounts.list_members(ctx.company);
          if (!members) return envelope_error(members.error());
          return paged_list(req, *members, [](auto& mu) { return to_json(mu.first, mu.second); });
        }),
        read);
  r.add("POST", "/api/companies/{slug}/members",
        company_route(app, "members.manage", [&accounts](Request& req, const CompanyContext& ctx) {
          auto body = core::parse_json_object(req.body);
          if (!body) return envelope_error(body.error());
          auto email = core::require_string(*body, "email");
          if (!email) return envelope_error(email.error());
          auto role = role_field(*body);
          if (!role) return envelope_error(role.error());
          auto permissions = permissions_field(*body);
          if (!permissions) return envelope_error(permissions.error());
          auto m = accounts.add_member(ctx.company, *email, role->value_or(core::Role::member), *permissions,
                                       &ctx.principal);
          if (!m) return envelope_error(m.error());
          auto user = accounts.user_by_id(m->user_id);
          if (!user) return envelope_error(user.error());
          return envelope_ok(to_json(*m, *user), 201);
        }));
  r.add("PATCH", "/api/companies/{slug}/members/{userId}",
        company_route(app, "members.manage", [&accounts](Request& req, const CompanyContext& ctx) {
          auto body = core::parse_json_object(req.body);
          if (!body) return envelope_error(body.error());
          auto role = role_field(*body);
          if (!role) return envelope_error(role.error());
          auto permissions = core::optional_string_array(*body, "permissions");
          if (!permissions) return envelope_error(permissions.error());
          if (!*role && !*permissions)
            return envelope_error(400, "give at least one of 'role' and 'permissions'");
          auto m =
              accounts.update_member(ctx.company, req.param("userId"), *role, *permissions, &ctx.principal);
          if (!m) return envelope_error(m.error());
          auto user = accounts.user_by_id(m->user_id);
          if (!user) return envelope_error(user.error());
          return envelope_ok(to_json(*m, *user));
        }));
  r.add("DELETE", "/api/companies/{slug}/members/{userId}",
        company_route(app, "members.manage", [&accounts](Request& req, const CompanyContext& ctx) {
          auto removed = accounts.remove_member(ctx.company, req.param("userId"), &ctx.principal);
          if (!removed) return envelope_error(removed.error());
          return envelope_ok(json::object{{"userId", req.param("userId")}, {"removed", true}});
        }));

  // Access tokens.
  r.add("GET", "/api/companies/{slug}/access-tokens",
        company_route(app, "api-keys.manage", [&accounts](Request& req, const CompanyContext& ctx) {
          auto tokens = accounts.list_tokens(ctx.company);
          if (!tokens) return envelope_error(tokens.error());
          return paged_list(req, *tokens, [](auto& t) { return to_json(t); });
        }),
        read);
  r.add("POST", "/api/companies/{slug}/access-tokens",
        company_route(app, "api-keys.manage", [&accounts](Request& req, const CompanyContext& ctx) {
          auto body = core::parse_json_object(req.body);
          if (!body) return envelope_error(body.error());
          auto name = core::require_string(*body, "name");
          if (!name) return envelope_error(name.error());
          auto permissions = core::require_string_array(*body, "permissions");
          if (!permissions) return envelope_error(permissions.error());
          auto created = accounts.create_token(ctx.company, *name, *permissions, &ctx.principal);
          if (!created) return envelope_error(created.error());
          json::object out = to_json(created->token);
          out["token"] = created->plaintext;  // the only time the plaintext is shown
          return envelope_ok(std::move(out), 201);
        }));
  r.add("DELETE", "/api/companies/{slug}/access-tokens/{tokenId}",
        company_route(app, "api-keys.manage", [&accounts](Request& req, const CompanyContext& ctx) {
          auto revoked = accounts.revoke_token(ctx.company, req.param("tokenId"));
          if (!revoked) return envelope_error(revoked.error());
          return envelope_ok(to_json(*revoked));
        }));
}

}  // namespace edge
