#pragma once
// Signed download URLs for media (docs/storage-api.md, "Download URLs"): whoever holds one may fetch the
// file until it expires (DECISIONS.md: 15 minutes), without a credential, the way S3 presigned URLs and
// R2's signed URLs work. The signature is an HMAC-SHA256, keyed by a key derived from the deployment's secret
// key, over the media id and the expiry, so changing either (or the signature) makes it invalid. Pure.

#include <cstdint>
#include <string>
#include <string_view>

#include "core/sealed.h"

namespace core::storage {

inline constexpr std::int64_t kDownloadUrlSeconds = 15 * 60;

// Lower-case hex HMAC-SHA256 over "media-download\n<media_id>\n<expires_unix_s>".
std::string download_signature(const SecretKey& key, std::string_view media_id, std::int64_t expires_s);

enum class DownloadCheck { ok, expired, invalid };

// Checks the `expires` and `signature` query values of a download URL for `media_id` at `now_s`: `invalid`
// when either is missing or malformed or the signature does not match (compared in constant time),
// `expired` when it matched but `expires` has passed (a URL is good up to and including its expiry second).
DownloadCheck check_download(const SecretKey& key, std::string_view media_id, std::string_view expires,
                             std::string_view signature, std::int64_t now_s);

}  // namespace core::storage
