#include "edge/accounts/sessions.h"

#include "core/crypto.h"
#include "core/json.h"
#include "core/token.h"

namespace edge {
namespace json = core::json;

namespace {
std::string session_key(std::string_view cookie_value) {
  return "session/" + core::sha256_hex(cookie_value);
}
}  // namespace

Sessions::Sessions(store::KvStore& kv, store::Table table, core::Clock& clock, core::RandomSource& random)
    : kv_(kv), table_(table), clock_(clock), random_(random) {}

core::Result<std::string> Sessions::start(std::string_view user_id) {
  std::string token = core::make_token(core::TokenKind::session, random_);
  std::int64_t now = clock_.now_ms();
  json::object record{{"userId", user_id},
                      {"csrf", core::make_token(core::TokenKind::csrf, random_)},
                      {"createdAt", now},
                      {"expiresAt", now + kLifetimeMs}};
  CORE_TRY(kv_.write([&](store::WriteTxn& tx) -> core::Status {
    tx.put(table_, session_key(token), json::serialize(record));
    return {};
  }));
  return token;
}

core::Result<Session> Sessions::find(std::string_view cookie_value) {
  core::Result<Session> out = core::make_error("not_found", "no session");
  if (!core::has_token_shape(core::TokenKind::session, cookie_value)) return out;
  CORE_TRY(kv_.read([&](const store::ReadTxn& tx) -> core::Status {
    auto raw = tx.get(table_, session_key(cookie_value));
    if (!raw) return {};
    auto o = core::parse_json_object(*raw);
    if (!o) return {};
    Session s;
    s.user_id = json::value_to<std::string>((*o)["userId"]);
    s.csrf_token = json::value_to<std::string>((*o)["csrf"]);
    s.created_at = (*o)["createdAt"].to_number<std::int64_t>();
    s.expires_at = (*o)["expiresAt"].to_number<std::int64_t>();
    if (s.expires_at > clock_.now_ms()) out = std::move(s);
    return {};
  }));
  return out;
}

core::Status Sessions::end(std::string_view cookie_value) {
  return kv_.write([&](store::WriteTxn& tx) -> core::Status {
    tx.erase(table_, session_key(cookie_value));
    return {};
  });
}

}  // namespace edge
