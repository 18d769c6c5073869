#include "core/storage/download_url.h"

#include "core/ascii.h"
#include "core/bytes.h"
#include "core/crypto.h"

namespace core::storage {

std::string download_signature(const SecretKey& key, std::string_view media_id, std::int64_t expires_s) {
  // A key of its own for this purpose, so a signature here can never be replayed as another MAC of the key.
  const Digest purpose_key =
      hmac_sha256(std::span<const std::uint8_t>(key.data(), key.size()), as_bytes("storage download urls"));
  const std::string message = "media-download\n" + std::string(media_id) + "\n" + std::to_string(expires_s);
  const Digest mac =
      hmac_sha256(std::span<const std::uint8_t>(purpose_key.data(), purpose_key.size()), as_bytes(message));
  return hex_encode(mac);
}

DownloadCheck check_download(const SecretKey& key, std::string_view media_id, std::string_view expires,
                             std::string_view signature, std::int64_t now_s) {
  if (expires.empty() || expires.size() > 15 || signature.size() != 64) return DownloadCheck::invalid;
  std::int64_t at = 0;
  for (char c : expires) {
    if (!is_ascii_digit(c)) return DownloadCheck::invalid;
    at = at * 10 + (c - '0');
  }
  if (expires.size() > 1 && expires[0] == '0') return DownloadCheck::invalid;  // one spelling per expiry
  if (!constant_time_equal(download_signature(key, media_id, at), signature)) return DownloadCheck::invalid;
  if (now_s > at) return DownloadCheck::expired;
  return DownloadCheck::ok;
}

}  // namespace core::storage
