#pragma once
// How every storage route is exposed (spec document 2, "Root addresses"; docs/storage-api.md), like the
// mail product's:
//   /api/companies/{slug}<path>           the company-scoped form
//   /api/storage/companies/{slug}<path>   the storage product's form naming the company
//   /api/storage<path>                    the storage product's form, acting on the access token's company
// Each checks, in order: credential (401), company (404), the platform rate limit (429), then the route's
// permission (403). Answers use the platform envelope.

#include <functional>
#include <string>
#include <string_view>

#include "edge/http/router.h"
#include "edge/platform/company_auth.h"

namespace edge {
struct App;
}

namespace edge::storage {

using StorageHandler = std::function<Response(Request&, const CompanyContext&)>;

void add_storage_route(App& app, const std::string& method, std::string_view path, std::string permission,
                       StorageHandler handler, RouteOptions options = {});

// The same three forms for a handler that authenticates by itself (the upload, which does so at the
// request head).
void add_storage_forms(App& app, const std::string& method, std::string_view path, const Handler& handler,
                       const RouteOptions& options);

// The checks above on a request (its head suffices). nullopt and `out` filled when it may go on, else the
// answer to send.
std::optional<Response> authorize(App& app, const Request& req, std::string_view permission,
                                  CompanyContext& out);

}  // namespace edge::storage
