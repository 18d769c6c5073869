#include "edge/mail/webhooks.h"

#include <algorithm>
#include <array>

#include "core/bytes.h"
#include "core/date.h"
#include "core/id.h"
#include "core/sealed.h"
#include "core/validate.h"
#include "edge/app.h"
#include "edge/mail/mail_store.h"
#include "edge/platform/record_json.h"

namespace edge::mail {
namespace {

constexpr std::size_t kMaxDescription = 500;
// Delivery records removed per transaction when an endpoint is deleted.
constexpr std::size_t kDeleteBatch = 1000;
// Delivery ids count down from here, so newer ones sort first (12 hex digits, as core::make_time_ordered_id).
constexpr std::int64_t kLastMs = 0xffff'ffff'ffff;

std::string sealing_binding(std::string_view company_id, std::string_view id) {
  return "mail-webhook/" + std::string(company_id) + "/" + std::string(id);
}

bool known_event(std::string_view name) {
  return std::any_of(std::begin(kMailEvents), std::end(kMailEvents),
                     [&](const char* e) { return name == e; });
}

std::string make_secret(core::RandomSource& random) {
  std::array<std::uint8_t, 24> bytes{};
  random.fill(bytes);
  return std::string(kWebhookSecretPrefix) + core::base64url_encode(bytes);
}

bool subscribed(const json::object& endpoint, std::string_view event) {
  if (auto* v = endpoint.if_contains("enabled"); v && v->is_bool() && !v->get_bool()) return false;
  auto events = record::strs(endpoint, "events");
  return std::find(events.begin(), events.end(), event) != events.end();
}

// The payload of an event as every attempt sends it, less the attempt's `timestamp`.
json::object event_payload(const MailEvent& e, const std::string& event_id) {
  json::object data{{"mailLogId", e.log_id}};
  if (!e.recipient.empty()) data["recipient"] = e.recipient;
  if (!e.detail.empty()) data["detail"] = e.detail;
  return json::object{{"id", event_id},
                      {"type", e.event},
                      {"createdAt", core::format_timestamp(e.at_ms)},
                      {"data", std::move(data)}};
}

}  // namespace

std::string webhook_key(std::string_view company_id, std::string_view id) {
  return company_key(company_id, "webhook", id);
}

std::string webhook_delivery_key(std::string_view company_id, std::string_view webhook_id,
                                 std::string_view delivery_id) {
  return company_key(company_id, "webhook-delivery",
                     std::string(webhook_id) + "/" + std::string(delivery_id));
}

std::string webhook_outbox_key(std::int64_t due_ms, std::string_view company_id,
                               std::string_view delivery_id) {
  return std::string(kWebhookOutboxPrefix) + due_text(due_ms) + "/" + std::string(company_id) + "/" +
         std::string(delivery_id);
}

core::Result<WebhookFields> parse_webhook_fields(const json::object& body) {
  WebhookFields f;
  auto url = core::optional_string(body, "url");
  if (!url) return url.error();
  if (*url) {
    if (auto st = core::validate_http_url(**url); !st.ok()) return st.error();
    f.url = std::move(**url);
  }
  auto events = core::optional_string_array(body, "events");
  if (!events) return events.error();
  if (*events) {
    if ((*events)->empty())
      return core::make_error("invalid_field", "field 'events' must name at least one event");
    std::vector<std::string> names;
    for (auto& name : **events) {
      if (!known_event(name))
        return core::make_error("invalid_field",
                                "field 'events': unknown event '" + name +
                                    "' (queued, sent, delivered, deferred, bounced, complained, suppressed)");
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
    f.events = std::move(names);
  }
  auto description = core::optional_string(body, "description");
  if (!description) return description.error();
  if (*description) {
    if ((*description)->size() > kMaxDescription)
      return core::make_error("invalid_field", "field 'description' must be at most 500 bytes");
    f.description = std::move(**description);
  }
  auto enabled = core::optional_bool(body, "enabled");
  if (!enabled) return enabled.error();
  f.enabled = *enabled;
  return f;
}

json::object webhook_to_api(const json::object& record) {
  json::object out;
  for (const char* k : {"id", "url", "events", "description", "enabled", "createdAt", "updatedAt"})
    if (auto* v = record.if_contains(k)) out[k] = *v;
  return out;
}

core::Result<std::string> webhook_secret(const App& app, std::string_view company_id,
                                         const json::object& record) {
  return core::unseal(app.secret_key, record::str(record, "secret"),
                      sealing_binding(company_id, record::str(record, "id")));
}

core::Result<CreatedWebhook> create_webhook(App& app, std::string_view company_id, const WebhookFields& f) {
  if (!f.url) return core::make_error("invalid_field", "field 'url' is required");
  if (!f.events) return core::make_error("invalid_field", "field 'events' is required");
  const std::int64_t now = app.clock.now_ms();
  const std::string id = core::make_time_ordered_id("whk_", now, app.random);
  CreatedWebhook made;
  made.secret = make_secret(app.random);
  made.record = json::object{
      {"id", id},
      {"url", *f.url},
      {"events", record::array_of(*f.events)},
      {"description", f.description.value_or("")},
      {"enabled", f.enabled.value_or(true)},
      {"createdAt", core::format_timestamp(now)},
      {"updatedAt", core::format_timestamp(now)},
      {"secret", core::seal(app.secret_key, made.secret, sealing_binding(company_id, id), app.random)}};
  auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    std::size_t count = 0;
    txn.scan(app.mail_table, company_prefix(company_id, "webhook"),
             [&](std::string_view, std::string_view) { return ++count < kMaxWebhooksPerCompany; });
    if (count >= kMaxWebhooksPerCompany)
      return core::make_error(
          "unprocessable",
          "a company has at most " + std::to_string(kMaxWebhooksPerCompany) + " webhook endpoints");
    put_object(txn, app.mail_table, webhook_key(company_id, id), made.record);
    return {};
  });
  if (!st.ok()) return st.error();
  return made;
}

