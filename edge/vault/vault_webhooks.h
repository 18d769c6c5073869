#pragma once
// Signed change webhooks (docs/env-vault.md, "Webhooks"): URLs a company registers on a vault project,
// optionally for one environment, told about every new version (push or rollback).
//
// Webhook record `w/<projectId>/<webhookId>`: {id, url, environment (empty: all), createdAtMs, secret
// (sealed, core/sealed.h, bound to the project and webhook id), lastStatus, lastAttemptAtMs, lastError}.
// The signing secret (`whsec_` + 32 base64url characters) is in the create answer only.
//
// Outbox job `wo/<due ms:15>/<jobId>`: {jobId, webhookId, projectId, body, attempts}, written by
// enqueue_change_webhooks in the transaction that commits the version, so a version is announced exactly
// when it exists. The body is fixed then: {id (evt_..., the same on every attempt), type
// "env-vault.version", projectId, environment, version, kind (push|rollback), rolledBackTo?, added,
// removed, changed (key names, never values), createdAt}.
//
// Delivery (deliver_due_webhooks, on the vault runtime's worker thread): POST with `Content-Type:
// application/json`, `X-Webhook-Signature: sha256=<hex>` (HMAC-SHA256 of the raw body under the secret, as
// spec/DECISIONS.md signs mail webhooks), `X-Webhook-Id: <event id>`. A job leaves the outbox only in the
// transaction that records its attempt; on a failure (no 2xx, no answer within 10 s) the same transaction
// queues the next attempt after the status service's backoff (edge/status/delivery_schedule.h: 30 s
// doubling to 1 h with jitter, 12 attempts). So delivery is at least once: a crash before that commit sends
// the body again with the same event id, which receivers deduplicate by.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"
#include "core/result.h"
#include "edge/platform/company_auth.h"
#include "native/store/kv_store.h"

namespace edge {
struct App;
}

namespace edge::vault {

namespace json = core::json;

inline constexpr std::size_t kMaxWebhooksPerProject = 10;

struct CreatedWebhook {
  json::object record;  // the API view
  std::string secret;   // plaintext, for the create answer only
};
// `environment` empty: every environment. Errors: `invalid_url`, `invalid_field` (unknown environment),
// `not_found` (project), `unprocessable` (past kMaxWebhooksPerProject), `storage_error`.
core::Result<CreatedWebhook> create_webhook(App& app, const CompanyContext& ctx, std::string_view project_id,
                                            std::string_view url, std::string_view environment);
core::Result<std::vector<json::object>> list_webhooks(App& app, std::string_view company_id,
                                                      std::string_view project_id);
// Jobs of a deleted webhook still in the outbox are dropped by the worker.
core::Status delete_webhook(App& app, const CompanyContext& ctx, std::string_view project_id,
                            std::string_view webhook_id);

// Inside the caller's write: one outbox job due now per webhook of the project that matches `env`.
void enqueue_change_webhooks(App& app, store::WriteTxn& txn, std::string_view company_id,
                             std::string_view project_id, std::string_view env, const json::object& change,
                             std::int64_t now);

// One attempt of every job due by the clock; answers how many attempts were made.
std::size_t deliver_due_webhooks(App& app);

}  // namespace edge::vault
