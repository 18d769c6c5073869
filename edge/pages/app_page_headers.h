#pragma once
// The headers of the pages that run the platform's own ES modules (the dashboard shell, the till, the tools
// under /web/): a Content-Security-Policy that allows scripts, workers and connections only from this
// origin, no framing, no sniffing, same-origin referrers.

#include "edge/http/message.h"

namespace edge {
void set_app_page_headers(Response& r);
}  // namespace edge
