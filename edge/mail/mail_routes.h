#pragma once
// The mail product's routes (spec document 2, "Mail"; docs/mail-api.md), one file per resource.

namespace edge {
struct App;
}

namespace edge::mail {

void register_domain_routes(App& app);
void register_template_routes(App& app);
void register_send_routes(App& app);
void register_mailbox_routes(App& app);
void register_inbox_routes(App& app);
void register_suppression_routes(App& app);
void register_log_routes(App& app);
void register_analytics_routes(App& app);
void register_webhook_routes(App& app);

// All of the above.
void register_mail_routes(App& app);

}  // namespace edge::mail
