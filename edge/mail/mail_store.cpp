#include "edge/mail/mail_store.h"

#include <fmt/format.h>

#include "core/date.h"
#include "edge/app.h"

namespace edge::mail {

std::string company_key(std::string_view company_id, std::string_view kind, std::string_view id) {
  return fmt::format("c/{}/{}/{}", company_id, kind, id);
}

std::string company_prefix(std::string_view company_id, std::string_view kind) {
  return fmt::format("c/{}/{}/", company_id, kind);
}

std::string due_text(std::int64_t due_ms) {
  return fmt::format("{:016d}", due_ms < 0 ? 0 : due_ms);
}

std::string outbox_key(std::int64_t due_ms, std::string_view company_id, std::string_view log_id,
                       std::size_t recipient) {
  return fmt::format("outbox/{}/{}/{}/{}", due_text(due_ms), company_id, log_id, recipient);
}

core::Result<std::optional<json::object>> read_object(App& app, std::string_view key) {
  std::optional<json::object> out;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    out = get_object(txn, app.mail_table, key);
    return {};
  });
  if (!st.ok()) return st.error();
  return out;
}

std::string now_text(App& app) {
  return core::format_timestamp(app.clock.now_ms());
}

}  // namespace edge::mail
