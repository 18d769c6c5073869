#include "edge/mail/mail_routes.h"

namespace edge::mail {

void register_mail_routes(App& app) {
  register_domain_routes(app);
  register_template_routes(app);
  register_send_routes(app);
  register_mailbox_routes(app);
  register_inbox_routes(app);
  register_suppression_routes(app);
  register_log_routes(app);
  register_analytics_routes(app);
  register_webhook_routes(app);
}

}  // namespace edge::mail
