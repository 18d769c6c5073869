#pragma once
// A streaming reader of `multipart/form-data` bodies (RFC 7578 over RFC 2046 §5.1): bytes go in as they
// arrive, in pieces of any size, and each part's headers and content come out through callbacks, so a 100 MB
// file part is never held in memory (at most one piece plus the boundary's length is). Pure.

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.h"

namespace core::storage {

// The `boundary` parameter of a `multipart/form-data` Content-Type (quoted or not; 1..70 characters).
// Errors: `invalid_multipart` (another media type, or no usable boundary).
Result<std::string> multipart_boundary(std::string_view content_type);

struct MultipartPart {
  std::string name;      // Content-Disposition `name`
  std::string filename;  // Content-Disposition `filename` (`filename*=UTF-8''...` preferred); may be ""
  bool has_filename = false;
  std::string content_type;  // the part's Content-Type, "" when absent
};

class MultipartReader {
 public:
  struct Callbacks {
    // A part's headers were read. An error stops the reader and is returned by feed().
    std::function<Status(const MultipartPart&)> begin;
    // The next piece of the current part's content.
    std::function<Status(std::string_view)> data;
    // The current part's content is complete.
    std::function<Status()> end;
  };

  MultipartReader(std::string boundary, Callbacks callbacks);

  // Reads the next piece of the body. Errors: `invalid_multipart` (a malformed body: part headers over
  // 16 KiB or without Content-Disposition form-data, bytes after the boundary that are neither CRLF nor
  // `--`), or a callback's error. After an error every further call returns it again.
  Status feed(std::string_view bytes);
  // The body ended. Errors: `invalid_multipart` when the closing boundary never came.
  Status finish();

 private:
  enum class State { preamble, after_boundary, headers, content, epilogue };
  Status fail(Error e);
  Status step(bool& progressed);
  Status parse_headers(std::string_view block);

  std::string delimiter_;  // CRLF "--" boundary
  Callbacks cb_;
  State state_ = State::preamble;
  std::string buffer_;
  std::optional<Error> failed_;
};

}  // namespace core::storage
