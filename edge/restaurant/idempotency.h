#pragma once
// The `Idempotency-Key` header of restaurant creates (docs/restaurant-api.md, "Idempotency-Key"; spec
// DECISIONS.md: idempotency like Stripe). One mechanism for every create route, so a client's retry after a
// timeout never books a cost, a row or a record twice:
//   - the same key with the same request replays the first response (status and body as first sent, plus
//     `Idempotent-Replayed: true`), whatever changed since;
//   - the same key with another request (another body, query or route) answers 409 `idempotency_conflict`;
//   - concurrent requests with one key make one effect: the key is looked up, and the first response recorded
//     with the request's fingerprint, in the same write transaction as the effect.
//
// Keys are scoped by company and by the branch the request writes to (company-wide creates share one scope),
// so a branch-limited token can neither replay nor detect another branch's keys. Only successful (2xx)
// responses are recorded: a refused request wrote nothing, so its retry simply runs again.
//
// Record: `c/<companyId>/idem/<branchId | "company">/<sha256 hex of the key>` in the `restaurant` table,
// `{route, fingerprint, status, body, createdAt}`.

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/json.h"
#include "core/result.h"
#include "edge/http/message.h"
#include "edge/platform/company_auth.h"
#include "native/store/kv_store.h"

namespace edge::restaurant {

// The longest Idempotency-Key accepted, in bytes (Stripe's limit).
inline constexpr std::size_t kMaxIdempotencyKeyBytes = 255;

class IdempotentCreate {
 public:
  // Reads the request's `Idempotency-Key` header and answers at once when the key is already recorded:
  // the replay, or 409 `idempotency_conflict`. Looked up before the route's own checks, so a retry answers
  // as the original did even if a record it referenced changed since. `route` names the create
  // ("POST /expenses"); `branch_id` is the branch it writes to, empty for a company-wide create.
  // Returns nullopt when the request should go ahead (no header, or a key not seen yet); otherwise the
  // response to send, also 422 `invalid_field` for an empty or over-long key and 500 `storage_error`.
  std::optional<Response> begin(App& app, const Request& req, const CompanyContext& ctx,
                                std::string_view route, std::string_view branch_id);

  // Runs `create` in one write transaction and returns its response. With a key, the key is looked up first
  // in that transaction (so parallel requests with one key serialize there): when it is recorded `create`
  // does not run and the answer is the replay or 409; otherwise a 2xx response of `create` is recorded under
  // the key in the same transaction. Without a key this is just the write. `create` may run more than once
  // (KvStore::write): it must act only through the txn and reset what it captures.
  // Errors: those `create` returns (nothing written), `storage_error`.
  core::Result<Response> write(
      App& app, const std::function<core::Result<Response>(store::WriteTxn& txn)>& create) const;

 private:
  std::string storeKey_;  // empty: the request carried no key
  std::string route_;
  std::string fingerprint_;
};

// The plain create: stores `record` under `key` through `idem.write` and answers 201 `{"data": record}` (or
// the replay / 409 of an earlier request with the key; 500 `storage_error`).
Response create_record(App& app, const IdempotentCreate& idem, const std::string& key,
                       const core::json::object& record);

}  // namespace edge::restaurant
