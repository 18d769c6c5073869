#pragma once
// What an upload's bytes are (docs/storage-api.md, "Content types"): the content type is read from the
// file's first bytes (magic numbers, the way `file` and browsers' MIME sniffing do), checked against the type
// the client declared, and mapped to the media `type` of document 2 (`image`, `video`, `audio`, `doc`,
// `other`). Pure: the caller hands in the file's first bytes (at least kSniffBytes when the file is that
// long).

#include <cstddef>
#include <string>
#include <string_view>

#include "core/result.h"

namespace core::storage {

// How many leading bytes the sniffers look at.
inline constexpr std::size_t kSniffBytes = 4096;

// The content type the bytes show, lower case without parameters: image/jpeg, image/png, image/gif,
// image/webp, image/avif, image/heic, image/bmp, image/tiff, application/pdf, video/mp4, video/quicktime,
// video/webm, audio/mpeg, audio/wav, audio/ogg, audio/flac, application/zip, application/gzip,
// text/plain (valid UTF-8 without control bytes other than tab, CR, LF, FF), or "" when nothing is
// recognised (some other binary format).
std::string_view sniff_content_type(std::string_view head);

// `text` lower-cased, trimmed, parameters (`; charset=...`) dropped, and aliases folded into the names
// sniff_content_type uses (image/jpg and image/pjpeg -> image/jpeg, audio/x-wav and audio/wave -> audio/wav,
// audio/mp3 -> audio/mpeg, application/x-zip-compressed -> application/zip, ...).
std::string normalize_content_type(std::string_view text);

// The syntax of a declared content type: `type/subtype` of RFC 9110 token characters, optionally followed
// by parameters; at most 255 characters.
bool valid_content_type(std::string_view text);

// The content type to store for bytes whose head is `head` and whose declared type is `declared` (empty:
// none declared). Rules:
//   - bytes of a recognised binary format: the declared type must name that format (after
//     normalize_content_type; video/mp4 and video/quicktime and audio/mp4 are one ISO media family, and
//     application/zip also covers the zip-based office and epub formats); the stored type is the declared one
//     when declared, else the sniffed one;
//   - text bytes: any declared type except one of the recognised binary formats (a "PNG" that is text is
//     refused); none declared: text/plain;
//   - unrecognised binary bytes: any declared type except a recognised binary format or a text type
//     (text/*, application/json, application/xml, image/svg+xml); none declared: application/octet-stream.
// A declared application/octet-stream counts as none declared (browsers send it for any file they cannot
// name).
// Errors: `content_type_mismatch` (the bytes contradict the declared type; the message names both),
// `invalid_content_type` (declared text that is no content type).
Result<std::string> resolve_content_type(std::string_view head, std::string_view declared);

// The media type of document 2 for a stored content type: image/* -> image, video/* -> video, audio/* ->
// audio, documents (application/pdf, text/*, application/json, application/xml, rtf, the Microsoft Office and
// OpenDocument formats, epub) -> doc, everything else -> other.
std::string_view media_type_for(std::string_view content_type);

}  // namespace core::storage
