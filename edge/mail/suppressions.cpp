#include "edge/mail/suppressions.h"

#include "core/ascii.h"
#include "core/date.h"
#include "core/id.h"
#include "edge/app.h"
#include "edge/mail/mail_store.h"
#include "edge/platform/record_json.h"

namespace edge::mail {

std::string suppression_key(std::string_view company_id, std::string_view address) {
  return company_key(company_id, "suppression", core::to_ascii_lower(address));
}

std::string suppression_id_key(std::string_view company_id, std::string_view id) {
  return company_key(company_id, "suppression-id", id);
}

std::optional<json::object> find_suppression(App& app, const store::ReadTxn& txn, std::string_view company_id,
                                             std::string_view address) {
  return get_object(txn, app.mail_table, suppression_key(company_id, address));
}

json::object add_suppression(App& app, store::WriteTxn& txn, std::string_view company_id,
                             std::string_view address, std::string_view reason, json::value source,
                             std::int64_t now_ms) {
  const std::string key = suppression_key(company_id, address);
  if (auto existing = get_object(txn, app.mail_table, key)) return std::move(*existing);
  json::object entry{{"id", core::make_id("sup_", app.random)},
                     {"address", core::to_ascii_lower(address)},
                     {"reason", reason},
                     {"source", std::move(source)},
                     {"createdAt", core::format_timestamp(now_ms)}};
  put_object(txn, app.mail_table, key, entry);
  txn.put(app.mail_table, suppression_id_key(company_id, record::str(entry, "id")),
          record::str(entry, "address"));
  return entry;
}

std::optional<json::object> remove_suppression(App& app, store::WriteTxn& txn, std::string_view company_id,
                                               std::string_view address_or_id) {
  std::string address(address_or_id);
  if (auto by_id = txn.get(app.mail_table, suppression_id_key(company_id, address_or_id))) address = *by_id;
  const std::string key = suppression_key(company_id, address);
  auto entry = get_object(txn, app.mail_table, key);
  if (!entry) return std::nullopt;
  txn.erase(app.mail_table, key);
  txn.erase(app.mail_table, suppression_id_key(company_id, record::str(*entry, "id")));
  return entry;
}

}  // namespace edge::mail
