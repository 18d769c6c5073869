#include "edge/vault/vault_webhooks.h"

#include <array>
#include <cstdio>

#include "core/bytes.h"
#include "core/crypto.h"
#include "core/date.h"
#include "core/id.h"
#include "core/sealed.h"
#include "core/validate.h"
#include "edge/app.h"
#include "edge/platform/audit_log.h"
#include "edge/platform/record_json.h"
#include "edge/status/delivery_http.h"
#include "edge/status/delivery_schedule.h"
#include "edge/vault/vault_store.h"

namespace edge::vault {

namespace {

using core::make_error;

constexpr std::string_view kOutboxPrefix = "wo/";
constexpr std::chrono::milliseconds kTimeout{10'000};

std::string webhook_key(std::string_view project_id, std::string_view id) {
  return "w/" + std::string(project_id) + "/" + std::string(id);
}
std::string outbox_key(std::int64_t due_ms, std::string_view job_id) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%015lld", static_cast<long long>(due_ms < 0 ? 0 : due_ms));
  return std::string(kOutboxPrefix) + buf + "/" + std::string(job_id);
}
std::string secret_associated(std::string_view project_id, std::string_view id) {
  return "env-vault-webhook/" + std::string(project_id) + "/" + std::string(id);
}

json::object webhook_to_api(const json::object& rec) {
  const std::string env = record::str(rec, "environment");
  return json::object{
      {"id", record::str(rec, "id")},
      {"projectId", record::str(rec, "projectId")},
      {"url", record::str(rec, "url")},
      {"environment", env.empty() ? json::value(nullptr) : json::value(env)},
      {"createdAt", record::time_or_null(record::opt_num(rec, "createdAtMs"))},
      {"lastAttemptAt", record::time_or_null(record::opt_num(rec, "lastAttemptAtMs"))},
      {"lastStatus", record::opt_num(rec, "lastStatus") ? json::value(record::num(rec, "lastStatus"))
                                                        : json::value(nullptr)},
      {"lastError", record::str(rec, "lastError")}};
}

double random_unit(App& app) {
  std::array<std::uint8_t, 4> b{};
  app.random.fill(b);
  const std::uint32_t v = (std::uint32_t(b[0]) << 24) | (std::uint32_t(b[1]) << 16) |
                          (std::uint32_t(b[2]) << 8) | std::uint32_t(b[3]);
  return static_cast<double>(v) / 4294967296.0;
}

bool company_owns(const store::ReadTxn& txn, store::Table t, std::string_view company_id,
                  std::string_view project_id) {
  return txn.get(t, "p/" + std::string(company_id) + "/" + std::string(project_id)).has_value();
}

}  // namespace

core::Result<CreatedWebhook> create_webhook(App& app, const CompanyContext& ctx, std::string_view project_id,
                                            std::string_view url, std::string_view environment) {
  if (auto st = core::validate_http_url(url); !st.ok()) return st.error();
  if (!environment.empty())
    if (auto st = validate_environment(environment); !st.ok()) return st.error();
  const std::int64_t now = app.clock.now_ms();
  const std::string id = core::make_time_ordered_id("vwh_", now, app.random);
  std::array<std::uint8_t, 24> bytes{};
  app.random.fill(bytes);
  CreatedWebhook out;
  out.secret = "whsec_" + core::base64url_encode(bytes);
  const std::string audit_id = core::make_id("aud_", app.random);
  json::object rec{
      {"id", id},
      {"projectId", project_id},
      {"url", url},
      {"environment", environment},
      {"createdAtMs", now},
      {"secret", core::seal(app.secret_key, out.secret, secret_associated(project_id, id), app.random)}};
  const store::Table t = app.vault_table;
  auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    if (!company_owns(txn, t, ctx.company.id, project_id))
      return make_error("not_found", "vault project not found");
    if (!environment.empty() && !txn.get(t, "e/" + std::string(project_id) + "/" + std::string(environment)))
      return make_error("invalid_field", "the project has no environment '" + std::string(environment) + "'");
    std::size_t count = 0;
    txn.scan(t, "w/" + std::string(project_id) + "/", [&](std::string_view, std::string_view) {
      ++count;
      return true;
    });
    if (count >= kMaxWebhooksPerProject)
      return make_error("unprocessable",
                        "a project has at most " + std::to_string(kMaxWebhooksPerProject) + " webhooks");
    record::put_object(txn, t, webhook_key(project_id, id), rec);
    append_audit(txn, app.audit_table, ctx,
                 AuditEntry{"env-vault.webhook.create",
                            json::object{{"projectId", project_id}, {"webhookId", id}, {"url", url}}},
                 audit_id, now);
    return {};
  });
  if (!st.ok()) return st.error();
  out.record = webhook_to_api(rec);
  return out;
}

core::Result<std::vector<json::object>> list_webhooks(App& app, std::string_view company_id,
                                                      std::string_view project_id) {
  std::vector<json::object> out;
  const store::Table t = app.vault_table;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    out.clear();
    if (!company_owns(txn, t, company_id, project_id))
      return make_error("not_found", "vault project not found");
    txn.scan(t, "w/" + std::string(project_id) + "/", [&](std::string_view, std::string_view value) {
      if (auto rec = core::parse_json_object(value)) out.push_back(webhook_to_api(*rec));
      return true;
    });
    return {};
  });
  if (!st.ok()) return st.error();
  return out;
}

