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

}  // namespace

Response cdn_response(VariantCache& cache, const CdnLookup& lookup, std::string_view media_id,
                      std::optional<std::string_view> quality_segment, std::string_view accept) {
  std::optional<CdnSource> source = lookup(media_id);
  if (!source || !source->is_public) return not_found();

  if (!core::cdn::makes_variants(source->content_type)) {
    if (quality_segment) return not_found();
    core::Result<std::string> file = source->file();
    if (!file) return failure(file.error());
    Response response;
    response.content_type = source->content_type;
    response.file = *file;
    response.headers = core::cdn::as_uploaded_headers();
    return response;
  }

  core::cdn::Quality quality = core::cdn::kOriginal;
  if (quality_segment) {
    core::Result<core::cdn::Quality> named = core::cdn::quality_named(*quality_segment);
    if (!named) return not_found();
    quality = *named;
  }
  core::Result<Variant> variant = cache.get(media_id, source->file, quality, core::cdn::accept_class(accept));
  if (!variant) return failure(variant.error());
  Response response;
  response.content_type = std::string(core::cdn::format_content_type(variant->format));
  response.file = variant->path;
  response.headers = core::cdn::variant_headers(variant->format);
  return response;
}

Response cdn_response(VariantCache& cache, const CdnLookup& lookup, const Request& request) {
  std::string_view quality = request.param("quality");
  return cdn_response(cache, lookup, request.param("id"),
                      quality.empty() ? std::nullopt : std::optional<std::string_view>(quality),
                      request.header("accept"));
}

}  // namespace edge::cdn
