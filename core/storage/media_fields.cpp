#include "core/storage/media_fields.h"

#include "core/ascii.h"

namespace core::storage {

bool clean_utf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if (c < 0x20 || c == 0x7F) return false;
      ++i;
      continue;
    }
    std::size_t more = (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : 0;
    if (more == 0 || i + more >= text.size()) return false;
    std::uint32_t cp = c & (more == 1 ? 0x1F : more == 2 ? 0x0F : 0x07);
    for (std::size_t j = 1; j <= more; ++j) {
      const auto d = static_cast<unsigned char>(text[i + j]);
      if ((d & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (d & 0x3F);
    }
    if ((more == 1 && cp < 0x80) || (more == 2 && cp < 0x800) || (more == 3 && cp < 0x10000) ||
        cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    i += more + 1;
  }
  return true;
}

Status validate_bucket_name(std::string_view name) {
  if (name.empty() || name.size() > 100 || !clean_utf8(name) || trim_ascii_space(name).empty())
    return make_error("invalid_name", "field 'name' must be 1 to 100 characters without control characters");
  return {};
}

Status validate_visibility(std::string_view v) {
  if (v != "public" && v != "private")
    return make_error("invalid_visibility", "field 'visibility' must be \"public\" or \"private\"");
  return {};
}

Status validate_filename(std::string_view f) {
  if (f.empty() || f.size() > 255 || !clean_utf8(f) || f == "." || f == ".." ||
      f.find_first_of("/\\") != std::string_view::npos)
    return make_error("invalid_filename",
                      "filename must be 1 to 255 bytes without control characters, '/' or '\\'");
  return {};
}

Status validate_folder(std::string_view folder) {
  auto bad = [] {
    return make_error(
        "invalid_folder",
        "folder must be up to 255 bytes of '/'-separated names, without empty, '.' or '..' names");
  };
  if (folder.empty()) return {};
  if (folder.size() > 255 || !clean_utf8(folder) || folder.find('\\') != std::string_view::npos) return bad();
  std::size_t start = 0;
  while (true) {
    std::size_t slash = folder.find('/', start);
    std::string_view seg = folder.substr(start, slash == std::string_view::npos ? slash : slash - start);
    if (seg.empty() || seg == "." || seg == "..") return bad();
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return {};
}

std::string base_filename(std::string_view sent) {
  std::size_t cut = sent.find_last_of("/\\");
  return std::string(cut == std::string_view::npos ? sent : sent.substr(cut + 1));
}

std::optional<bool> parse_bool(std::string_view text) {
  if (text == "true" || text == "1") return true;
  if (text == "false" || text == "0") return false;
  return std::nullopt;
}

}  // namespace core::storage
