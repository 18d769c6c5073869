#pragma once
// Status demo data for `scripts/start.sh`: a public page `demo` whose checks probe this edge itself (its
// health endpoint, the sign-in page and the page's own snapshot), so the page, the embed and the dashboard
// show live results from the first minute.

#include <string>

#include "core/result.h"

namespace edge {
struct App;
}

namespace edge::status {

inline constexpr std::string_view kDemoPageSlug = "demo";

core::Status seed_status_demo(App& app, const std::string& company_slug, const std::string& access_token);

}  // namespace edge::status
