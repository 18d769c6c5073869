#pragma once
// How every mail route is exposed (spec document 2, "Root addresses"; docs/mail-api.md):
//   /api/companies/{slug}<path>        the company-scoped form
//   /api/mail/companies/{slug}<path>   the mail product's form naming the company
//   /api/mail<path>                    the mail product's form, acting on the access token's company
// Each checks, in order: credential (401), company (404), the platform rate limit and then the mail limit
// of document 2 (100 requests per 10 s per token across the mail endpoints; 429 with Retry-After), then the
// route's permission (403). Answers use the platform envelope.

#include <functional>
#include <string>
#include <string_view>

#include "edge/http/router.h"
#include "edge/platform/company_auth.h"

namespace edge {
struct App;
}

namespace edge::mail {

// Which form a request came in by: the mail-product form names some fields differently (`domain` for
// `name`, `dns`/`host` for `dnsRecords`/`name`, `mjmlBody` for `body`).
enum class PathForm { company, product };

struct MailContext {
  CompanyContext company;
  PathForm form = PathForm::company;

  const Company& co() const { return company.company; }
  const Principal& principal() const { return company.principal; }
};

using MailHandler = std::function<Response(Request&, const MailContext&)>;

// Registers `method` `path` (e.g. "/domains/{id}") in the three forms. `permission` is the plain name the
// route needs (`domains.view`); `target_param` names the path parameter holding the resource a scoped
// permission may name (`domains.domain:<id>`). An empty `permission` leaves the check to the handler (the
// inbox, whose scope `inbox.mailbox:<email>` names a query parameter).
void add_mail_route(App& app, const std::string& method, std::string_view path, std::string permission,
                    MailHandler handler, std::string target_param = {}, RouteOptions options = {});

}  // namespace edge::mail