core::Status delete_webhook(App& app, const CompanyContext& ctx, std::string_view project_id,
                            std::string_view webhook_id) {
  const std::int64_t now = app.clock.now_ms();
  const std::string audit_id = core::make_id("aud_", app.random);
  const store::Table t = app.vault_table;
  return app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    if (!company_owns(txn, t, ctx.company.id, project_id))
      return make_error("not_found", "vault project not found");
    if (!txn.erase(t, webhook_key(project_id, webhook_id)))
      return make_error("not_found", "webhook not found");
    append_audit(txn, app.audit_table, ctx,
                 AuditEntry{"env-vault.webhook.delete",
                            json::object{{"projectId", project_id}, {"webhookId", webhook_id}}},
                 audit_id, now);
    return {};
  });
}

void enqueue_change_webhooks(App& app, store::WriteTxn& txn, std::string_view company_id,
                             std::string_view project_id, std::string_view env, const json::object& change,
                             std::int64_t now) {
  (void)company_id;
  const store::Table t = app.vault_table;
  std::vector<std::string> targets;
  txn.scan(t, "w/" + std::string(project_id) + "/", [&](std::string_view, std::string_view value) {
    auto rec = core::parse_json_object(value);
    if (!rec) return true;
    const std::string only = record::str(*rec, "environment");
    if (only.empty() || only == env) targets.push_back(record::str(*rec, "id"));
    return true;
  });
  if (targets.empty()) return;
  const std::string event_id = core::make_id("evt_", app.random);
  json::object body{{"id", event_id},
                    {"type", "env-vault.version"},
                    {"projectId", project_id},
                    {"environment", env},
                    {"version", record::num(change, "version")},
                    {"kind", record::str(change, "kind")}};
  if (auto rb = record::opt_num(change, "rolledBackTo")) body["rolledBackTo"] = *rb;
  for (const char* k : {"added", "removed", "changed"})
    body[k] = change.contains(k) ? change.at(k) : json::value(json::array{});
  body["createdAt"] = core::format_timestamp(now);
  const std::string text = core::to_json(body);
  for (const auto& wid : targets) {
    const std::string job_id = core::make_time_ordered_id("vwj_", now, app.random);
    record::put_object(txn, t, outbox_key(now, job_id),
                       json::object{{"jobId", job_id},
                                    {"eventId", event_id},
                                    {"webhookId", wid},
                                    {"projectId", project_id},
                                    {"body", text},
                                    {"attempts", 0}});
  }
}

std::size_t deliver_due_webhooks(App& app) {
  const store::Table t = app.vault_table;
  const std::int64_t now = app.clock.now_ms();
  struct Job {
    std::string key;
    json::object job, hook;
  };
  std::vector<Job> due;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    due.clear();
    txn.scan(t, kOutboxPrefix, [&](std::string_view k, std::string_view value) {
      // Keys sort by due time: stop at the first job in the future.
      const std::int64_t at = std::atoll(std::string(k.substr(kOutboxPrefix.size(), 15)).c_str());
      if (at > now) return false;
      if (auto job = core::parse_json_object(value)) {
        Job j{std::string(k), std::move(*job), {}};
        if (auto hook = record::get_object(
                txn, t, webhook_key(record::str(j.job, "projectId"), record::str(j.job, "webhookId"))))
          j.hook = std::move(*hook);
        due.push_back(std::move(j));
      }
      return due.size() < 100;
    });
    return {};
  });
  if (!st.ok()) return 0;
  std::size_t attempts = 0;
  for (auto& j : due) {
    const std::string project_id = record::str(j.job, "projectId");
    const std::string webhook_id = record::str(j.job, "webhookId");
    if (j.hook.empty()) {
      // The webhook was deleted: its jobs go with it.
      (void)app.kv->write([&](store::WriteTxn& txn) -> core::Status {
        txn.erase(t, j.key);
        return {};
      });
      continue;
    }
    const std::string body = record::str(j.job, "body");
    status::PostResult result;
    auto secret = core::unseal(app.secret_key, record::str(j.hook, "secret"),
                               secret_associated(project_id, webhook_id));
    if (!secret) {
      result.error = "signing secret cannot be opened";
    } else {
      const std::string signature = "sha256=" + core::hex_encode(core::hmac_sha256(*secret, body));
      result = status::http_post(record::str(j.hook, "url"), body,
                                 {{"Content-Type", "application/json"},
                                  {"X-Webhook-Signature", signature},
                                  {"X-Webhook-Id", record::str(j.job, "eventId")}},
                                 kTimeout);
    }
    ++attempts;
    const bool delivered = result.status >= 200 && result.status < 300;
    const std::int64_t done = app.clock.now_ms();
    const int tries = static_cast<int>(record::num(j.job, "attempts")) + 1;
    std::optional<std::int64_t> delay;
    if (!delivered) delay = status::retry_delay_ms(status::RetryPolicy{}, tries, random_unit(app));
    (void)app.kv->write([&](store::WriteTxn& txn) -> core::Status {
      txn.erase(t, j.key);
      if (!delivered && delay) {
        json::object next = j.job;
        next["attempts"] = tries;
        record::put_object(txn, t, outbox_key(done + *delay, record::str(j.job, "jobId")), next);
      }
      const std::string hk = webhook_key(project_id, webhook_id);
      if (auto hook = record::get_object(txn, t, hk)) {
        (*hook)["lastAttemptAtMs"] = done;
        (*hook)["lastStatus"] = result.status;
        (*hook)["lastError"] = delivered
                                   ? std::string()
                                   : (result.status ? "HTTP " + std::to_string(result.status) : result.error);
        record::put_object(txn, t, hk, *hook);
      }
      return {};
    });
  }
  return attempts;
}

}  // namespace edge::vault
