#include "core/storage/content_type.h"

#include <array>
#include <cstdint>
#include <utility>

#include "core/ascii.h"

namespace core::storage {
namespace {

bool starts(std::string_view head, std::string_view magic, std::size_t at = 0) {
  return head.size() >= at + magic.size() && head.substr(at, magic.size()) == magic;
}

std::uint8_t byte(std::string_view s, std::size_t i) {
  return static_cast<std::uint8_t>(s[i]);
}

// Valid UTF-8 without control bytes other than tab, LF, FF and CR. A multi-byte sequence cut off by the end
// of `head` is fine (the sniffers see only the file's first bytes).
bool looks_like_text(std::string_view head) {
  std::size_t i = starts(head, "\xEF\xBB\xBF") ? 3 : 0;
  while (i < head.size()) {
    const std::uint8_t c = byte(head, i);
    if (c < 0x80) {
      if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f') return false;
      if (c == 0x7F) return false;
      ++i;
      continue;
    }
    std::size_t more = 0;
    std::uint32_t cp = 0;
    if ((c & 0xE0) == 0xC0) {
      more = 1;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      more = 2;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      more = 3;
      cp = c & 0x07;
    } else {
      return false;
    }
    std::size_t j = 1;
    for (; j <= more && i + j < head.size(); ++j) {
      const std::uint8_t d = byte(head, i + j);
      if ((d & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (d & 0x3F);
    }
    if (j <= more) return true;  // cut off by the end of the head
    if ((more == 1 && cp < 0x80) || (more == 2 && cp < 0x800) || (more == 3 && cp < 0x10000) ||
        cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    i += more + 1;
  }
  return true;
}

// ISO base media files (MP4, QuickTime, HEIF, AVIF): `ftyp` box with its major and compatible brands.
std::string_view sniff_iso_media(std::string_view head) {
  if (!starts(head, "ftyp", 4) || head.size() < 12) return {};
  std::uint32_t box = (std::uint32_t(byte(head, 0)) << 24) | (std::uint32_t(byte(head, 1)) << 16) |
                      (std::uint32_t(byte(head, 2)) << 8) | byte(head, 3);
  if (box < 16 || box > 4096) return {};
  std::string_view major = head.substr(8, 4);
  auto has_brand = [&](std::string_view b) {
    if (major == b) return true;
    for (std::size_t at = 16; at + 4 <= box && at + 4 <= head.size(); at += 4)
      if (head.substr(at, 4) == b) return true;
    return false;
  };
  if (has_brand("avif") || has_brand("avis")) return "image/avif";
  for (std::string_view b : {"heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"})
    if (major == b) return "image/heic";
  if (major == "qt  ") return "video/quicktime";
  if (major == "M4A " || major == "M4B " || major == "M4P ") return "audio/mp4";
  return "video/mp4";
}

struct Family {
  std::string_view name;
  std::array<std::string_view, 12> types;
};

// Content types that name the same kind of bytes. The first of each is what sniff_content_type answers.
constexpr std::array<Family, 18> kFamilies{{
    {"jpeg", {"image/jpeg"}},
    {"png", {"image/png", "image/apng"}},
    {"gif", {"image/gif"}},
    {"webp", {"image/webp"}},
    {"heif", {"image/avif", "image/heic", "image/heif", "image/heic-sequence", "image/heif-sequence"}},
    {"bmp", {"image/bmp"}},
    {"tiff", {"image/tiff"}},
    {"pdf", {"application/pdf"}},
    {"iso", {"video/mp4", "video/quicktime", "audio/mp4", "video/3gpp", "video/3gpp2", "video/x-m4v"}},
    {"matroska", {"video/webm", "audio/webm", "video/x-matroska", "audio/x-matroska"}},
    {"mp3", {"audio/mpeg"}},
    {"aac", {"audio/aac"}},
    {"wav", {"audio/wav"}},
    {"avi", {"video/x-msvideo"}},
    {"ogg", {"audio/ogg", "video/ogg", "application/ogg", "audio/opus"}},
    {"flac", {"audio/flac"}},
    {"zip",
     {"application/zip", "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "application/vnd.openxmlformats-officedocument.presentationml.presentation",
      "application/vnd.oasis.opendocument.text", "application/vnd.oasis.opendocument.spreadsheet",
      "application/vnd.oasis.opendocument.presentation", "application/epub+zip", "application/java-archive",
      "application/vnd.android.package-archive"}},
    {"gzip", {"application/gzip"}},
}};

std::string_view family_of(std::string_view type) {
  for (const Family& f : kFamilies)
    for (std::string_view t : f.types)
      if (!t.empty() && t == type) return f.name;
  return {};
}

bool texty(std::string_view type) {
  return type.rfind("text/", 0) == 0 || type == "application/json" || type == "application/xml" ||
         type == "image/svg+xml" || type == "application/javascript" || type.ends_with("+json") ||
         type.ends_with("+xml");
}

}  // namespace

std::string_view sniff_content_type(std::string_view head) {
  if (starts(head, "\xFF\xD8\xFF")) return "image/jpeg";
  if (starts(head, "\x89PNG\r\n\x1A\n")) return "image/png";
  if (starts(head, "GIF87a") || starts(head, "GIF89a")) return "image/gif";
  if (starts(head, "RIFF") && starts(head, "WEBP", 8)) return "image/webp";
  if (starts(head, "RIFF") && starts(head, "WAVE", 8)) return "audio/wav";
  if (starts(head, "RIFF") && starts(head, "AVI ", 8)) return "video/x-msvideo";
  if (std::string_view iso = sniff_iso_media(head); !iso.empty()) return iso;
  if (starts(head, "%PDF-")) return "application/pdf";
  if (starts(head, "\x1A\x45\xDF\xA3")) {
    return head.find("webm") != std::string_view::npos ? "video/webm" : "video/x-matroska";
  }
  if (starts(head, "OggS"))
    return head.find("\x80theora") != std::string_view::npos ? "video/ogg" : "audio/ogg";
  if (starts(head, "fLaC")) return "audio/flac";
  if (starts(head, "ID3")) return "audio/mpeg";
  if (head.size() >= 2 && byte(head, 0) == 0xFF && (byte(head, 1) & 0xE0) == 0xE0) {
    const int layer = (byte(head, 1) >> 1) & 3;
    if (layer == 1) return "audio/mpeg";                                   // MPEG audio layer III
    if (layer == 0 && (byte(head, 1) & 0xF6) == 0xF0) return "audio/aac";  // ADTS
  }
  if (starts(head, "PK\x03\x04") || starts(head, "PK\x05\x06")) return "application/zip";
  if (starts(head, "\x1F\x8B")) return "application/gzip";
  if (starts(head, std::string_view("II*\0", 4)) || starts(head, std::string_view("MM\0*", 4)))
    return "image/tiff";
  if (starts(head, "BM") && head.size() >= 26 && head.substr(6, 4) == std::string_view("\0\0\0\0", 4))
    return "image/bmp";
  if (looks_like_text(head)) return "text/plain";
  return {};
}

std::string normalize_content_type(std::string_view text) {
  std::string_view bare = text.substr(0, text.find(';'));
  std::string t = to_ascii_lower(trim_ascii_space(bare));
  static constexpr std::pair<std::string_view, std::string_view> kAliases[] = {
      {"image/jpg", "image/jpeg"},
      {"image/pjpeg", "image/jpeg"},
      {"image/x-png", "image/png"},
      {"image/x-ms-bmp", "image/bmp"},
      {"audio/x-wav", "audio/wav"},
      {"audio/wave", "audio/wav"},
      {"audio/vnd.wave", "audio/wav"},
      {"audio/mp3", "audio/mpeg"},
      {"audio/x-mp3", "audio/mpeg"},
      {"audio/mpeg3", "audio/mpeg"},
      {"audio/x-mpeg", "audio/mpeg"},
      {"audio/x-m4a", "audio/mp4"},
      {"audio/m4a", "audio/mp4"},
      {"audio/x-flac", "audio/flac"},
      {"audio/x-aac", "audio/aac"},
      {"application/x-zip-compressed", "application/zip"},
      {"application/x-zip", "application/zip"},
      {"application/x-gzip", "application/gzip"},
      {"application/x-pdf", "application/pdf"},
      {"video/avi", "video/x-msvideo"},
      {"video/msvideo", "video/x-msvideo"},
  };
  for (auto [alias, name] : kAliases)
    if (t == alias) return std::string(name);
  return t;
}

bool valid_content_type(std::string_view text) {
  if (text.empty() || text.size() > 255) return false;
  std::string_view bare = trim_ascii_space(text.substr(0, text.find(';')));
  auto token_char = [](char c) {
    return is_ascii_alnum(c) || std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
  };
  std::size_t slash = bare.find('/');
  if (slash == std::string_view::npos || slash == 0 || slash + 1 == bare.size()) return false;
  for (std::size_t i = 0; i < bare.size(); ++i)
    if (i != slash && !token_char(bare[i])) return false;
  for (char c : text)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7F) return false;
  return true;
}

Result<std::string> resolve_content_type(std::string_view head, std::string_view declared) {
  std::string wanted;
  if (!trim_ascii_space(declared).empty()) {
    if (!valid_content_type(declared))
      return make_error("invalid_content_type", "the declared content type is not of the form type/subtype");
    wanted = normalize_content_type(declared);
    // Browsers send it for any file whose type they cannot name: it declares nothing.
    if (wanted == "application/octet-stream") wanted.clear();
  }
  const std::string_view sniffed = sniff_content_type(head);
  auto mismatch = [&](std::string_view what) {
    return make_error("content_type_mismatch", "the declared content type " + wanted +
                                                   " does not match the file's bytes, which are " +
                                                   std::string(what));
  };
  if (!sniffed.empty() && sniffed != "text/plain") {
    if (wanted.empty()) return std::string(sniffed);
    if (family_of(wanted) != family_of(sniffed)) return mismatch(sniffed);
    return wanted;
  }
  if (sniffed == "text/plain") {
    if (wanted.empty()) return std::string("text/plain");
    if (!family_of(wanted).empty()) return mismatch("text");
    return wanted;
  }
  if (wanted.empty()) return std::string("application/octet-stream");
  if (!family_of(wanted).empty() || texty(wanted)) return mismatch("of an unrecognised binary format");
  return wanted;
}

std::string_view media_type_for(std::string_view type) {
  if (type.rfind("image/", 0) == 0) return "image";
  if (type.rfind("video/", 0) == 0) return "video";
  if (type.rfind("audio/", 0) == 0 || type == "application/ogg") return "audio";
  if (type.rfind("text/", 0) == 0 || type == "application/pdf" || type == "application/json" ||
      type == "application/xml" || type == "application/rtf" || type == "application/msword" ||
      type == "application/vnd.ms-excel" || type == "application/vnd.ms-powerpoint" ||
      type == "application/epub+zip" ||
      type.rfind("application/vnd.openxmlformats-officedocument.", 0) == 0 ||
      type.rfind("application/vnd.oasis.opendocument.", 0) == 0)
    return "doc";
  return "other";
}

}  // namespace core::storage
