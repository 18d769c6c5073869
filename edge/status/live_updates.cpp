#include "edge/status/live_updates.h"

#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/status/public_page_data.h"
#include "edge/status/status_http.h"

namespace edge::status {
namespace {
constexpr Lang kLangs[] = {Lang::en, Lang::tr};
}

std::string live_topic(std::string_view page_id, Lang lang) {
  return "status/" + std::string(page_id) + "/" + std::string(lang_code(lang));
}

Response live_stream(App& app, const PublicPage& page, Lang lang) {
  const std::string slug = record::str(page.page, "slug");
  // Built (or taken from the cache) before subscribing: `first` runs under the hub's lock, which every
  // topic shares, so it only re-reads the cache. The cache is emptied by page_changed before it publishes,
  // so a hit is never older than the last publish; a miss means a change came in between, and only then is
  // the snapshot built under the lock.
  if (auto prepared = snapshot_body(app, page, lang, app.clock.now_ms()); !prepared) {
    Response e = status_error(prepared.error());
    e.set_header("Access-Control-Allow-Origin", "*");
    return e;
  }
  Response r;
  r.set_header("Access-Control-Allow-Origin", "*");
  r.set_header("Content-Language", std::string(lang_code(lang)));
  r.events = app.events.subscribe(live_topic(record::str(page.page, "id"), lang), [&](EventStream& stream) {
    const std::int64_t now = app.clock.now_ms();
    auto body = app.status_snapshots.get(slug, lang_code(lang), now);
    if (!body) {
      auto built = snapshot_body(app, page, lang, now);
      if (!built) {
        stream.send(
            core::to_json(json::object{{"error", built.error().code}, {"message", built.error().message}}),
            "error");
        stream.close();
        return;
      }
      body = std::move(*built);
    }
    stream.send(*body, "snapshot");
  });
  return r;
}

void publish_page(App& app, const PublicPage& page) {
  const std::string page_id = record::str(page.page, "id");
  for (Lang lang : kLangs) {
    const std::string topic = live_topic(page_id, lang);
    if (app.events.subscribers(topic) == 0) continue;
    auto body = snapshot_body(app, page, lang, app.clock.now_ms());
    if (!body) {
      app.events.publish(
          topic, core::to_json(json::object{{"error", body.error().code}, {"message", body.error().message}}),
          "error");
      continue;
    }
    app.events.publish(topic, *body, "snapshot");
  }
}

void publish_page_gone(App& app, std::string_view page_id) {
  for (Lang lang : kLangs) {
    const std::string topic = live_topic(page_id, lang);
    if (app.events.subscribers(topic) == 0) continue;
    app.events.publish(topic, R"({"error":"page_not_found","message":"this status page was deleted"})",
                       "gone");
  }
}

}  // namespace edge::status
