#pragma once
// Verify-email and password-reset links (DECISIONS.md: verify-email `{token}`, reset request `{email}`,
// confirm `{token, password}`). A link token (`apl_`) is stored only as its SHA-256 hash, under its project,
// with its purpose, user and expiry; it works once. The token and the mail carrying it are written in one
// transaction through the mail product's queue (edge/mail/send.h), from the project's sender on a verified
// domain of its company: a link is never issued without its mail, nor a mail without its link.

#include <functional>
#include <optional>
#include <string>

#include "core/auth/link_mail.h"
#include "core/result.h"
#include "native/store/kv_store.h"

namespace edge {
struct App;
}

namespace edge::auth_projects {

struct Project;
struct EndUser;

// The allowed URL a link points at: `requested` when it is one of the project's allowed URLs exactly, the
// first allowed URL when `requested` is empty. Errors: `invalid_redirect` (not allowed), `unprocessable`
// (the project has no allowed URL).
core::Result<std::string> link_target(const Project& project, std::string_view requested);

// Whether the project can send mail now: its sender's domain is a verified domain of its company.
// Errors: `unprocessable` saying what to set up, `storage_error`.
core::Result<std::string> sender_domain(App& app, const Project& project);

// Issues a link for `user` and queues its mail. `domain_name`: what sender_domain answered.
core::Status send_link_mail(App& app, const Project& project, const std::string& domain_name,
                            const EndUser& user, core::auth::LinkPurpose purpose, const std::string& target,
                            std::string_view locale);

// Counts a link request that sends nothing (unknown or already verified address), with the same durable
// write a sent link makes, so the two take about the same time.
core::Status note_link_request(App& app, const Project& project);

// The user a live link of `purpose` names, without using it (to decide before slow work such as hashing a
// new password). nullopt: unknown, used, expired, another purpose, or the user is gone.
core::Result<std::optional<EndUser>> peek_link(App& app, const Project& project, std::string_view token,
                                               core::auth::LinkPurpose purpose);

// Uses the link: in one transaction checks it as peek_link does, marks it used, and lets `effect` change
// the user (and anything else in the transaction). nullopt when the link does not work.
core::Result<std::optional<EndUser>> use_link(App& app, const Project& project, std::string_view token,
                                              core::auth::LinkPurpose purpose,
                                              const std::function<void(store::WriteTxn&, EndUser&)>& effect);

}  // namespace edge::auth_projects
