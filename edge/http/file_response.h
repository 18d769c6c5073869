#pragma once
// What to send for a file response (Response::file): conditional requests and byte ranges, RFC 9110
// §13 (If-None-Match, If-Modified-Since, If-Range) and §14 (Range). Pure: the transport stats the file,
// asks here, then sends the chosen part.

#include <cstdint>
#include <string>
#include <string_view>

namespace edge {

struct FileVersion {
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;  // modification time, nanoseconds since the epoch
};

// A strong validator that changes whenever the size or the modification time does: `"<size>-<mtime>"` in
// hex, the way nginx forms its ETags.
std::string file_etag(const FileVersion& v);

struct FileRequest {
  bool get_or_head = true;  // conditionals apply to GET and HEAD only
  std::string_view if_none_match, if_modified_since, range, if_range;
};

struct FileAnswer {
  // 200 whole file, 206 one range, 304 not modified, 416 range not satisfiable.
  int status = 200;
  std::uint64_t offset = 0, length = 0;  // the bytes to send (200 and 206)
};

// Evaluates the request against the file's version, in RFC 9110 §13.2.2's order: If-None-Match (weak
// comparison; `*` matches), else If-Modified-Since (only when If-None-Match is absent), then Range when
// If-Range (an ETag compared strongly, or a date equal to Last-Modified) allows it. One `bytes` range is
// served as 206; a syntactically invalid Range or several ranges are ignored (200 with the whole file, as
// the RFC permits); a valid range that starts past the end answers 416.
FileAnswer answer_file_request(const FileRequest& req, const FileVersion& v);

}  // namespace edge
