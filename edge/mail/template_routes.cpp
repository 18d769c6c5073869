// Mail: templates (spec document 2). Permission: templates.manage. The path forms are those of every mail
// route; the spec's `/api/mail/companies/{slug}/templates` is the second of them.

#include "edge/app.h"
#include "edge/mail/mail_routes.h"
#include "edge/mail/templates.h"
#include "edge/platform/envelope.h"
#include "edge/platform/paging.h"

namespace edge::mail {

void register_template_routes(App& app) {
  const std::string perm = "templates.manage";

  add_mail_route(app, "GET", "/templates", perm, [&app](Request& req, const MailContext& ctx) {
    auto paging = parse_paging(req);
    if (!paging) return envelope_error(paging.error());
    auto all = list_templates(app, ctx.co().id, ctx.form);
    if (!all) return envelope_error(all.error());
    Response r = envelope_ok(paging->apply(*all));
    r.set_header("X-Total-Count", std::to_string(all->size()));
    return r;
  });

  add_mail_route(app, "POST", "/templates", perm, [&app](Request& req, const MailContext& ctx) {
    auto body = core::parse_json_object(req.body);
    if (!body) return envelope_error(body.error());
    auto fields = parse_template_fields(*body);
    if (!fields) return envelope_error(fields.error());
    auto made = create_template(app, ctx.co().id, *fields);
    if (!made) return envelope_error(made.error());
    return envelope_ok(template_to_api(made->record, ctx.form), 201);
  });

  add_mail_route(app, "GET", "/templates/{id}", perm,
                 [&app](Request& req, const MailContext& ctx) {
                   auto t = load_template(app, ctx.co().id, req.param("id"));
                   if (!t) return envelope_error(t.error());
                   return envelope_ok(template_to_api(t->record, ctx.form));
                 },
                 {}, {.nonblocking = true});

  add_mail_route(app, "PATCH", "/templates/{id}", perm, [&app](Request& req, const MailContext& ctx) {
    auto body = core::parse_json_object(req.body);
    if (!body) return envelope_error(body.error());
    auto fields = parse_template_fields(*body);
    if (!fields) return envelope_error(fields.error());
    auto made = update_template(app, ctx.co().id, req.param("id"), *fields);
    if (!made) return envelope_error(made.error());
    return envelope_ok(template_to_api(made->record, ctx.form));
  });

  add_mail_route(app, "DELETE", "/templates/{id}", perm, [&app](Request& req, const MailContext& ctx) {
    auto st = delete_template(app, ctx.co().id, req.param("id"));
    if (!st.ok()) return envelope_error(st.error());
    return envelope_ok(json::object{{"id", std::string(req.param("id"))}, {"deleted", true}});
  });
}

}  // namespace edge::mail
