#include "edge/status/status_demo.h"

#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/platform/route_client.h"

namespace edge::status {

namespace json = core::json;

core::Status seed_status_demo(App& app, const std::string& company_slug, const std::string& access_token) {
  const std::string base = "/api/v1/dashboard/companies/" + company_slug;
  auto create = [&](const std::string& path, const json::object& body) -> core::Result<std::string> {
    auto r = call_route(app, "POST", base + path, body, access_token);
    if (!r) return r.error();
    return record::str(*r, "id");
  };
  auto page = create("/pages", {{"name", "Demo Bistro"},
                                {"slug", std::string(kDemoPageSlug)},
                                {"subscribersEnabled", true},
                                {"branding",
                                 {{"displayName", "Demo Bistro"},
                                  {"primaryColor", "#0f766e"},
                                  {"tagline", "Online orders, the till and the platform behind them"}}}});
  if (!page) return page.error();
  struct Probe {
    const char* component;
    const char* check;
    std::string url;
    const char* body;  // expectedBodyContains, or null
  };
  const Probe probes[] = {
      {"Platform API", "Health endpoint", app.config.base_url + "/healthz", "ok"},
      {"Dashboard", "Sign-in page", app.config.base_url + "/login", nullptr},
      {"Status page", "Public snapshot", app.config.status_url + "/api/v1/status/demo", "\"overall\""},
  };
  int order = 1;
  for (const Probe& p : probes) {
    auto component = create("/pages/" + *page + "/components", {{"name", p.component}, {"order", order++}});
    if (!component) return component.error();
    json::object check{
        {"name", p.check}, {"url", p.url}, {"intervalSeconds", 30}, {"degradedLatencyMs", 1000}};
    if (p.body) check["expectedBodyContains"] = p.body;
    auto created = create("/pages/" + *page + "/components/" + *component + "/checks", check);
    if (!created) return created.error();
  }
  return {};
}

}  // namespace edge::status
