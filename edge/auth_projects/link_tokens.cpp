#include "edge/auth_projects/link_tokens.h"

#include <cstdlib>

#include "core/crypto.h"
#include "core/id.h"
#include "core/token.h"
#include "edge/app.h"
#include "edge/auth_projects/auth_sweep.h"
#include "edge/auth_projects/end_users.h"
#include "edge/auth_projects/project_store.h"
#include "edge/mail/delivery_worker.h"
#include "edge/mail/send.h"
#include "edge/platform/record_json.h"

namespace edge::auth_projects {
namespace {

using core::auth::LinkPurpose;

std::string link_key(std::string_view pid, std::string_view token) {
  return project_record_key(pid, "lt", core::sha256_hex(token));
}

// The user of a live link in `txn`, or nullopt.
std::optional<EndUser> live_link_user(const store::ReadTxn& txn, store::Table t, const Project& project,
                                      std::string_view token, LinkPurpose purpose, std::int64_t now) {
  if (!core::has_token_shape(core::TokenKind::auth_link, token)) return std::nullopt;
  auto rec = record::get_object(txn, t, link_key(project.id, token));
  if (!rec || rec->contains("usedAt") || record::str(*rec, "purpose") != core::auth::to_string(purpose) ||
      now >= record::num(*rec, "expiresAt"))
    return std::nullopt;
  auto user = get_user(txn, t, project.id, record::str(*rec, "userId"));
  // A link mailed to an address the user no longer has does not act on the account.
  if (!user || user->email != record::str(*rec, "email")) return std::nullopt;
  return user;
}

// Link requests of the project, sent or not.
void count_request(store::WriteTxn& txn, store::Table t, const std::string& pid) {
  const std::string key = project_record_key(pid, "stat", "link-requests");
  std::int64_t n = 0;
  if (auto raw = txn.get(t, key)) n = std::atoll(raw->c_str());
  txn.put(t, key, std::to_string(n + 1));
}

}  // namespace

core::Status note_link_request(App& app, const Project& project) {
  return app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    count_request(txn, app.auth_table, project.id);
    return {};
  });
}

core::Result<std::string> link_target(const Project& project, std::string_view requested) {
  const auto& allowed = project.settings.allowed_redirect_urls;
  if (requested.empty()) {
    if (allowed.empty())
      return core::make_error(
          "unprocessable",
          "the project has no allowed redirect URL for its email links; add one in its settings");
    return allowed.front();
  }
  if (!core::auth::is_allowed_redirect(project.settings, requested))
    return core::make_error("invalid_redirect",
                            "redirectUrl is not one of the project's allowed redirect URLs");
  return std::string(requested);
}

core::Result<std::string> sender_domain(App& app, const Project& project) {
  if (!project.settings.mail)
    return core::make_error(
        "unprocessable", "the project has no mail sender; set 'mail' (a verified domain and a from address)");
  auto name = mail::verified_domain_name(app, project.company_id, project.settings.mail->domain_id);
  if (!name) return name.error();
  const std::string& from = project.settings.mail->from;
  if (from.size() <= name->size() + 1 || from.compare(from.size() - name->size(), name->size(), *name) != 0 ||
      from[from.size() - name->size() - 1] != '@')
    return core::make_error("unprocessable", "the project's from address is not on its sending domain");
  return name;
}

core::Status send_link_mail(App& app, const Project& project, const std::string& domain_name,
                            const EndUser& user, LinkPurpose purpose, const std::string& target,
                            std::string_view locale) {
  const std::string token = core::make_token(core::TokenKind::auth_link, app.random);
  auto rendered = core::auth::render_link_mail(purpose, locale, project.settings.name,
                                               core::auth::link_url(target, token, purpose));
  if (!rendered) return rendered.error();
  const std::int64_t now = app.clock.now_ms();
  const auto& sender = *project.settings.mail;
  mail::OutgoingMail out;
  out.company_id = project.company_id;
  out.domain_id = sender.domain_id;
  out.domain_name = domain_name;
  out.from_header =
      sender.from_name.empty() ? sender.from : "\"" + sender.from_name + "\" <" + sender.from + ">";
  out.to = {user.email};
  out.subject = rendered->subject;
  out.content = mail::mail_content(rendered->subject, std::move(rendered->html), std::move(rendered->text));
  out.log_id = core::make_time_ordered_id("log_", now, app.random);
  out.job_id = core::make_id("job_", app.random);
  const std::string key = link_key(project.id, token);
  const std::int64_t expires_at = now + core::auth::link_lifetime_s(purpose) * 1000;
  bool queued = false;
  CORE_TRY(app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    record::put_object(txn, app.auth_table, key,
                       json::object{{"purpose", core::auth::to_string(purpose)},
                                    {"userId", user.id},
                                    {"email", user.email},
                                    {"createdAt", now},
                                    {"expiresAt", expires_at},
                                    {"mailLogId", out.log_id}});
    txn.put(app.auth_table, auth_expiry_key(expires_at, key), "");
    queued = mail::queue_mail_in(app, txn, out, now);
    count_request(txn, app.auth_table, project.id);
    return {};
  }));
  if (queued && app.mail_delivery) app.mail_delivery->wake();
  return {};
}

core::Result<std::optional<EndUser>> peek_link(App& app, const Project& project, std::string_view token,
                                               LinkPurpose purpose) {
  std::optional<EndUser> out;
  const std::int64_t now = app.clock.now_ms();
  CORE_TRY(app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    out = live_link_user(txn, app.auth_table, project, token, purpose, now);
    return {};
  }));
  return out;
}

core::Result<std::optional<EndUser>> use_link(App& app, const Project& project, std::string_view token,
                                              LinkPurpose purpose,
                                              const std::function<void(store::WriteTxn&, EndUser&)>& effect) {
  std::optional<EndUser> out;
  const std::int64_t now = app.clock.now_ms();
  CORE_TRY(app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    out = live_link_user(txn, app.auth_table, project, token, purpose, now);
    if (!out) return {};
    const std::string key = link_key(project.id, token);
    auto rec = record::get_object(txn, app.auth_table, key);
    (*rec)["usedAt"] = now;
    record::put_object(txn, app.auth_table, key, *rec);
    effect(txn, *out);
    put_user(txn, app.auth_table, *out);
    return {};
  }));
  return out;
}

}  // namespace edge::auth_projects
