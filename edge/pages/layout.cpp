#include "edge/pages/layout.h"

namespace edge {
namespace {

constexpr std::string_view kStyle = R"css(
:root { color-scheme: light dark; --accent: #2f5bea; --link: #2f5bea; --bg: #f5f6f8; --card: #fff; --text: #1b1f27;
        --muted: #5b6475; --line: #dde1e8; --danger: #c62828; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #12151b; --card: #1b2029; --text: #e8ebf1; --muted: #9aa3b5; --line: #2c3340; --link: #8fa9ff; }
}
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
       background: var(--bg); color: var(--text); }
header.top { display: flex; align-items: center; justify-content: space-between; padding: 14px 28px;
             border-bottom: 1px solid var(--line); background: var(--card); }
header.top .brand { font-weight: 650; letter-spacing: .2px; }
header.top .brand span { color: var(--link); }
main { max-width: 760px; margin: 48px auto; padding: 0 20px; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 28px 32px;
        box-shadow: 0 1px 2px rgba(0,0,0,.04); }
.card.narrow { max-width: 400px; margin: 0 auto; }
h1 { font-size: 22px; margin: 0 0 6px; }
p.lead { color: var(--muted); margin: 0 0 22px; }
label { display: block; font-weight: 550; margin: 14px 0 6px; }
input[type=email], input[type=password], input[type=text] { width: 100%; padding: 10px 12px;
       border: 1px solid var(--line); border-radius: 8px; font: inherit; background: var(--bg); color: var(--text); }
input:focus { outline: 2px solid var(--accent); outline-offset: 1px; }
button { margin-top: 22px; width: 100%; padding: 11px; border: 0; border-radius: 8px; font: inherit;
         font-weight: 600; background: var(--accent); color: #fff; cursor: pointer; }
button.secondary { width: auto; margin: 0; padding: 7px 14px; background: transparent; color: var(--text);
                   border: 1px solid var(--line); }
.error { background: rgba(198,40,40,.08); color: var(--danger); border: 1px solid rgba(198,40,40,.25);
         border-radius: 8px; padding: 10px 12px; margin-bottom: 8px; }
table { width: 100%; border-collapse: collapse; margin-top: 8px; }
th, td { text-align: left; padding: 10px 8px; border-bottom: 1px solid var(--line); }
th { color: var(--muted); font-weight: 550; font-size: 13px; text-transform: uppercase; letter-spacing: .4px; }
.pill { display: inline-block; padding: 2px 10px; border-radius: 999px; font-size: 12px; font-weight: 600;
        background: rgba(47,91,234,.12); color: var(--accent); }
.muted { color: var(--muted); }
ul.scopes { margin: 14px 0; padding-left: 20px; }
ul.scopes li { margin: 4px 0; }
.actions { display: flex; gap: 10px; margin-top: 20px; }
.actions button { flex: 1; margin: 0; padding: 11px; }
ul.apps { list-style: none; padding: 0; margin: 10px 0 0; }
li.app { display: flex; justify-content: space-between; align-items: flex-start; gap: 16px; padding: 16px 0;
         border-top: 1px solid var(--line); }
a { color: var(--link); }
li.app ul.scopes { margin-bottom: 0; }
ul.apps li.app:last-child { padding-bottom: 0; }
)css";

}  // namespace

Response html_page(int status, std::string_view title, std::string_view body_html, std::string_view lang) {
  Response r;
  r.status = status;
  r.content_type = "text/html; charset=utf-8";
  r.body.reserve(kStyle.size() + body_html.size() + 512);
  r.body += "<!doctype html>\n<html lang=\"";
  r.body += lang;
  // The empty icon spares every page a /favicon.ico request that would answer 404.
  r.body +=
      "\"><head><meta charset=\"utf-8\"><link rel=\"icon\" href=\"data:,\">"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>";
  r.body += html_escape(title);
  r.body += " · Platform</title><style>";
  r.body += kStyle;
  r.body +=
      "</style></head><body><header class=\"top\"><div class=\"brand\">&#9670; <span>Platform</span></div>"
      "</header><main>";
  r.body += body_html;
  r.body += "</main></body></html>\n";
  r.set_header("Content-Security-Policy",
               "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' https: data:; "
               "frame-ancestors 'none'");
  r.set_header("X-Frame-Options", "DENY");
  r.set_header("X-Content-Type-Options", "nosniff");
  r.set_header("Referrer-Policy", "same-origin");
  r.set_header("Cache-Control", "no-store");
  r.set_header("Content-Language", std::string(lang));
  return r;
}

}  // namespace edge