core::Result<json::object> update_webhook(App& app, std::string_view company_id, std::string_view id,
                                          const WebhookFields& f) {
  if (!f.url && !f.events && !f.description && !f.enabled)
    return core::make_error("invalid_field", "give at least one of url, events, description, enabled");
  json::object out;
  auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    auto rec = get_object(txn, app.mail_table, webhook_key(company_id, id));
    if (!rec) return core::make_error("not_found", "no such webhook endpoint");
    if (f.url) (*rec)["url"] = *f.url;
    if (f.events) (*rec)["events"] = record::array_of(*f.events);
    if (f.description) (*rec)["description"] = *f.description;
    if (f.enabled) (*rec)["enabled"] = *f.enabled;
    (*rec)["updatedAt"] = now_text(app);
    put_object(txn, app.mail_table, webhook_key(company_id, id), *rec);
    out = std::move(*rec);
    return {};
  });
  if (!st.ok()) return st.error();
  return out;
}

core::Result<json::object> find_webhook(App& app, std::string_view company_id, std::string_view id) {
  auto rec = read_object(app, webhook_key(company_id, id));
  if (!rec) return rec.error();
  if (!*rec) return core::make_error("not_found", "no such webhook endpoint");
  return std::move(**rec);
}

core::Result<std::vector<json::object>> list_webhooks(App& app, std::string_view company_id) {
  std::vector<json::object> out;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    out.clear();
    txn.scan(app.mail_table, company_prefix(company_id, "webhook"),
             [&](std::string_view, std::string_view v) {
               if (auto o = core::parse_json_object(v)) out.push_back(std::move(*o));
               return true;
             });
    return {};
  });
  if (!st.ok()) return st.error();
  return out;
}

core::Status delete_webhook(App& app, std::string_view company_id, std::string_view id) {
  auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    if (!txn.erase(app.mail_table, webhook_key(company_id, id)))
      return core::make_error("not_found", "no such webhook endpoint");
    return {};
  });
  if (!st.ok()) return st;
  // The endpoint is gone, so its deliveries are unreachable; remove them a batch per transaction.
  const std::string prefix = webhook_delivery_key(company_id, id, "");
  for (bool more = true; more;) {
    st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
      std::vector<std::string> keys;
      txn.scan(app.mail_table, prefix, [&](std::string_view k, std::string_view) {
        keys.emplace_back(k);
        return keys.size() < kDeleteBatch;
      });
      for (const auto& k : keys) txn.erase(app.mail_table, k);
      more = keys.size() == kDeleteBatch;
      return {};
    });
    if (!st.ok()) return st;
  }
  return {};
}

