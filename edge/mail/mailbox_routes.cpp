// Mail: mailboxes (spec document 2). Permission: mailboxes.manage.

#include "edge/app.h"
#include "edge/mail/mail_routes.h"
#include "edge/mail/mailboxes.h"
#include "edge/platform/envelope.h"
#include "edge/platform/paging.h"

namespace edge::mail {

void register_mailbox_routes(App& app) {
  const std::string perm = "mailboxes.manage";

  add_mail_route(app, "GET", "/mailboxes", perm, [&app](Request& req, const MailContext& ctx) {
    auto paging = parse_paging(req);
    if (!paging) return envelope_error(paging.error());
    auto all = list_mailboxes(app, ctx.co().id);
    if (!all) return envelope_error(all.error());
    Response r = envelope_ok(paging->apply(*all));
    r.set_header("X-Total-Count", std::to_string(all->size()));
    return r;
  });

  add_mail_route(app, "POST", "/mailboxes", perm, [&app](Request& req, const MailContext& ctx) {
    auto body = core::parse_json_object(req.body);
    if (!body) return envelope_error(body.error());
    auto fields = parse_mailbox_fields(*body);
    if (!fields) return envelope_error(fields.error());
    auto made = create_mailbox(app, ctx.co().id, *fields);
    if (!made) return envelope_error(made.error());
    return envelope_ok(mailbox_to_api(*made), 201);
  });

  add_mail_route(app, "PATCH", "/mailboxes/{id}", perm, [&app](Request& req, const MailContext& ctx) {
    auto body = core::parse_json_object(req.body);
    if (!body) return envelope_error(body.error());
    auto fields = parse_mailbox_fields(*body);
    if (!fields) return envelope_error(fields.error());
    auto made = update_mailbox(app, ctx.co().id, req.param("id"), *fields);
    if (!made) return envelope_error(made.error());
    return envelope_ok(mailbox_to_api(*made));
  });

  add_mail_route(app, "DELETE", "/mailboxes/{id}", perm, [&app](Request& req, const MailContext& ctx) {
    auto st = delete_mailbox(app, ctx.co().id, req.param("id"));
    if (!st.ok()) return envelope_error(st.error());
    return envelope_ok(json::object{{"id", std::string(req.param("id"))}, {"deleted", true}});
  });
}

}  // namespace edge::mail
