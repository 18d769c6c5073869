#pragma once
// Who signed in through a social provider, and which end user that is (docs/auth-social.md, "Linking").
//
//   p/<pid>/idn/<providerId>/<sha256(sub)>                   -> uid: the identity index
//   p/<pid>/ux/<uid>/social/<providerId>/<sha256(sub)>       identity: providerId, sub, email, emailVerified,
//                                                             linkedAt, lastSignInAt, indexKey (-> the index)
//   p/<pid>/slk/<sha256(ticket)>                             link ticket (`apt_`): userId, providerId, sub,
//                                                             email, emailVerified, expiresAt, failures,
//                                                             usedAt
//
// The identity lives in the user-owned range (end_users.h) and names its index in `indexKey`, so deleting
// the user removes both. The account key is (provider, sub): an email address is never enough to reach an
// existing account. An identity whose email belongs to an existing user is linked only after that user
// proves the account (password or a live access token) with the ticket resolve_identity issued.

#include <cstdint>
#include <optional>
#include <string>

#include "core/result.h"
#include "edge/auth_projects/end_users.h"

namespace edge {
struct App;
}

namespace edge::auth_projects {

struct Project;

inline constexpr std::int64_t kLinkTicketLifetimeS = 600;
inline constexpr int kLinkTicketMaxFailures = 5;

// The facts of a validated id_token that sign-in uses.
struct ProviderIdentity {
  std::string provider_id, sub, email, name;
  bool email_verified = false;
};

std::string identity_index_key(std::string_view pid, std::string_view provider_id, std::string_view sub);
// Prefix of every identity index entry of one provider.
std::string identity_index_prefix(std::string_view pid, std::string_view provider_id);
std::string identity_record_key(std::string_view pid, std::string_view uid, std::string_view provider_id,
                                std::string_view sub_hash);

struct SocialOutcome {
  enum class Kind {
    signed_in,      // the identity was linked: `user` is its user
    created,        // no user had the email: `user` was created without a password and linked
    link_required,  // `user` has the email; `link_ticket` lets that user confirm the link
    no_email,       // the id_token carries no email and the identity is not linked
    invalid_email,  // the id_token's email is not one end users may have
  };
  Kind kind = Kind::signed_in;
  EndUser user;
  std::string link_ticket;
};

// Decides, in one transaction, what an identity signs in as (the kinds above). A linked identity notes the
// sign-in; when the provider vouches (email_verified) for the user's own address, the user's email counts
// as verified from then on. A new user gets the provider's name (when it fits) and emailVerified from the
// id_token. Errors: `not_found` (the project is gone), `storage_error`.
core::Result<SocialOutcome> resolve_identity(App& app, const Project& project, const ProviderIdentity& who);

struct LinkTicket {
  std::string user_id, provider_id, sub, email;
  bool email_verified = false;
};
// The ticket's facts while it is live (unused, unexpired, fewer than kLinkTicketMaxFailures wrong
// confirmations); nullopt otherwise (also for text of another shape).
core::Result<std::optional<LinkTicket>> peek_link_ticket(App& app, const Project& project,
                                                         std::string_view ticket);
// Counts a wrong confirmation; the ticket dies at kLinkTicketMaxFailures.
core::Status fail_link_ticket(App& app, const Project& project, std::string_view ticket);

// Uses the ticket and links its identity to its user, in one transaction; the provider's email_verified
// then confirms the user's address as in resolve_identity. Returns the user, or nullopt when the ticket is
// not live any more (used concurrently, expired). Errors: `conflict` (the identity was linked to another
// user meanwhile), `not_found` (the user was deleted), `storage_error`.
core::Result<std::optional<EndUser>> link_with_ticket(App& app, const Project& project,
                                                      std::string_view ticket);

}  // namespace edge::auth_projects
