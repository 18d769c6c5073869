#pragma once

namespace edge {
struct App;
// Browser sign-in of platform accounts: GET/POST /login, POST /logout, GET /account, GET /.
void register_signin_routes(App& app);
}  // namespace edge
