#pragma once
// Platform account passwords: argon2id through libsodium, in its self-describing string format
// ($argon2id$v=19$m=...,t=...,p=...$salt$hash), so parameters can be raised later without a migration.

#include <string>
#include <string_view>

namespace native {

// Hashes `password` with a fresh salt (libsodium's interactive limits: 64 MiB, 2 passes; about 50-100 ms on
// one core here). Returns an empty string only when memory cannot be had.
std::string hash_password(std::string_view password);

// Constant-time check of `password` against a stored hash. A malformed hash never matches.
bool verify_password(std::string_view stored_hash, std::string_view password);

// A valid hash of a random password, for spending the same time on unknown accounts as on known ones, so
// a failed login does not reveal whether the email exists.
const std::string& decoy_password_hash();

}  // namespace native
