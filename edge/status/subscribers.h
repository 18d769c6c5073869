#pragma once
// Subscribers of a status page (docs/status-subscribers.md): who gets the page's events, on which channel,
// filtered by topic and components, and the tokens that manage a subscription.
//
// Records in the status table:
//   c/<companyId>/subscriber/<pageId>/<subscriberId>
//       the subscriber (below)
//   c/<companyId>/subdelivery/<pageId>/<subscriberId>/<deliveryId>
//       one event (or confirmation) for one subscriber and its attempts: the delivery log. Ids are
//       time-ordered, so key order is creation order.
//   subtoken/<sha256 hex of the managementToken>
//       {companyId, pageId, subscriberId}: the token's index
//   subconfirm/<sha256 hex of the confirmation token>
//       the same, for an email subscriber's pending opt-in
//   sdq/<dueMs, 13 digits>/<companyId>/<pageId>/<subscriberId>/<deliveryId>
//       a delivery job due at dueMs (value {}): the durable queue of the subscriber worker
//
// Subscriber: {id, pageId, type (webhook|email|telegram), status (pending|verified), topic
// (all|incidents|maintenance), componentIds, lang (en|tr), webhookUrl | email | chatId, botToken (sealed),
// managementToken (sealed, AES-256-GCM: the worker signs with it), tokenHash, createdAt, updatedAt,
// verifiedAt}. Sealed members are bound to the record key and the member name.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"
#include "core/result.h"
#include "native/store/kv_store.h"

namespace edge {
struct App;
}

namespace edge::status {

namespace json = core::json;

inline constexpr std::string_view kDeliveryQueuePrefix = "sdq/";
// Subscribers of one page at most: bounds the fan-out of one event and what one visitor can pile up.
inline constexpr std::size_t kMaxSubscribersPerPage = 5000;

std::string subscriber_prefix(std::string_view company_id, std::string_view page_id);
std::string subscriber_key(std::string_view company_id, std::string_view page_id,
                           std::string_view subscriber_id);
std::string delivery_prefix(std::string_view company_id, std::string_view page_id,
                            std::string_view subscriber_id);
std::string delivery_key(std::string_view company_id, std::string_view page_id,
                         std::string_view subscriber_id, std::string_view delivery_id);
std::string token_index_key(std::string_view token);
std::string confirm_index_key(std::string_view token);
std::string delivery_job_key(std::int64_t due_ms, std::string_view company_id, std::string_view page_id,
                             std::string_view subscriber_id, std::string_view delivery_id);

struct DeliveryJob {
  std::string companyId, pageId, subscriberId, deliveryId;
  std::int64_t dueMs = 0;
};
std::optional<DeliveryJob> parse_delivery_job(std::string_view key);

// `all` matches every event; `incidents` and `maintenance` match event_topic(). Empty `componentIds`
// matches every event; otherwise an event matches when it names one of them, or names no component at all
// (a page-wide event).
bool subscriber_matches(const json::object& subscriber, std::string_view event,
                        const std::vector<std::string>& event_components);

// The members a subscriber may set: topic and componentIds (at subscribe and on the preferences page).
// Errors: `invalid_topic`, `invalid_field`, `component_not_found` (an id that is not the page's).
struct SubscriberFilters {
  std::string topic = "all";
  std::vector<std::string> componentIds;
};
core::Result<SubscriberFilters> parse_filters(App& app, std::string_view company_id, std::string_view page_id,
                                              const json::value* topic, const json::value* component_ids);

// A new subscriber's record and its plaintext secrets, for create_subscriber.
struct NewSubscriber {
  json::object record;          // without the sealed members
  std::string managementToken;  // `smt_` + 43 base64url characters (256 random bits)
  std::string confirmToken;     // email only: the opt-in link's token
  std::string botToken;         // telegram only
};
std::string make_management_token(App& app);

// Stores the subscriber, its token index (and confirmation index), and for email a confirmation delivery
// due now, in one transaction. Errors: `page_not_found` (page gone), `subscriber_limit` past
// kMaxSubscribersPerPage, the store's.
core::Status create_subscriber(App& app, std::string_view company_id, NewSubscriber& subscriber);

struct FoundSubscriber {
  std::string companyId;
  json::object subscriber;
};
// The subscriber of `slug`'s page that a management token (or a confirmation token) names; the hash index
// finds it and the stored hash is compared in constant time. `subscriber_not_found` for anything else.
core::Result<FoundSubscriber> subscriber_by_token(App& app, std::string_view slug, std::string_view token);
core::Result<FoundSubscriber> subscriber_by_confirm_token(App& app, std::string_view slug,
                                                          std::string_view token);

// Marks a pending email subscriber verified and drops its confirmation index. Idempotent.
core::Status verify_subscriber(App& app, const FoundSubscriber& found);
core::Result<json::object> update_filters(App& app, const FoundSubscriber& found, const SubscriberFilters& f);
// Removes the subscriber, its token indexes and its delivery log (queued jobs are dropped by the worker
// when it finds the subscriber gone). `subscriber_not_found` when already gone.
core::Status delete_subscriber(App& app, std::string_view company_id, std::string_view page_id,
                               std::string_view subscriber_id);
// Inside delete_page's transaction: every subscriber of the page, as delete_subscriber removes one.
void erase_page_subscribers(store::WriteTxn& txn, store::Table t, std::string_view company_id,
                            std::string_view page_id);

// The dashboard's view: no token, hash or bot token.
json::object subscriber_view(const json::object& subscriber);
json::object delivery_view(const json::object& delivery);

// The plaintext of a sealed member (`managementToken`, `botToken`). Errors: `sealed_invalid`.
core::Result<std::string> unseal_member(const App& app, std::string_view company_id,
                                        const json::object& subscriber, std::string_view member);
std::string seal_member(App& app, std::string_view company_id, std::string_view page_id,
                        std::string_view subscriber_id, std::string_view member, std::string_view plaintext);

}  // namespace edge::status
