#pragma once
// IMAP4rev1 server responses (RFC 3501 §7, §9): cutting the byte stream a server sends into responses (a
// response is one line plus the literals it announces) and parsing one response into values. Pure: no I/O,
// so every odd input can be tested without a server. Used by the IMAP client (imap_client.h); see
// docs/mailboxes.md, "IMAP client".

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace native::imap {

// One value of a response.
// - atom: also numbers, flags (`\Seen`) and fetch item names, which keep their section and partial range
//   (`BODY[HEADER.FIELDS (FROM TO)]`, `BODY[]<0>`) so a name is always a single value;
// - string: a quoted string (escapes removed) or a literal, bytes exactly as sent;
// - nil: NIL;
// - list: a parenthesized list.
struct ImapValue {
  enum class Kind { atom, string, nil, list };
  Kind kind = Kind::nil;
  std::string text;              // atom or string
  std::vector<ImapValue> items;  // list

  bool is_number() const;
  // The atom as an unsigned 32-bit number (UIDs, sizes, sequence numbers); nullopt for anything else.
  std::optional<std::uint32_t> number() const;
};

struct ImapResponse {
  std::string tag;  // "*" for untagged, "+" for a continuation request, else the command's tag

  // Status responses (OK, NO, BAD, BYE, PREAUTH), tagged or untagged: the status in upper case, the
  // response code without its brackets (`COPYUID 38 2 5`) and the human-readable text. Empty for the
  // others. A continuation request keeps its text in `text`.
  std::string status;
  std::string code;
  std::string text;

  // Other untagged responses. `* 3 FETCH (...)`: number 3, name "FETCH", data the values after the name.
  // `* SEARCH 4 9`: no number, name "SEARCH", data {4, 9}. Names are upper case.
  std::optional<std::uint32_t> number;
  std::string name;
  std::vector<ImapValue> data;
};

// Cuts a byte stream into complete responses. A line that ends with a literal announcement (`{12}` or
// `~{12}`) continues after those bytes, so CR, LF or anything else inside a literal never ends a response.
// Status responses and continuation requests carry free text and cannot announce literals (RFC 3501 §9,
// resp-text), so they always end at their first line break.
class ResponseFramer {
 public:
  // `max_response` bounds one response (its line and literals together); a larger one is refused.
  explicit ResponseFramer(std::size_t max_response = std::size_t{256} << 20) : max_response_(max_response) {}

  void append(std::string_view bytes);

  // The next complete response without its final CRLF (a bare LF is accepted too), or nullopt when more
  // bytes are needed. Error `imap_error` when a response announces a literal larger than the bound or grows
  // past it, or a literal announcement is malformed.
  core::Result<std::optional<std::string>> next();

  // Bytes received but not yet returned as a response.
  std::size_t pending() const { return buffer_.size() - start_; }

 private:
  std::string buffer_;
  std::size_t start_ = 0;  // first byte of the response being framed
  std::size_t scan_ = 0;   // where the search for its end resumes
  std::size_t max_response_;
};

// Parses one response as returned by ResponseFramer::next (no final CRLF). Error `imap_error` for a
// response that does not follow the grammar (unbalanced parentheses or brackets, an unterminated quoted
// string, a literal whose bytes are missing).
core::Result<ImapResponse> parse_response(std::string_view response);

// In the data of a FETCH response (`* 3 FETCH (UID 7 FLAGS (\Seen) ...)`), the value that follows the item
// named `name` (compared without case), or null when the response has no such item.
const ImapValue* fetch_item(const ImapResponse& fetch, std::string_view name);

// Same, for the first item whose name starts with `prefix` (compared without case): a server may echo a
// section spec with its own spacing, so `BODY[HEADER.FIELDS` matches whatever field list follows.
const ImapValue* fetch_item_prefix(const ImapResponse& fetch, std::string_view prefix);

}  // namespace native::imap
