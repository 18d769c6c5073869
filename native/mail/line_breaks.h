#pragma once
// Line-break checks and conversions the MIME and DKIM code share. Internal to native/mail.

#include <string>
#include <string_view>

namespace native::mail {

// Whether every CR in `bytes` is followed by LF and every LF preceded by CR: RFC 5322's only line break.
bool has_only_crlf(std::string_view bytes);

// `text` with each line break of any style (CRLF, a lone LF, a lone CR) as one LF.
std::string lf_line_breaks(std::string_view text);

}  // namespace native::mail
