#pragma once
// The address of the client a request comes from, for per-address limits and logs.
//
// The socket's peer is the client, unless the peer is one of the configured trusted reverse proxies
// (`--trusted-proxy`, EDGE_TRUSTED_PROXIES). Then the client is the right-most `X-Forwarded-For` entry that
// is not itself a trusted proxy: every proxy appends the address it received the request from, so entries
// left of that are whatever the client chose to send and are never believed. Without trusted proxies the
// header is ignored entirely, so nobody can pick their own address by sending it.

#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace edge {

struct Request;

// The canonical text of an IP address (IPv4-mapped IPv6 as plain IPv4), or `invalid_address`.
core::Result<std::string> canonical_address(std::string_view text);

// The client of `req` under the rule above; `trusted_proxies` holds canonical addresses.
std::string client_address(const Request& req, const std::vector<std::string>& trusted_proxies);

}  // namespace edge
