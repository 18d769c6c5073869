#pragma once
// The `Idempotency-Key` header on every restaurant create (docs/restaurant-api.md, "Idempotency-Key"),
// through the platform's one mechanism (edge/platform/idempotency.h), in the restaurant's error format.
//
// Keys are scoped by company and by the branch the request writes to (company-wide creates share one scope),
// so a branch-limited token can neither replay nor detect another branch's keys.
// Record: `c/<companyId>/idem/<branchId | "company">/<sha256 hex of the key>` in the `restaurant` table.

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/json.h"
#include "core/result.h"
#include "edge/http/message.h"
#include "edge/platform/company_auth.h"
#include "edge/platform/idempotency.h"
#include "native/store/kv_store.h"

namespace edge::restaurant {

class IdempotentCreate {
 public:
  // IdempotentWrite::begin in the branch's scope (`branch_id` empty: company-wide); answers in the
  // restaurant format, `idempotency_conflict` (409) and `invalid_field` (422) as codes.
  std::optional<Response> begin(App& app, const Request& req, const CompanyContext& ctx,
                                std::string_view route, std::string_view branch_id);

  // IdempotentWrite::write; without begin() (or before it) just the write.
  core::Result<Response> write(
      App& app, const std::function<core::Result<Response>(store::WriteTxn& txn)>& create) const;

 private:
  std::optional<IdempotentWrite> write_;
};

// The plain create: stores `record` under `key` through `idem.write` and answers 201 `{"data": record}` (or
// the replay / 409 of an earlier request with the key; 500 `storage_error`).
Response create_record(App& app, const IdempotentCreate& idem, const std::string& key,
                       const core::json::object& record);

}  // namespace edge::restaurant
