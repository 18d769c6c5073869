#include "edge/status/public_page_data.h"

#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/status/snapshot.h"

namespace edge::status {

Lang public_lang(const Request& req) {
  if (auto lang = req.query_param("lang")) {
    if (*lang == "tr") return Lang::tr;
    if (*lang == "en") return Lang::en;
  }
  return pick_lang("", req.header("accept-language"));
}

core::Result<std::string> snapshot_body(App& app, const PublicPage& page, Lang lang, std::int64_t now_ms) {
  const std::string slug = record::str(page.page, "slug");
  if (auto body = app.status_snapshots.get(slug, lang_code(lang), now_ms)) return std::move(*body);
  auto data = load_page_data(app, page, now_ms);
  if (!data) return data.error();
  std::string body = core::to_json(snapshot_json(*data, now_ms, lang));
  app.status_snapshots.put(slug, lang_code(lang), body, now_ms);
  return body;
}

core::Result<json::object> snapshot_object(App& app, const PublicPage& page, Lang lang, std::int64_t now_ms) {
  auto body = snapshot_body(app, page, lang, now_ms);
  if (!body) return body.error();
  return core::parse_json_object(*body);
}

}  // namespace edge::status
