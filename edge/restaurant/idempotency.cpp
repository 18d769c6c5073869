#include "edge/restaurant/idempotency.h"

#include "core/json.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/restaurant/restaurant_common.h"
#include "edge/restaurant/restaurant_http.h"
#include "edge/restaurant/restaurant_store.h"

namespace edge::restaurant {

std::optional<Response> IdempotentCreate::begin(App& app, const Request& req, const CompanyContext& ctx,
                                                std::string_view route, std::string_view branch_id) {
  write_.emplace(app.restaurant_table,
                 company_key(ctx, "idem", branch_id.empty() ? std::string_view("company") : branch_id),
                 [](int status, std::string_view code, std::string_view message) {
                   if (status == 500) return rest_error(core::Error{std::string(code), std::string(message)});
                   return rest_error(status, code, message);
                 });
  return write_->begin(app, req, route);
}

core::Result<Response> IdempotentCreate::write(
    App& app, const std::function<core::Result<Response>(store::WriteTxn& txn)>& create) const {
  if (write_) return write_->write(app, create);
  std::optional<Response> answer;
  auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    answer.reset();
    auto made = create(txn);
    if (!made) return made.error();
    answer = std::move(*made);
    return {};
  });
  if (!st.ok()) return st.error();
  return std::move(*answer);
}

Response create_record(App& app, const IdempotentCreate& idem, const std::string& key,
                       const json::object& record) {
  auto answer = idem.write(app, [&](store::WriteTxn& txn) -> core::Result<Response> {
    txn.put(app.restaurant_table, key, core::to_json(record));
    return rest_ok(record, 201);
  });
  if (!answer) return rest_error(answer.error());
  return std::move(*answer);
}

}  // namespace edge::restaurant
