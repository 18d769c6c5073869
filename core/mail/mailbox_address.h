#pragma once
// Mailbox addresses (spec document 2, "Mail: mailboxes"): the local part a mailbox is created with. The
// platform's IMAP server (Dovecot) lower-cases login names and turns the parts into folder names, so the
// accepted set is the portable one: lower-case letters, digits and `._-`, 1 to 64 characters, no leading,
// trailing or double dot (RFC 5321 §4.5.3.1.1 for the length).

#include <string>
#include <string_view>

#include "core/result.h"

namespace core::mail {

// The local part in its stored form (lower case). Error: `invalid_field` naming the rule broken.
Result<std::string> normalize_local_part(std::string_view local_part);

}  // namespace core::mail
