// Mail: domains (spec document 2). Permissions: domains.view / create / edit / delete, each also granted by
// domains.manage and, for one domain, by `domains.domain:<id>[:<action>]`.

#include "edge/app.h"
#include "edge/mail/domains.h"
#include "edge/mail/mail_routes.h"
#include "edge/platform/envelope.h"
#include "edge/platform/paging.h"

namespace edge::mail {

void register_domain_routes(App& app) {
  add_mail_route(app, "GET", "/domains", "domains.view", [&app](Request& req, const MailContext& ctx) {
    auto paging = parse_paging(req);
    if (!paging) return envelope_error(paging.error());
    auto all = list_domains(app, ctx.co().id);
    if (!all) return envelope_error(all.error());
    json::array out;
    for (const auto& d : paging->apply(*all)) out.emplace_back(to_api(d, dns_setup(app), ctx.form));
    Response r = envelope_ok(std::move(out));
    r.set_header("X-Total-Count", std::to_string(all->size()));
    return r;
  });

  add_mail_route(app, "POST", "/domains", "domains.create", [&app](Request& req, const MailContext& ctx) {
    auto body = core::parse_json_object(req.body);
    if (!body) return envelope_error(body.error());
    // `name`, or `domain` in the mail-product form; either is taken in both forms.
    const char* field = ctx.form == PathForm::product ? "domain" : "name";
    const char* other = ctx.form == PathForm::product ? "name" : "domain";
    if (!body->contains(field) && body->contains(other)) field = other;
    auto name = core::require_string(*body, field);
    if (!name) return envelope_error(name.error());
    auto d = create_domain(app, ctx.co().id, *name);
    if (!d) return envelope_error(d.error());
    return envelope_ok(to_api(*d, dns_setup(app), ctx.form), 201);
  });

  add_mail_route(app, "GET", "/domains/{id}", "domains.view",
                 [&app](Request& req, const MailContext& ctx) {
                   auto d = find_domain(app, ctx.co().id, req.param("id"));
                   if (!d) return envelope_error(d.error());
                   return envelope_ok(to_api(*d, dns_setup(app), ctx.form));
                 },
                 "id", {.nonblocking = true});

  add_mail_route(
      app, "POST", "/domains/{id}/verify", "domains.edit",
      [&app](Request& req, const MailContext& ctx) {
        auto d = verify_domain(app, ctx.co().id, req.param("id"));
        if (!d) return envelope_error(d.error());
        return envelope_ok(to_api(*d, dns_setup(app), ctx.form));
      },
      "id");

  add_mail_route(
      app, "DELETE", "/domains/{id}", "domains.delete",
      [&app](Request& req, const MailContext& ctx) {
        auto st = delete_domain(app, ctx.co().id, req.param("id"));
        if (!st.ok()) return envelope_error(st.error());
        return envelope_ok(json::object{{"id", std::string(req.param("id"))}, {"deleted", true}});
      },
      "id");
}

}  // namespace edge::mail
