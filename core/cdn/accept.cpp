#include "core/cdn/accept.h"

#include <optional>

#include "core/ascii.h"

namespace core::cdn {

namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// RFC 9110 §12.4.2: qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] ), in thousandths.
std::optional<int> parse_qvalue(std::string_view text) {
  if (text.empty() || (text[0] != '0' && text[0] != '1')) return std::nullopt;
  int whole = text[0] - '0';
  if (text.size() == 1) return whole * 1000;
  if (text[1] != '.' || text.size() > 5) return std::nullopt;
  int fraction = 0;
  int digits = 0;
  for (char c : text.substr(2)) {
    if (c < '0' || c > '9') return std::nullopt;
    fraction = fraction * 10 + (c - '0');
    ++digits;
  }
  for (; digits < 3; ++digits) fraction *= 10;
  if (whole == 1 && fraction != 0) return std::nullopt;
  return whole * 1000 + fraction;
}

struct MediaRange {
  std::string_view type;  // `type/subtype`, as written
  int q = 1000;
};

// One comma-separated element: `type/subtype *( OWS ";" OWS parameter )`. The q parameter's name is
// case-insensitive; other parameters are ignored.
std::optional<MediaRange> parse_range(std::string_view element) {
  MediaRange range;
  std::size_t semicolon = element.find(';');
  range.type = trim(element.substr(0, semicolon));
  std::size_t slash = range.type.find('/');
  if (range.type.empty() || slash == std::string_view::npos || slash == 0 || slash + 1 == range.type.size()) {
    return std::nullopt;
  }
  while (semicolon != std::string_view::npos) {
    std::string_view rest = element.substr(semicolon + 1);
    std::size_t next = rest.find(';');
    std::string_view parameter = trim(rest.substr(0, next));
    semicolon = next == std::string_view::npos ? next : semicolon + 1 + next;
    std::size_t equals = parameter.find('=');
    if (equals == std::string_view::npos) continue;
    std::string_view name = trim(parameter.substr(0, equals));
    if (!ascii_iequals(name, "q")) continue;
    std::optional<int> q = parse_qvalue(trim(parameter.substr(equals + 1)));
    if (!q) return std::nullopt;
    range.q = *q;
    break;  // parameters after q are accept-extensions
  }
  return range;
}

}  // namespace

std::string_view class_name(AcceptClass accept_class) {
  switch (accept_class) {
    case AcceptClass::avif:
      return "avif";
    case AcceptClass::webp:
      return "webp";
    case AcceptClass::legacy:
      break;
  }
  return "legacy";
}

AcceptClass accept_class(std::string_view accept) {
  std::optional<int> avif_q;
  std::optional<int> webp_q;
  while (!accept.empty()) {
    std::size_t comma = accept.find(',');
    std::string_view element = accept.substr(0, comma);
    accept = comma == std::string_view::npos ? std::string_view{} : accept.substr(comma + 1);
    std::optional<MediaRange> range = parse_range(element);
    if (!range) continue;
    if (!avif_q && ascii_iequals(range->type, "image/avif")) avif_q = range->q;
    if (!webp_q && ascii_iequals(range->type, "image/webp")) webp_q = range->q;
  }
  int avif = avif_q.value_or(0);
  int webp = webp_q.value_or(0);
  if (avif > 0 && avif >= webp) return AcceptClass::avif;
  if (webp > 0) return AcceptClass::webp;
  return AcceptClass::legacy;
}

}  // namespace core::cdn
