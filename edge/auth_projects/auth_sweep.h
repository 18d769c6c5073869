#pragma once
// Retention of the auth projects' expiring records (docs/auth-projects.md, "Retention"): one expiry index
// over the whole `auth` table, and the sweep that reads it.
//
//   ax/<ms, 16 digits>/<record key>   -> "": the record may go once kAuthSweepGraceMs have passed since <ms>
//
// What is indexed, and the time its entry carries:
//   p/<pid>/rt/<sha256>    refresh token                expiresAt (rotated or not)
//   p/<pid>/s/<sid>        ended session                revokedAt (a live session has no entry: it goes
//                                                       when its last refresh token is swept)
//   p/<pid>/lt/<sha256>    verify or reset link         expiresAt (used or not)
//   p/<pid>/tk/<sha256>    login ticket (MFA step)      expiresAt
//   p/<pid>/slk/<sha256>   social link ticket           expiresAt
// Each writer puts the entry in the transaction that gives the record that time, and a record's time never
// moves later without a new entry. Passkey ceremonies and social sign-in states are not indexed here: they
// are deleted when taken and keep their own per-project expiry order (passkey_ceremonies.h,
// social_pending.h), from which each new one clears a few expired ones.
//
// Deleting a user or a project leaves the entries of its records behind; the sweep drops an entry whose
// record is gone, so they cost one key each until their time comes.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/result.h"

namespace edge {
struct App;
}

namespace edge::auth_projects {

// A day, as in the OAuth provider: until it passes, a replayed rotated refresh token is still recognised (and
// still ends its session) and an ended session still answers as ended rather than unknown.
inline constexpr std::int64_t kAuthSweepGraceMs = 24LL * 3600 * 1000;
// Index entries handled per write transaction, so the single writer is held only briefly.
inline constexpr std::size_t kAuthSweepBatch = 100;

inline constexpr std::string_view kAuthExpiryPrefix = "ax/";
// The index entry of `record_key` at `at_ms` (expiresAt, or revokedAt for a session).
std::string auth_expiry_key(std::int64_t at_ms, std::string_view record_key);

// Deletes the indexed records whose time lies more than kAuthSweepGraceMs in the past, reading the index
// oldest first and stopping at the first entry not yet due: live records are never read. A session goes
// with its `us` entry and every refresh token of it; a refresh token with its `srt` entry, and with its
// session when no other token of that session is left. An entry whose record is gone (user or project
// deleted, or swept through its session) is just removed. Works in batches of kAuthSweepBatch entries, each
// its own write transaction, and stops after `max_items` entries. Returns how many entries it handled.
// Errors: `storage_error` (batches committed before it stay committed).
core::Result<std::size_t> sweep_auth_records(App& app, std::size_t max_items = 1000);

}  // namespace edge::auth_projects
