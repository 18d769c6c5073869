#include "edge/status/subscribers.h"

#include <algorithm>
#include <cstdio>

#include "core/bytes.h"
#include "core/crypto.h"
#include "core/date.h"
#include "core/id.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/status/status_events.h"
#include "edge/status/status_store.h"
#include "native/crypto/aes_gcm_seal.h"

namespace edge::status {
namespace {

std::string cat(std::initializer_list<std::string_view> parts) {
  std::string out;
  for (std::string_view p : parts) out += p;
  return out;
}

std::string due_digits(std::int64_t ms) {
  char digits[32];
  std::snprintf(digits, sizeof digits, "%013lld", static_cast<long long>(ms < 0 ? 0 : ms));
  return digits;
}

void erase_prefix(store::WriteTxn& txn, store::Table t, std::string_view prefix) {
  std::vector<std::string> keys;
  txn.scan(t, prefix, [&](std::string_view key, std::string_view) {
    keys.emplace_back(key);
    return true;
  });
  for (auto& k : keys) txn.erase(t, k);
}

// The index entry `index_key` names a subscriber of `slug`'s page whose stored `hash_member` equals the
// token's hash (compared in constant time).
core::Result<FoundSubscriber> find_by_index(App& app, std::string_view slug, std::string_view token,
                                            const std::string& index_key, std::string_view hash_member) {
  auto not_found = core::make_error("subscriber_not_found", "no subscription has this token");
  if (token.empty() || token.size() > 200) return not_found;
  auto page = page_by_slug(app, slug);
  if (!page) return page.error().code == "page_not_found" ? not_found : page.error();
  std::optional<json::object> index, sub;
  store::Table t = app.status_table;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    index = record::get_object(txn, t, index_key);
    if (!index) return {};
    sub = record::get_object(txn, t,
                             subscriber_key(record::str(*index, "companyId"), record::str(*index, "pageId"),
                                            record::str(*index, "subscriberId")));
    return {};
  });
  if (!st.ok()) return st.error();
  if (!index || !sub) return not_found;
  if (record::str(*index, "companyId") != page->companyId ||
      record::str(*index, "pageId") != record::str(page->page, "id"))
    return not_found;
  if (!core::constant_time_equal(record::str(*sub, std::string(hash_member)), core::sha256_hex(token)))
    return not_found;
  return FoundSubscriber{page->companyId, std::move(*sub)};
}

}  // namespace

std::string subscriber_prefix(std::string_view company_id, std::string_view page_id) {
  return cat({"c/", company_id, "/subscriber/", page_id, "/"});
}
std::string subscriber_key(std::string_view company_id, std::string_view page_id,
                           std::string_view subscriber_id) {
  return subscriber_prefix(company_id, page_id) + std::string(subscriber_id);
}
std::string delivery_prefix(std::string_view company_id, std::string_view page_id,
                            std::string_view subscriber_id) {
  return cat({"c/", company_id, "/subdelivery/", page_id, "/", subscriber_id, "/"});
}
std::string delivery_key(std::string_view company_id, std::string_view page_id,
                         std::string_view subscriber_id, std::string_view delivery_id) {
  return delivery_prefix(company_id, page_id, subscriber_id) + std::string(delivery_id);
}
std::string token_index_key(std::string_view token) {
  return "subtoken/" + core::sha256_hex(token);
}
std::string confirm_index_key(std::string_view token) {
  return "subconfirm/" + core::sha256_hex(token);
}
std::string delivery_job_key(std::int64_t due_ms, std::string_view company_id, std::string_view page_id,
                             std::string_view subscriber_id, std::string_view delivery_id) {
  return cat({kDeliveryQueuePrefix, due_digits(due_ms), "/", company_id, "/", page_id, "/", subscriber_id,
              "/", delivery_id});
}

std::optional<DeliveryJob> parse_delivery_job(std::string_view key) {
  if (!key.starts_with(kDeliveryQueuePrefix)) return std::nullopt;
  key.remove_prefix(kDeliveryQueuePrefix.size());
  std::vector<std::string> parts;
  while (true) {
    auto slash = key.find('/');
    parts.emplace_back(key.substr(0, slash));
    if (slash == std::string_view::npos) break;
    key.remove_prefix(slash + 1);
  }
  if (parts.size() != 5) return std::nullopt;
  for (auto& p : parts)
    if (p.empty()) return std::nullopt;
  DeliveryJob job{parts[1], parts[2], parts[3], parts[4], 0};
  try {
    job.dueMs = std::stoll(parts[0]);
  } catch (...) {
    return std::nullopt;
  }
  return job;
}

