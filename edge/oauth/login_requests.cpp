#include "edge/oauth/login_requests.h"

#include "core/crypto.h"
#include "core/json.h"
#include "core/token.h"
#include "edge/oauth/oauth_records.h"
#include "edge/platform/record_json.h"

namespace edge::oauth {
namespace json = core::json;
using namespace records;

LoginRequests::LoginRequests(store::KvStore& kv, store::Table table, core::Clock& clock,
                             core::RandomSource& random)
    : kv_(kv), table_(table), clock_(clock), random_(random) {}

core::Result<std::string> LoginRequests::start_login_request() {
  std::string id = core::make_token(core::TokenKind::csrf, random_);
  std::string hash = core::sha256_hex(id);
  std::int64_t now = clock_.now_ms();
  CORE_TRY(kv_.write([&](store::WriteTxn& tx) -> core::Status {
    tx.put(table_, login_request_key(hash),
           json::serialize(json::object{{"notBefore", now}, {"expiresAt", now + kLifetimeMs}}));
    tx.put(table_, expiry_key(now + kLifetimeMs, "login", hash), "");
    return {};
  }));
  return id;
}

core::Result<std::optional<std::int64_t>> LoginRequests::login_not_before(std::string_view id) {
  std::optional<std::int64_t> out;
  if (!core::has_token_shape(core::TokenKind::csrf, id)) return out;
  std::string hash = core::sha256_hex(id);
  CORE_TRY(kv_.read([&](const store::ReadTxn& tx) -> core::Status {
    auto raw = tx.get(table_, login_request_key(hash));
    if (!raw) return {};
    auto o = core::parse_json_object(*raw);
    if (!o || record::num(*o, "expiresAt") <= clock_.now_ms()) return {};
    out = record::num(*o, "notBefore");
    return {};
  }));
  return out;
}

void LoginRequests::erase_login_request_in(store::WriteTxn& tx, std::string_view hash) {
  tx.erase(table_, login_request_key(hash));
}

}  // namespace edge::oauth
