#pragma once
// Which redirect and post-logout redirect URIs a client may register (RFC 9700 §2.1, RFC 8252 §7.3, §8.3):
// an absolute http(s) URI without a fragment (core::validate_http_url), and plain `http` only for a
// loopback host, `127.0.0.1`, `[::1]` or `localhost`, on any port. Every other host must use https: a code
// or a post-logout state sent over plain http to a remote host can be read and replayed on the way.

#include <string_view>

#include "core/result.h"

namespace core::oauth {

// ok, or `invalid_url` with a sentence naming the rule that failed.
Status validate_redirect_uri(std::string_view uri);

}  // namespace core::oauth