bool subscriber_matches(const json::object& subscriber, std::string_view event,
                        const std::vector<std::string>& event_components) {
  const std::string topic = record::str(subscriber, "topic");
  if (topic != "all" && topic != event_topic(event)) return false;
  const auto wanted = record::strs(subscriber, "componentIds");
  if (wanted.empty() || event_components.empty()) return true;
  return std::any_of(event_components.begin(), event_components.end(), [&](const std::string& c) {
    return std::find(wanted.begin(), wanted.end(), c) != wanted.end();
  });
}

core::Result<SubscriberFilters> parse_filters(App& app, std::string_view company_id, std::string_view page_id,
                                              const json::value* topic, const json::value* component_ids) {
  SubscriberFilters f;
  if (topic && !topic->is_null()) {
    if (!topic->is_string())
      return core::make_error("invalid_topic", "topic must be one of all, incidents, maintenance");
    std::string_view t = topic->get_string();
    if (t != "all" && t != "incidents" && t != "maintenance")
      return core::make_error("invalid_topic", "topic must be one of all, incidents, maintenance");
    f.topic = std::string(t);
  }
  if (component_ids && !component_ids->is_null()) {
    if (!component_ids->is_array())
      return core::make_error("invalid_field", "field 'componentIds' must be an array of component ids");
    const auto& arr = component_ids->get_array();
    if (arr.size() > 200) return core::make_error("invalid_field", "field 'componentIds' has too many ids");
    for (const auto& v : arr) {
      if (!v.is_string())
        return core::make_error("invalid_field", "field 'componentIds' must be an array of component ids");
      std::string id(v.get_string());
      if (!is_key_segment(id)) return core::make_error("component_not_found", "component not found");
      if (std::find(f.componentIds.begin(), f.componentIds.end(), id) == f.componentIds.end())
        f.componentIds.push_back(std::move(id));
    }
    for (const auto& id : f.componentIds) {
      auto c = get_record(app, component_key(company_id, page_id, id));
      if (!c) return c.error();
      if (!*c) return core::make_error("component_not_found", "component '" + id + "' is not on this page");
    }
  }
  return f;
}

std::string make_management_token(App& app) {
  std::uint8_t bytes[32];
  app.random.fill(bytes);
  return "smt_" + core::base64url_encode(bytes);
}

std::string seal_member(App& app, std::string_view company_id, std::string_view page_id,
                        std::string_view subscriber_id, std::string_view member, std::string_view plaintext) {
  const std::string associated =
      subscriber_key(company_id, page_id, subscriber_id) + "#" + std::string(member);
  return native::crypto::seal_aes_gcm(app.secret_key, plaintext, associated, app.random);
}

core::Result<std::string> unseal_member(const App& app, std::string_view company_id,
                                        const json::object& subscriber, std::string_view member) {
  const std::string associated =
      subscriber_key(company_id, record::str(subscriber, "pageId"), record::str(subscriber, "id")) + "#" +
      std::string(member);
  return native::crypto::unseal_aes_gcm(app.secret_key, record::str(subscriber, std::string(member)),
                                        associated);
}

core::Status create_subscriber(App& app, std::string_view company_id, NewSubscriber& n) {
  json::object& rec = n.record;
  const std::string id = record::str(rec, "id"), page_id = record::str(rec, "pageId");
  rec["managementToken"] = seal_member(app, company_id, page_id, id, "managementToken", n.managementToken);
  rec["tokenHash"] = core::sha256_hex(n.managementToken);
  if (!n.botToken.empty())
    rec["botToken"] = seal_member(app, company_id, page_id, id, "botToken", n.botToken);
  if (!n.confirmToken.empty()) {
    rec["confirmToken"] = seal_member(app, company_id, page_id, id, "confirmToken", n.confirmToken);
    rec["confirmHash"] = core::sha256_hex(n.confirmToken);
  }
  const std::int64_t now = app.clock.now_ms();
  store::Table t = app.status_table;
  const json::object index{{"companyId", company_id}, {"pageId", page_id}, {"subscriberId", id}};
  return app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    if (!txn.get(t, page_key(company_id, page_id)))
      return core::make_error("page_not_found", "page not found");
    std::size_t count = 0;
    txn.scan(t, subscriber_prefix(company_id, page_id),
             [&](std::string_view, std::string_view) { return ++count < kMaxSubscribersPerPage; });
    if (count >= kMaxSubscribersPerPage)
      return core::make_error("subscriber_limit", "this page has reached its number of subscribers");
    record::put_object(txn, t, subscriber_key(company_id, page_id, id), rec);
    record::put_object(txn, t, token_index_key(n.managementToken), index);
    if (!n.confirmToken.empty()) {
      record::put_object(txn, t, confirm_index_key(n.confirmToken), index);
      // The opt-in mail goes out through the worker like any notification: durable and retried.
      const std::string delivery_id = core::make_time_ordered_id("sdl_", now, app.random);
      json::object delivery{{"id", delivery_id},
                            {"subscriberId", id},
                            {"event", "subscription.confirm"},
                            {"status", "pending"},
                            {"attempts", 0},
                            {"createdAt", core::format_timestamp(now)},
                            {"nextAttemptAt", core::format_timestamp(now)},
                            {"history", json::array()}};
      record::put_object(txn, t, delivery_key(company_id, page_id, id, delivery_id), delivery);
      record::put_object(txn, t, delivery_job_key(now, company_id, page_id, id, delivery_id), json::object{});
    }
    return {};
  });
}

