#pragma once
// The sign-in `next` parameter (and any other "go back to" value) may only lead to a path of this site:
// otherwise /login would be an open redirect (RFC 9700 §4.11, OWASP "Unvalidated Redirects and Forwards").

#include <string_view>

namespace core {

// Whether `next`, resolved as a URL reference against this site's origin by a browser, stays on the site.
// Accepted: a path-absolute reference (`/account`, `/oauth/authorize?client_id=...`). Refused:
//  - anything not starting with `/` (absolute URLs, `javascript:`, `https:`) and `//` (scheme-relative);
//  - control characters, space, non-ASCII and `\` anywhere: browsers drop tabs and newlines and read `\` as
//    `/`, so `/<TAB>/evil.example` and `/\evil.example` are `//evil.example` to them;
//  - percent-encoded `/`, `\` or control characters in the path part (before `?` or `#`): one decoding hop
//    (a proxy, a path normaliser) would turn `/%2F/evil.example` into `//evil.example`. The query may carry
//    them (`redirect_uri=https%3A%2F%2F...` of an OAuth request that waits for the sign-in).
bool is_same_site_path(std::string_view next);

}  // namespace core
