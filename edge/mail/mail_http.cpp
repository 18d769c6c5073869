#include "edge/mail/mail_http.h"

#include <memory>

#include "edge/app.h"
#include "edge/platform/envelope.h"

namespace edge::mail {

void add_mail_route(App& app, const std::string& method, std::string_view path, std::string permission,
                    MailHandler handler, std::string target_param, RouteOptions options) {
  auto shared = std::make_shared<MailHandler>(std::move(handler));
  auto wrap = [&app, shared, permission, target_param](PathForm form) -> Handler {
    return [&app, shared, permission, target_param, form](Request& req) -> Response {
      MailContext ctx;
      ctx.form = form;
      if (auto failure = authenticate_company(app, req, ctx.company)) {
        if (failure->status == 401) return envelope_unauthorized(failure->message);
        if (failure->status == 429) return envelope_rate_limited(failure->retry_after_seconds);
        return envelope_error(failure->status, failure->message);
      }
      auto decision = app.mail_limiter.take(ctx.principal().id, app.clock.now_ms());
      if (!decision.allowed) return envelope_rate_limited(decision.retry_after_seconds);
      std::string_view target = target_param.empty() ? std::string_view() : req.param(target_param);
      if (!permission.empty() && !ctx.principal().allows(permission, target))
        return missing_permission(permission);
      return (*shared)(req, ctx);
    };
  };
  const std::string p(path);
  app.router.add(method, "/api/companies/{slug}" + p, wrap(PathForm::company), options);
  app.router.add(method, "/api/mail/companies/{slug}" + p, wrap(PathForm::product), options);
  app.router.add(method, "/api/mail" + p, wrap(PathForm::product), options);
}

}  // namespace edge::mail
