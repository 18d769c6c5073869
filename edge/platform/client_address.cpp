#include "edge/platform/client_address.h"

#include <boost/asio/ip/address.hpp>

#include <algorithm>

#include "core/ascii.h"
#include "edge/http/message.h"

namespace edge {

core::Result<std::string> canonical_address(std::string_view text) {
  boost::system::error_code ec;
  auto address = boost::asio::ip::make_address(std::string(core::trim_ascii_space(text)), ec);
  if (ec) return core::make_error("invalid_address", "'" + std::string(text) + "' is not an IP address");
  if (address.is_v6() && address.to_v6().is_v4_mapped())
    return boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, address.to_v6()).to_string();
  return address.to_string();
}

std::string client_address(const Request& req, const std::vector<std::string>& trusted_proxies) {
  auto trusted = [&](const std::string& address) {
    return std::find(trusted_proxies.begin(), trusted_proxies.end(), address) != trusted_proxies.end();
  };
  std::string peer = canonical_address(req.remote_addr).value_or(req.remote_addr);
  if (!trusted(peer)) return peer;
  std::string_view forwarded = req.header("x-forwarded-for");
  // Right to left: the first address no trusted proxy vouches for.
  while (!forwarded.empty()) {
    std::size_t comma = forwarded.rfind(',');
    std::string_view entry = comma == std::string_view::npos ? forwarded : forwarded.substr(comma + 1);
    forwarded = comma == std::string_view::npos ? std::string_view() : forwarded.substr(0, comma);
    auto address = canonical_address(entry);
    // A trusted proxy appended this entry; if it is no address the chain is broken: stop at the proxy.
    if (!address) return peer;
    if (!trusted(*address)) return *address;
    peer = *address;
  }
  return peer;
}

}  // namespace edge
