#pragma once
// Mail demo data for `scripts/start.sh`: a sending domain, pending until its records are published (DNS
// decides, so the demo cannot make it verified), and one manual suppression, so the dashboard's pages
// show something real.

#include <string_view>

#include "core/result.h"

namespace edge {
struct App;
}

namespace edge::mail {

core::Status seed_mail_demo(App& app, std::string_view company_id);

}  // namespace edge::mail
