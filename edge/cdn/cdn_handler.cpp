#include "edge/cdn/cdn_handler.h"

#include "core/cdn/accept.h"
#include "core/cdn/image_format.h"
#include "core/cdn/quality.h"
#include "edge/platform/envelope.h"

namespace edge::cdn {

namespace {

Response not_found() {
  return envelope_error(404, "Not found");
}

Response failure(const core::Error& error) {
  const std::string& code = error.code;
  if (code == "not_found") return not_found();
  if (code == "image_too_large") return envelope_error(422, error.message);
  if (code == "unreadable_image" || code == "unsupported_image" || code == "image_error") {
    return envelope_error(422, "The image cannot be processed");
  }
  return envelope_error(core::make_error("storage_error", error.message));
}

Response as_uploaded(const CdnSource& source, std::string file) {
  Response response;
  response.content_type = source.content_type;
  response.file = std::move(file);
  response.headers = core::cdn::as_uploaded_headers();
  return response;
}

Response variant_response(Variant variant) {
  Response response;
  response.content_type = std::string(core::cdn::format_content_type(variant.format));
  response.file = std::move(variant.path);
  response.opened = std::move(variant.opened);
  response.headers = core::cdn::variant_headers(variant.format);
  return response;
}

// How far an answer may go: `quick` answers only what needs no making and no fetching (nullopt otherwise).
enum class Reach { quick, full };

// Both paths decide alike.
std::optional<Response> answer(VariantCache& cache, Reach reach, const CdnLookup& lookup,
                               std::string_view media_id, std::optional<std::string_view> quality_segment,
                               std::string_view accept) {
  std::optional<CdnSource> source = lookup(media_id);
  if (!source || !source->is_public) return not_found();

  if (!core::cdn::makes_variants(source->content_type)) {
    if (quality_segment) return not_found();
    if (reach == Reach::quick) {
      std::optional<std::string> present = source->present_file ? source->present_file() : std::nullopt;
      if (!present) return std::nullopt;
      return as_uploaded(*source, std::move(*present));
    }
    core::Result<std::string> file = source->file();
    if (!file) return failure(file.error());
    return as_uploaded(*source, std::move(*file));
  }

  core::cdn::Quality quality = core::cdn::kOriginal;
  if (quality_segment) {
    core::Result<core::cdn::Quality> named = core::cdn::quality_named(*quality_segment);
    if (!named) return not_found();
    quality = *named;
  }
  const core::cdn::AcceptClass accept_class = core::cdn::accept_class(accept);
  if (reach == Reach::quick) {
    std::optional<Variant> hit = cache.find(media_id, quality, accept_class);
    if (!hit) return std::nullopt;
    return variant_response(std::move(*hit));
  }
  core::Result<Variant> variant = cache.get(media_id, source->file, quality, accept_class);
  if (!variant) return failure(variant.error());
  return variant_response(std::move(*variant));
}

std::optional<std::string_view> quality_of(const Request& request) {
  std::string_view quality = request.param("quality");
  return quality.empty() ? std::nullopt : std::optional<std::string_view>(quality);
}

}  // namespace

Response cdn_response(VariantCache& cache, const CdnLookup& lookup, std::string_view media_id,
                      std::optional<std::string_view> quality_segment, std::string_view accept) {
  return *answer(cache, Reach::full, lookup, media_id, quality_segment, accept);
}

Response cdn_response(VariantCache& cache, const CdnLookup& lookup, const Request& request) {
  return cdn_response(cache, lookup, request.param("id"), quality_of(request), request.header("accept"));
}

std::optional<Response> cdn_quick_response(VariantCache& cache, const CdnLookup& lookup,
                                           const Request& request) {
  return answer(cache, Reach::quick, lookup, request.param("id"), quality_of(request),
                request.header("accept"));
}

}  // namespace edge::cdn
