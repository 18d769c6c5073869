#pragma once
// The public CDN, `GET {cdn_url}/f/<media_id>[/<quality>]` (spec document 2, "Public media";
// docs/storage-cdn.md), written against a lookup so that it knows nothing of the storage records.
//
// Public images are served as variants negotiated by `Accept` (the original too, so that no EXIF ever
// leaves the CDN); other public media are served as uploaded. Private or unknown media answer 404, like a
// quality the item cannot have. The response names a file; the transport adds ETag, Last-Modified and
// Accept-Ranges and answers Range and conditional requests (edge/http/message.h).

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "edge/cdn/variant_cache.h"
#include "edge/http/message.h"

namespace edge::cdn {

// What the CDN needs to know of a media item.
struct CdnSource {
  bool is_public = false;
  // As stored at upload (checked against the bytes then). Whether the item gets variants is
  // core::cdn::makes_variants(content_type).
  std::string content_type;
  // The item's bytes as a local file, asked for only when they are needed (never for a variant hit).
  SourceFile file;
  // The same file if it is on this machine already, with no fetch (BlobStore::present_file); unset or
  // nullopt sends media served as uploaded to cdn_response().
  std::function<std::optional<std::string>()> present_file;
};

// The media item of an id, or nullopt when there is none.
using CdnLookup = std::function<std::optional<CdnSource>(std::string_view media_id)>;

// The answer to a CDN request. `quality` is the path segment after the id, if any; `accept` the request's
// Accept header (empty when absent).
//   200 + file: a variant (Content-Type of its format, Cache-Control immutable, Vary: Accept,
//               X-Image-Format) or media served as uploaded (its content type, Cache-Control immutable,
//               nosniff, a sandboxing Content-Security-Policy);
//   404: unknown or private media, an unknown quality, a quality on media without variants;
//   422: an image the CDN cannot decode or that is over the pixel limit;
//   500: the variant or the source could not be read or written.
// Errors are in the platform envelope.
Response cdn_response(VariantCache& cache, const CdnLookup& lookup, std::string_view media_id,
                      std::optional<std::string_view> quality, std::string_view accept);

// The same for a routed request: the id from route parameter `id`, the quality from `quality` (absent or
// empty: the original), Accept from the request.
Response cdn_response(VariantCache& cache, const CdnLookup& lookup, const Request& request);

// The answer of cdn_response() when it needs no slow work, for the I/O thread (RouteOptions::
// inline_answer): the 404s, a variant that exists (VariantCache::find), media served as uploaded whose
// file is present. nullopt when a variant must be made or a blob fetched: then cdn_response() on the
// worker pool. The lookup must be cheap too (the edge's reads one LMDB record).
std::optional<Response> cdn_quick_response(VariantCache& cache, const CdnLookup& lookup,
                                           const Request& request);

}  // namespace edge::cdn
