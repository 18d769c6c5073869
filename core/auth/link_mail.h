#pragma once
// The mails an auth project sends its end users: "confirm your email" and "reset your password", in Turkish
// and English, rendered with the mail product's template engine (core/mail). Each carries one single-use
// link: the project's allowed URL with `token` and `type` added to its query.

#include <cstdint>
#include <string>
#include <string_view>

#include "core/result.h"

namespace core::auth {

enum class LinkPurpose { verify_email, password_reset };

// `verify_email` / `password_reset`: the `type` in the link and what link tokens record.
std::string_view to_string(LinkPurpose purpose);
Result<LinkPurpose> parse_link_purpose(std::string_view text);

// How long a link works.
inline constexpr std::int64_t kVerifyLinkLifetimeS = 24 * 3600;
inline constexpr std::int64_t kResetLinkLifetimeS = 3600;
std::int64_t link_lifetime_s(LinkPurpose purpose);

// `redirect_url` with `token=<token>&type=<purpose>` added to its query (after `?`, or `&` when it already
// has one). The token is base64url and needs no escaping.
std::string link_url(std::string_view redirect_url, std::string_view token, LinkPurpose purpose);

struct LinkMail {
  std::string subject, html, text;
};

// The mail for `purpose` in `locale` (`tr` or `en`; anything else is English). `project_name` and `link`
// are HTML-escaped in the HTML part and inserted as they are in the subject and text.
Result<LinkMail> render_link_mail(LinkPurpose purpose, std::string_view locale, std::string_view project_name,
                                  std::string_view link);

}  // namespace core::auth
