#pragma once
// Mail webhooks (spec document 2, "Events"; spec/DECISIONS.md; docs/mail-api.md, "Webhooks"): the endpoints
// a company subscribes to mail events, and the deliveries of each event to each endpoint.
//
// Endpoint record: {id, url, events, description, enabled, createdAt, updatedAt} and its signing secret
// (`whsec_` + 32 base64url characters, 192 random bits). The secret is in the create answer only. It is
// stored sealed (core/sealed.h) under the deployment's key, bound to the company and endpoint id, not hashed:
// the worker has to read it back to sign every body.
//
// Delivery record: one event for one endpoint, written with its outbox job in the transaction that stores
// the event (record_events), so an event is announced exactly when it exists, and a crash loses neither.
// Statuses: `pending` (waiting for its first or next attempt), `delivered` (the endpoint answered 2xx),
// `failed` (the retry schedule is spent, a replayed attempt failed, or the endpoint was disabled).
// Delivery ids sort newest first, so the delivery log pages by key order.
//
// The body of an attempt: {id, type, createdAt, timestamp, data: {mailLogId, recipient?, detail?}}. `id` is
// the event's id, the same on every attempt and replay and for every endpoint (receivers deduplicate by it);
// `type` the event name; `createdAt` when the event happened; `timestamp` the attempt's Unix time in seconds,
// inside the signed bytes, so a receiver can refuse a captured body replayed later.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"
#include "core/result.h"
#include "edge/mail/mail_events.h"
#include "native/store/kv_store.h"

namespace edge {
struct App;
}

namespace edge::mail {

namespace json = core::json;

// Keeps the per-event endpoint scan in record_events small (Stripe allows 16 endpoints, Svix 50).
inline constexpr std::size_t kMaxWebhooksPerCompany = 20;
inline constexpr std::string_view kWebhookOutboxPrefix = "whout/";
inline constexpr std::string_view kWebhookSecretPrefix = "whsec_";

std::string webhook_key(std::string_view company_id, std::string_view id);
std::string webhook_delivery_key(std::string_view company_id, std::string_view webhook_id,
                                 std::string_view delivery_id);
std::string webhook_outbox_key(std::int64_t due_ms, std::string_view company_id,
                               std::string_view delivery_id);

// ---- endpoints

// What a create or update carries; absent members stay unset. Errors (400): `invalid_field` for a wrong type,
// an empty or non-string events list, an event name outside spec/DECISIONS.md's seven (named in the message),
// a description over 500 bytes; `invalid_url` (core::validate_http_url).
struct WebhookFields {
  std::optional<std::string> url;
  std::optional<std::vector<std::string>> events;  // known names, each once, in the order given
  std::optional<std::string> description;
  std::optional<bool> enabled;
};
core::Result<WebhookFields> parse_webhook_fields(const json::object& body);

struct CreatedWebhook {
  json::object record;  // as stored (the secret sealed)
  std::string secret;   // the plaintext, for the create answer only
};

// Errors: `invalid_field` without url or events; `unprocessable` past kMaxWebhooksPerCompany;
// `storage_error`.
core::Result<CreatedWebhook> create_webhook(App& app, std::string_view company_id, const WebhookFields& f);
// Errors: `invalid_field` for an update without any field; `not_found`; `storage_error`.
core::Result<json::object> update_webhook(App& app, std::string_view company_id, std::string_view id,
                                          const WebhookFields& f);
core::Result<json::object> find_webhook(App& app, std::string_view company_id, std::string_view id);
// Oldest first (ids are time-ordered).
core::Result<std::vector<json::object>> list_webhooks(App& app, std::string_view company_id);
// Removes the endpoint, then its delivery records in batches (short transactions). Jobs still in the outbox
// are dropped by the worker when it finds the endpoint gone. Errors: `not_found`, `storage_error`.
core::Status delete_webhook(App& app, std::string_view company_id, std::string_view id);

// The API's view: the record without its sealed secret.
json::object webhook_to_api(const json::object& record);
// The signing secret. Errors: `sealed_invalid` (another key, or a record copied elsewhere).
core::Result<std::string> webhook_secret(const App& app, std::string_view company_id,
                                         const json::object& record);

// ---- deliveries

// For each event, a delivery record and an outbox job due now for every enabled endpoint of the company
// subscribed to it. Runs inside the caller's transaction (record_events).
void enqueue_webhook_deliveries(App& app, store::WriteTxn& txn, std::string_view company_id,
                                std::span<const MailEvent> events);

// The API's view: without the internal bookkeeping (outbox key, schedule position).
json::object delivery_to_api(const json::object& record);

// The endpoint's deliveries, newest first, with `status` (pending, delivered, failed) or all when empty,
// the page of `skip`/`limit`; `total` counts every match. Errors: `not_found` for an unknown endpoint.
struct DeliveryPage {
  std::vector<json::object> items;
  std::size_t total = 0;
};
core::Result<DeliveryPage> list_deliveries(App& app, std::string_view company_id, std::string_view webhook_id,
                                           std::string_view status, std::size_t skip, std::size_t limit);
core::Result<json::object> find_delivery(App& app, std::string_view company_id, std::string_view webhook_id,
                                         std::string_view delivery_id);

// Queues the delivery again, due now, with the same event id. A pending delivery keeps its retry schedule
// (its next attempt just moves to now); a delivered or failed one gets one more attempt, recorded like any
// other, and stays `failed` if that attempt fails. Returns the record as stored. Errors: `not_found`
// (endpoint or delivery), `storage_error`.
core::Result<json::object> replay_delivery(App& app, std::string_view company_id, std::string_view webhook_id,
                                           std::string_view delivery_id);

// The exact bytes of one attempt: the stored payload with `timestamp` set.
std::string webhook_body(const json::object& payload, std::int64_t unix_seconds);

}  // namespace edge::mail
