#include "edge/pages/app_page_headers.h"

namespace edge {
namespace {

// Scripts only from this origin, never inline; 'wasm-unsafe-eval' lets the core's WebAssembly compile
// (Chromium refuses WebAssembly under a script-src without it). worker-src: the till's service worker.
// Styles may be inline, as on the server-rendered pages (edge/pages/layout.cpp): the template preview shows
// an e-mail's HTML, whose styles are inline, in a sandboxed frame that inherits this policy and runs no
// script.
constexpr const char* kPolicy =
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; "
    "style-src 'self' 'unsafe-inline'; img-src 'self' https: data:; connect-src 'self'; frame-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

}  // namespace

void set_app_page_headers(Response& r) {
  r.set_header("Content-Security-Policy", kPolicy);
  r.set_header("X-Frame-Options", "DENY");
  r.set_header("X-Content-Type-Options", "nosniff");
  r.set_header("Referrer-Policy", "same-origin");
}

}  // namespace edge
