#include "edge/status/embed_page.h"

#include "edge/status/public_page_markup.h"
#include "edge/status/public_page_texts.h"

namespace edge::status {
namespace {

namespace json = core::json;
using markup::el;
using markup::text;

std::string jstr(const json::object& o, std::string_view key) {
  auto* v = o.if_contains(key);
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

// Any site may frame the badge; scripts, the wasm module and the snapshot come from this origin only.
constexpr const char* kEmbedPolicy =
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; style-src 'self'; "
    "img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors *";

}  // namespace

std::string render_embed(const json::object& page, Lang lang, const EmbedLinks& links) {
  const PublicTexts& t = public_texts(lang);
  std::string name;
  if (auto* b = page.if_contains("branding"); b && b->is_object())
    name = jstr(b->get_object(), "displayName");
  if (name.empty()) name = jstr(page, "name");
  const json::object texts{
      {"operational", t.overall_operational}, {"degraded", t.overall_degraded}, {"down", t.overall_down},
      {"maintenance", t.overall_maintenance}, {"no-data", t.overall_no_data},   {"error", t.no_data}};
  return markup::render_html(
      el("html", {{"lang", std::string(lang_code(lang))}},
         {el("head", {},
             {el("meta", {{"charset", "utf-8"}}),
              el("meta", {{"name", "viewport"}, {"content", "width=device-width, initial-scale=1"}}),
              el("meta", {{"name", "color-scheme"}, {"content", "light dark"}}),
              el("title", {}, {text(name)}), el("link", {{"rel", "icon"}, {"href", "data:,"}}),
              el("link", {{"rel", "stylesheet"}, {"href", "/web/status/embed.css"}}),
              el("script", {{"type", "module"}, {"src", "/web/status/embed.js"}})}),
          el("body", {{"data-snapshot", links.snapshot_url}, {"data-texts", core::to_json(texts)}},
             {el("a",
                 {{"id", "badge"},
                  {"class", "em-badge"},
                  {"data-status", "loading"},
                  {"href", links.page_url},
                  {"target", "_blank"},
                  {"rel", "noopener"},
                  {"title", std::string(t.view_page)}},
                 {el("span", {{"class", "em-dot"}, {"aria-hidden", "true"}}),
                  el("span", {{"class", "em-text"}},
                     {el("strong", {{"class", "em-name"}}, {text(name)}),
                      el("span", {{"id", "status-text"}, {"class", "em-status"}, {"aria-live", "polite"}},
                         {text(t.loading)})}),
                  el("span", {{"class", "em-arrow"}, {"aria-hidden", "true"}}, {text("→")})})})}));
}

void set_embed_headers(Response& r) {
  r.set_header("Content-Security-Policy", kEmbedPolicy);
  r.set_header("X-Content-Type-Options", "nosniff");
  r.set_header("Referrer-Policy", "strict-origin-when-cross-origin");
}

}  // namespace edge::status
