#pragma once
// The `Idempotency-Key` header of creates (spec/DECISIONS.md: idempotency like Stripe). One mechanism for
// every product that takes the header (restaurant creates, mail sends), so a client's retry after a timeout
// never makes an effect twice:
//   - the same key with the same request replays the first response (status and body as first sent, plus
//     `Idempotent-Replayed: true`), whatever changed since;
//   - the same key with another request (another body, query or route) answers 409;
//   - concurrent requests with one key make one effect: the key is looked up, and the first response recorded
//     with the request's fingerprint, in the same write transaction as the effect.
// Only successful (2xx) responses are recorded: a refused request wrote nothing, so its retry runs again.
//
// Record: `<scope prefix>/<sha256 hex of the key>` in the product's table,
// `{route, fingerprint, status, body, createdAt}`.

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.h"
#include "edge/http/message.h"
#include "native/store/kv_store.h"

namespace edge {

struct App;

// The longest Idempotency-Key accepted, in bytes (Stripe's limit).
inline constexpr std::size_t kMaxIdempotencyKeyBytes = 255;

// How a product words the refusals of this mechanism in its error format: `code` is `idempotency_conflict`
// (409), `invalid_field` (422, a bad header) or `storage_error` (500).
using IdempotencyErrors =
    std::function<Response(int status, std::string_view code, std::string_view message)>;

class IdempotentWrite {
 public:
  // Where the product keeps its keys: its table and a key prefix naming the scope (a company, a branch), so
  // one scope can neither replay nor detect another's keys.
  IdempotentWrite(store::Table table, std::string scope_prefix, IdempotencyErrors errors)
      : table_(table), scope_prefix_(std::move(scope_prefix)), errors_(std::move(errors)) {}

  // Reads the request's `Idempotency-Key` header and answers at once when the key is already recorded:
  // the replay, or 409. Looked up before the route's own checks, so a retry answers as the original did
  // even if a record it referenced changed since. `route` names the create ("POST /expenses").
  // Returns nullopt when the request should go ahead (no header, or a key not seen yet); otherwise the
  // response to send, also 422 for an empty or over-long key and 500 for a storage failure.
  std::optional<Response> begin(App& app, const Request& req, std::string_view route);

  // Runs `create` in one write transaction and returns its response. With a key, the key is looked up first
  // in that transaction (so parallel requests with one key serialize there): when it is recorded `create`
  // does not run and the answer is the replay or 409; otherwise a 2xx response of `create` is recorded under
  // the key in the same transaction. Without a key this is just the write. `create` may run more than once
  // (KvStore::write): it must act only through the txn and reset what it captures.
  // Errors: those `create` returns (nothing written), `storage_error`.
  core::Result<Response> write(
      App& app, const std::function<core::Result<Response>(store::WriteTxn& txn)>& create) const;

  bool has_key() const { return !store_key_.empty(); }

 private:
  store::Table table_;
  std::string scope_prefix_;
  IdempotencyErrors errors_;
  std::string store_key_;  // empty: the request carried no key
  std::string route_;
  std::string fingerprint_;
};

}  // namespace edge
