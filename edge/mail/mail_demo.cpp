#include "edge/mail/mail_demo.h"

#include "edge/app.h"
#include "edge/mail/domains.h"
#include "edge/mail/suppressions.h"

namespace edge::mail {

core::Status seed_mail_demo(App& app, std::string_view company_id) {
  auto domain = create_domain(app, company_id, "demo-bistro.example");
  if (!domain) return domain.error();
  return app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    add_suppression(app, txn, company_id, "unsubscribed@demo-bistro.example", "manual", nullptr,
                    app.clock.now_ms());
    return {};
  });
}

}  // namespace edge::mail