void enqueue_webhook_deliveries(App& app, store::WriteTxn& txn, std::string_view company_id,
                                std::span<const MailEvent> events) {
  std::vector<json::object> endpoints;
  txn.scan(app.mail_table, company_prefix(company_id, "webhook"), [&](std::string_view, std::string_view v) {
    if (auto o = core::parse_json_object(v)) endpoints.push_back(std::move(*o));
    return true;
  });
  if (endpoints.empty()) return;
  const std::int64_t now = app.clock.now_ms();
  for (const MailEvent& e : events) {
    std::string event_id;
    for (const json::object& endpoint : endpoints) {
      if (!subscribed(endpoint, e.event)) continue;
      if (event_id.empty()) event_id = core::make_time_ordered_id("evt_", e.at_ms, app.random);
      const std::string webhook_id = record::str(endpoint, "id");
      const std::string id = core::make_time_ordered_id("whd_", kLastMs - now, app.random);
      const std::string job = webhook_outbox_key(now, company_id, id);
      json::object delivery{{"id", id},
                            {"webhookId", webhook_id},
                            {"eventId", event_id},
                            {"event", e.event},
                            {"status", "pending"},
                            {"attempts", 0},
                            {"lastAttemptAt", nullptr},
                            {"lastStatusCode", nullptr},
                            {"lastError", nullptr},
                            {"nextAttemptAt", core::format_timestamp(now)},
                            {"deliveredAt", nullptr},
                            {"createdAt", core::format_timestamp(now)},
                            {"payload", event_payload(e, event_id)},
                            {"history", json::array()},
                            {"job", job},
                            {"scheduledAttempts", 0}};
      put_object(txn, app.mail_table, webhook_delivery_key(company_id, webhook_id, id), delivery);
      put_object(txn, app.mail_table, job, json::object{{"webhookId", webhook_id}, {"manual", false}});
    }
  }
}

json::object delivery_to_api(const json::object& record) {
  json::object out = record;
  out.erase("job");
  out.erase("scheduledAttempts");
  return out;
}

core::Result<DeliveryPage> list_deliveries(App& app, std::string_view company_id, std::string_view webhook_id,
                                           std::string_view status, std::size_t skip, std::size_t limit) {
  DeliveryPage page;
  bool found = false;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    page = {};
    found = txn.get(app.mail_table, webhook_key(company_id, webhook_id)).has_value();
    if (!found) return {};
    // Without a filter only the page's records are parsed; with one, every record is (docs/mail-api.md).
    txn.scan(app.mail_table, webhook_delivery_key(company_id, webhook_id, ""),
             [&](std::string_view, std::string_view v) {
               const bool in_page = page.total >= skip && page.items.size() < limit;
               if (status.empty() && !in_page) {
                 ++page.total;
                 return true;
               }
               auto o = core::parse_json_object(v);
               if (!o || (!status.empty() && record::str(*o, "status") != status)) return true;
               if (in_page) page.items.push_back(delivery_to_api(*o));
               ++page.total;
               return true;
             });
    return {};
  });
  if (!st.ok()) return st.error();
  if (!found) return core::make_error("not_found", "no such webhook endpoint");
  return page;
}

core::Result<json::object> find_delivery(App& app, std::string_view company_id, std::string_view webhook_id,
                                         std::string_view delivery_id) {
  auto rec = read_object(app, webhook_delivery_key(company_id, webhook_id, delivery_id));
  if (!rec) return rec.error();
  if (!*rec) return core::make_error("not_found", "no such delivery of this webhook endpoint");
  return delivery_to_api(**rec);
}

core::Result<json::object> replay_delivery(App& app, std::string_view company_id, std::string_view webhook_id,
                                           std::string_view delivery_id) {
  json::object out;
  auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    if (!txn.get(app.mail_table, webhook_key(company_id, webhook_id)))
      return core::make_error("not_found", "no such webhook endpoint");
    const std::string key = webhook_delivery_key(company_id, webhook_id, delivery_id);
    auto rec = get_object(txn, app.mail_table, key);
    if (!rec) return core::make_error("not_found", "no such delivery of this webhook endpoint");
    const std::int64_t now = app.clock.now_ms();
    // A pending delivery keeps its kind of job (scheduled, or an earlier replay); a finished one gets a
    // one-off attempt.
    bool manual = record::str(*rec, "status") != "pending";
    // An attempt in flight finds its job gone and records nothing; the new job sends the event again.
    if (const std::string old = record::str(*rec, "job"); !old.empty()) {
      if (auto job = get_object(txn, app.mail_table, old); job && !manual)
        manual = record::boolean(*job, "manual");
      txn.erase(app.mail_table, old);
    }
    const std::string job = webhook_outbox_key(now, company_id, delivery_id);
    put_object(txn, app.mail_table, job,
               json::object{{"webhookId", std::string(webhook_id)}, {"manual", manual}});
    (*rec)["status"] = "pending";
    (*rec)["nextAttemptAt"] = core::format_timestamp(now);
    (*rec)["job"] = job;
    put_object(txn, app.mail_table, key, *rec);
    out = delivery_to_api(*rec);
    return {};
  });
  if (!st.ok()) return st.error();
  return out;
}

std::string webhook_body(const json::object& payload, std::int64_t unix_seconds) {
  json::object body;
  for (const char* k : {"id", "type", "createdAt"})
    if (auto* v = payload.if_contains(k)) body[k] = *v;
  body["timestamp"] = unix_seconds;
  if (auto* v = payload.if_contains("data")) body["data"] = *v;
  return core::to_json(body);
}

}  // namespace edge::mail