core::Result<FoundSubscriber> subscriber_by_token(App& app, std::string_view slug, std::string_view token) {
  return find_by_index(app, slug, token, token_index_key(token), "tokenHash");
}

core::Result<FoundSubscriber> subscriber_by_confirm_token(App& app, std::string_view slug,
                                                          std::string_view token) {
  return find_by_index(app, slug, token, confirm_index_key(token), "confirmHash");
}

core::Status verify_subscriber(App& app, const FoundSubscriber& found) {
  const std::string key = subscriber_key(found.companyId, record::str(found.subscriber, "pageId"),
                                         record::str(found.subscriber, "id"));
  const std::string now = core::format_timestamp(app.clock.now_ms());
  store::Table t = app.status_table;
  return app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    auto rec = record::get_object(txn, t, key);
    if (!rec) return core::make_error("subscriber_not_found", "no subscription has this token");
    if (record::str(*rec, "status") == "verified") return {};
    (*rec)["status"] = "verified";
    (*rec)["verifiedAt"] = now;
    (*rec)["updatedAt"] = now;
    // The opt-in link stays usable (it only shows "confirmed" again) until the subscriber is deleted.
    record::put_object(txn, t, key, *rec);
    return {};
  });
}

core::Result<json::object> update_filters(App& app, const FoundSubscriber& found,
                                          const SubscriberFilters& f) {
  const std::string key = subscriber_key(found.companyId, record::str(found.subscriber, "pageId"),
                                         record::str(found.subscriber, "id"));
  json::object out;
  auto st = update_record(
      app, key, "subscriber_not_found",
      [&](json::object& rec, store::WriteTxn&) {
        rec["topic"] = f.topic;
        rec["componentIds"] = record::array_of(f.componentIds);
        rec["updatedAt"] = core::format_timestamp(app.clock.now_ms());
        return core::Status{};
      },
      out);
  if (!st.ok()) return st.error();
  return out;
}

namespace {

// Removes the subscriber stored under `key` (its record `rec`) with its token indexes and delivery log.
// Queued jobs (sdq/) stay: the worker drops a job whose subscriber is gone.
void erase_subscriber(store::WriteTxn& txn, store::Table t, const std::string& key, const json::object& rec,
                      std::string_view company_id, std::string_view page_id) {
  txn.erase(t, "subtoken/" + record::str(rec, "tokenHash"));
  if (auto h = record::str(rec, "confirmHash"); !h.empty()) txn.erase(t, "subconfirm/" + h);
  erase_prefix(txn, t, delivery_prefix(company_id, page_id, record::str(rec, "id")));
  txn.erase(t, key);
}

}  // namespace

core::Status delete_subscriber(App& app, std::string_view company_id, std::string_view page_id,
                               std::string_view subscriber_id) {
  store::Table t = app.status_table;
  return app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    const std::string key = subscriber_key(company_id, page_id, subscriber_id);
    auto rec = record::get_object(txn, t, key);
    if (!rec) return core::make_error("subscriber_not_found", "subscriber not found");
    erase_subscriber(txn, t, key, *rec, company_id, page_id);
    return {};
  });
}

void erase_page_subscribers(store::WriteTxn& txn, store::Table t, std::string_view company_id,
                            std::string_view page_id) {
  std::vector<std::pair<std::string, json::object>> found;
  txn.scan(t, subscriber_prefix(company_id, page_id), [&](std::string_view key, std::string_view value) {
    if (auto o = core::parse_json_object(value)) found.emplace_back(std::string(key), std::move(*o));
    return true;
  });
  for (const auto& [key, rec] : found) erase_subscriber(txn, t, key, rec, company_id, page_id);
}

json::object subscriber_view(const json::object& s) {
  json::object out;
  for (const char* member : {"id", "type", "status", "topic", "componentIds", "lang", "webhookUrl", "email",
                             "chatId", "createdAt", "updatedAt", "verifiedAt"})
    if (const auto* v = s.if_contains(member)) out[member] = *v;
  if (!out.contains("verifiedAt")) out["verifiedAt"] = nullptr;
  return out;
}

json::object delivery_view(const json::object& d) {
  json::object out;
  for (const char* member : {"id", "subscriberId", "event", "eventId", "status", "attempts", "createdAt",
                             "lastAttemptAt", "lastError", "nextAttemptAt", "deliveredAt", "history"})
    if (const auto* v = d.if_contains(member)) out[member] = *v;
  return out;
}

}  // namespace edge::status
