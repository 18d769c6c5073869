#include "native/imap/dovecot_users.h"

#include <sodium.h>

#include <set>

#include "native/imap/atomic_file.h"

namespace native::imap {
namespace {

constexpr std::int64_t kMaxQuotaMb = std::int64_t{1} << 20;
constexpr std::size_t kMaxAddress = 254;  // RFC 5321 path limit
constexpr std::size_t kMaxHash = 255;

core::Error invalid(std::string_view who, std::string_view why) {
  return core::make_error("invalid_mailbox_user", std::string(who) + ": " + std::string(why));
}

bool lower_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

bool valid_local_part(std::string_view local) {
  if (local.empty() || local.front() == '.' || local.back() == '.' ||
      local.find("..") != std::string_view::npos)
    return false;
  for (char c : local)
    if (!lower_alnum(c) && c != '.' && c != '_' && c != '-') return false;
  return true;
}

bool valid_domain(std::string_view domain) {
  if (domain.empty()) return false;
  while (true) {
    auto dot = domain.find('.');
    std::string_view label = domain.substr(0, dot);
    if (label.empty() || label.size() > 63) return false;
    for (char c : label)
      if (!lower_alnum(c) && c != '-') return false;
    if (dot == std::string_view::npos) return true;
    domain.remove_prefix(dot + 1);
  }
}

// What the address breaks, or empty when it is fine. Printing the address back in a message is safe only
// when it has no line break; the callers quote it.
std::string address_problem(std::string_view address) {
  if (address.empty()) return "the address is empty";
  if (address.size() > kMaxAddress) return "the address is longer than 254 bytes";
  for (char c : address)
    if (c == ':' || c == '\n' || c == '\r') return "the address holds ':' or a line break";
  auto at = address.find('@');
  if (at == std::string_view::npos || address.find('@', at + 1) != std::string_view::npos)
    return "the address must hold exactly one @";
  if (!valid_local_part(address.substr(0, at)))
    return "the local part must be lower-case letters, digits and ._- without leading, trailing or double "
           "dots";
  if (!valid_domain(address.substr(at + 1)))
    return "the domain must be lower-case labels of letters, digits and -";
  return {};
}

std::string hash_problem(std::string_view hash) {
  for (char c : hash)
    if (c == ':' || c == '\n' || c == '\r') return "the password hash holds ':' or a line break";
  if (!hash.starts_with("$argon2id$")) return "the password hash is not an argon2id crypt string";
  if (hash.size() > kMaxHash) return "the password hash is too long";
  for (char c : hash) {
    bool ok = lower_alnum(c) || (c >= 'A' && c <= 'Z') || c == '$' || c == '=' || c == ',' || c == '+' ||
              c == '/' || c == '.' || c == '-';
    if (!ok) return "the password hash holds a character outside its encoding";
  }
  return {};
}

// The address in a message: printable, or a placeholder when it is not.
std::string quoted(std::string_view address) {
  for (char c : address)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return "user with an unprintable address";
  return "user '" + std::string(address) + "'";
}

}  // namespace

core::Status write_users_file(const std::string& path, const std::vector<MailboxUser>& users) {
  std::set<std::string_view> seen;
  std::string content = "# Mailbox users, written by the platform (native/imap/dovecot_users.cpp).\n";
  for (const auto& user : users) {
    if (auto problem = address_problem(user.address); !problem.empty())
      return invalid(quoted(user.address), problem);
    if (auto problem = hash_problem(user.password_hash); !problem.empty())
      return invalid(quoted(user.address), problem);
    if (user.quota_mb < 1 || user.quota_mb > kMaxQuotaMb)
      return invalid(quoted(user.address), "the quota must be 1..1048576 MB");
    if (!seen.insert(user.address).second)
      return invalid(quoted(user.address), "the address is listed twice");
    // user:password:uid:gid:gecos:home:shell:extra fields; uid, gid and home come from the userdb's
    // default_fields.
    content += user.address + ":{ARGON2ID}" + user.password_hash +
               "::::::userdb_quota_rule=*:storage=" + std::to_string(user.quota_mb) + "M\n";
  }
  return replace_file(path, content, 0640);
}

core::Status write_master_file(const std::string& path, const std::string& master_user,
                               const std::string& master_password_hash) {
  std::string who = quoted(master_user);
  if (master_user.empty() || master_user.size() > 64)
    return invalid(who, "the master user must be 1..64 bytes");
  for (char c : master_user)
    if (!lower_alnum(c) && !(c >= 'A' && c <= 'Z') && c != '.' && c != '_' && c != '-')
      return invalid(who, "the master user may hold only letters, digits and ._-");
  if (auto problem = hash_problem(master_password_hash); !problem.empty()) return invalid(who, problem);
  std::string content = "# The platform's master user (native/imap/dovecot_users.cpp).\n" + master_user +
                        ":{ARGON2ID}" + master_password_hash + "\n";
  return replace_file(path, content, 0640);
}

std::string hash_master_password(std::string_view password) {
  if (sodium_init() < 0) return {};
  char out[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str_alg(out, password.data(), password.size(), crypto_pwhash_OPSLIMIT_MIN,
                            crypto_pwhash_MEMLIMIT_MIN, crypto_pwhash_ALG_ARGON2ID13) != 0)
    return {};
  return out;
}

std::string master_login(std::string_view address, std::string_view master_user) {
  return std::string(address) + "*" + std::string(master_user);
}

}  // namespace native::imap
