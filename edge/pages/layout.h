#pragma once
// The frame every server-rendered page shares: document head, the platform style sheet, security
// headers (no framing, no inline script, no referrer leaks to other sites).

#include <string>
#include <string_view>

#include "edge/http/message.h"

namespace edge {

// `body_html` must already be escaped (html_escape) where it holds user data. `lang` is the page's language
// (the <html lang> attribute and Content-Language).
Response html_page(int status, std::string_view title, std::string_view body_html,
                   std::string_view lang = "en");

}  // namespace edge
