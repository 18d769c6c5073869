#include "edge/mail/delivery_worker.h"

#include <spdlog/spdlog.h>

#include <charconv>

#include "core/bytes.h"
#include "core/date.h"
#include "core/mail/delivery.h"
#include "core/mail/send_request.h"
#include "edge/app.h"
#include "edge/mail/domains.h"
#include "edge/mail/mail_events.h"
#include "edge/mail/mail_store.h"
#include "edge/mail/suppressions.h"
#include "edge/platform/record_json.h"
#include "native/mail/dkim_signer.h"
#include "native/mail/mime_message.h"
#include "native/mail/mx_targets.h"
#include "native/mail/smtp_client.h"

namespace edge::mail {
namespace {

using core::mail::RecipientStatus;
using native::mail::SmtpOutcome;

constexpr std::size_t kQueueTarget = 512;  // jobs claimed ahead of the delivery threads

struct JobKey {
  std::int64_t due = 0;
  std::string company_id, log_id;
  std::size_t recipient = 0;
};

// outbox/<due>/<cid>/<log id>/<index>
std::optional<JobKey> parse_job_key(std::string_view key) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= key.size(); ++i)
    if (i == key.size() || key[i] == '/') {
      parts.push_back(key.substr(start, i - start));
      start = i + 1;
    }
  if (parts.size() != 5 || parts[0] != "outbox") return std::nullopt;
  JobKey k;
  k.company_id = std::string(parts[2]);
  k.log_id = std::string(parts[3]);
  if (std::from_chars(parts[1].data(), parts[1].data() + parts[1].size(), k.due).ec != std::errc() ||
      std::from_chars(parts[4].data(), parts[4].data() + parts[4].size(), k.recipient).ec != std::errc())
    return std::nullopt;
  return k;
}

// A relay given as `host:port` (or `host`, port 25).
native::mail::SmtpTarget relay_target(const std::string& relay) {
  auto colon = relay.rfind(':');
  if (colon == std::string::npos) return {relay, 25};
  int port = 25;
  std::from_chars(relay.data() + colon + 1, relay.data() + relay.size(), port);
  return {relay.substr(0, colon), port};
}

std::string helo_name(const App& app) {
  if (!app.config.mail.helo_name.empty()) return app.config.mail.helo_name;
  std::string_view url = app.config.mail_url;
  if (auto p = url.find("://"); p != std::string_view::npos) url.remove_prefix(p + 3);
  url = url.substr(0, url.find_first_of(":/"));
  return url.empty() ? "localhost" : std::string(url);
}

// What one attempt came to, before it is recorded.
struct Attempt {
  SmtpOutcome outcome;
  std::string server;  // host:port that answered, empty when none did
};

core::Result<std::string> build_message(App& app, const json::object& log, const json::object& content,
                                        const Domain& domain) {
  native::mail::OutgoingMessage m;
  m.from = record::str(log, "from");
  m.to = record::strs(log, "to");
  m.reply_to = record::str(content, "replyTo");
  m.subject = record::str(content, "subject");
  m.html = record::str(content, "html");
  m.text = record::str(content, "text");
  m.message_id = record::str(log, "messageId");
  auto created = core::parse_timestamp(record::str(log, "createdAt"));
  m.date_ms = created ? *created : app.clock.now_ms();
  m.headers.emplace_back("X-Mail-Log-Id", record::str(log, "id"));
  if (auto* files = content.if_contains("attachments"); files && files->is_array())
    for (const auto& f : files->get_array()) {
      if (!f.is_object()) continue;
      auto bytes = core::base64_decode(record::str(f.get_object(), "content"));
      if (!bytes) return core::make_error("invalid_message", "stored attachment is not base64");
      m.attachments.push_back({record::str(f.get_object(), "filename"),
                               record::str(f.get_object(), "contentType"), core::to_string(*bytes)});
    }
  auto mime = native::mail::build_mime(m);
  if (!mime) return mime.error();
  auto pem = dkim_private_key(app, domain);
  if (!pem) return pem.error();
  return native::mail::dkim_sign(*mime, {domain.name, core::mail::kDkimSelectors[0], *pem});
}

Attempt attempt_delivery(App& app, std::string_view from, const std::string& rcpt,
                         const std::string& message) {
  std::vector<native::mail::SmtpTarget> targets;
  if (!app.config.mail.relay.empty()) {
    targets.push_back(relay_target(app.config.mail.relay));
  } else {
    std::string domain = rcpt.substr(rcpt.rfind('@') + 1);
    auto mx = native::mail::mx_targets(*app.resolver, domain);
    if (!mx) {
      // A null MX says the domain takes no mail: final. Anything else (DNS down) may pass.
      bool final = mx.error().code == "null_mx";
      return {{final ? SmtpOutcome::Kind::permanent : SmtpOutcome::Kind::transient, 0, mx.error().message},
              ""};
    }
    targets = std::move(*mx);
  }
  Attempt last;
  last.outcome.reply = "no mail server to try";
  for (const auto& t : targets) {
    last.outcome = native::mail::smtp_send(
        t, from, rcpt, message, std::chrono::milliseconds(app.config.mail.smtp_timeout_ms), helo_name(app));
    last.server = t.host + ":" + std::to_string(t.port);
    // The next MX is tried only when this one gave no answer at all (RFC 5321 §5.1).
    if (last.outcome.code != 0) break;
  }
  return last;
}

std::string describe(const Attempt& a) {
  // The reply carries its code ("550 5.1.1 ..."); without an answer it is curl's reason.
  std::string s = a.outcome.reply.empty() ? std::to_string(a.outcome.code) : a.outcome.reply;
  if (!a.server.empty()) s += " (" + a.server + ")";
  return s;
}

}  // namespace

DeliveryWorker::DeliveryWorker(App& app) : app_(app) {}

DeliveryWorker::~DeliveryWorker() {
  stop();
}

void DeliveryWorker::start() {
  if (rechecker_.joinable()) return;
  rechecker_ = std::thread([this] { recheck_loop(); });
  if (app_.config.mail.delivery_workers == 0) return;
  dispatcher_ = std::thread([this] { dispatch_loop(); });
  for (std::size_t i = 0; i < app_.config.mail.delivery_workers; ++i)
    workers_.emplace_back([this] { delivery_loop(); });
}

void DeliveryWorker::wake() {
  {
    std::lock_guard lock(mutex_);
    woken_ = true;
  }
  wake_dispatcher_.notify_one();
}

void DeliveryWorker::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  wake_dispatcher_.notify_all();
  wake_workers_.notify_all();
  wake_rechecker_.notify_all();
  if (dispatcher_.joinable()) dispatcher_.join();
  if (rechecker_.joinable()) rechecker_.join();
  for (auto& t : workers_) t.join();
  workers_.clear();
}

void DeliveryWorker::dispatch_loop() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    if (!woken_) wake_dispatcher_.wait_for(lock, std::chrono::seconds(1));
    woken_ = false;
    if (stopping_) break;
    if (queue_.size() >= kQueueTarget) continue;
    lock.unlock();
    const std::string horizon = "outbox/" + due_text(app_.clock.now_ms() + 1);
    std::vector<std::string> due;
    auto st = app_.kv->read([&](const store::ReadTxn& txn) -> core::Status {
      due.clear();
      txn.scan(app_.mail_table, "outbox/", [&](std::string_view key, std::string_view) {
        if (key >= horizon) return false;
        due.emplace_back(key);
        return due.size() < 4 * kQueueTarget;
      });
      return {};
    });
    if (!st.ok()) spdlog::warn("reading the mail outbox failed: {}", st.error().message);
    lock.lock();
    for (auto& key : due)
      if (queue_.size() < kQueueTarget && claimed_.insert(key).second) queue_.push_back(std::move(key));
    if (!queue_.empty()) wake_workers_.notify_all();
  }
}

void DeliveryWorker::recheck_loop() {
  const auto interval = std::chrono::seconds(std::max<std::int64_t>(1, app_.config.mail.recheck_interval_s));
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    // Its own condition: the sends that wake the dispatcher must not trigger DNS lookups.
    if (wake_rechecker_.wait_for(lock, interval, [&] { return stopping_; })) break;
    lock.unlock();
    if (auto checked = recheck_pending_domains(app_); !checked)
      spdlog::warn("re-checking pending domains failed: {}", checked.error().message);
    lock.lock();
  }
}

void DeliveryWorker::delivery_loop() {
  std::unique_lock lock(mutex_);
  while (true) {
    wake_workers_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (stopping_) return;
    std::string key = std::move(queue_.front());
    queue_.pop_front();
    const bool refill = queue_.size() < kQueueTarget / 2;
    lock.unlock();
    if (refill) wake();
    deliver(key);
    lock.lock();
    claimed_.erase(key);
  }
}

void DeliveryWorker::deliver(const std::string& outbox_key) {
  auto job = parse_job_key(outbox_key);
  if (!job) {
    spdlog::error("dropping malformed mail outbox key {}", outbox_key);
    (void)app_.kv->write([&](store::WriteTxn& txn) -> core::Status {
      txn.erase(app_.mail_table, outbox_key);
      return {};
    });
    return;
  }
  const std::string log_key = company_key(job->company_id, "log", job->log_id);
  std::optional<json::object> log, content;
  auto st = app_.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    if (!txn.get(app_.mail_table, outbox_key)) return core::make_error("not_found", "job already done");
    log = get_object(txn, app_.mail_table, log_key);
    content = get_object(txn, app_.mail_table, company_key(job->company_id, "body", job->log_id));
    return {};
  });
  if (!st.ok()) {
    if (st.error().code != "not_found")
      spdlog::warn("reading mail job {} failed: {}", outbox_key, st.error().message);
    return;
  }
  std::string rcpt;
  int attempts = 0;
  if (log)
    if (auto* rs = log->if_contains("recipients");
        rs && rs->is_array() && job->recipient < rs->get_array().size()) {
      const auto& r = rs->get_array()[job->recipient].get_object();
      rcpt = record::str(r, "address");
      attempts = static_cast<int>(record::num(r, "attempts"));
    }

  Attempt attempt;
  if (!log || !content || rcpt.empty()) {
    attempt.outcome = {SmtpOutcome::Kind::permanent, 0, "the mail log of this job is gone"};
  } else {
    auto domain = find_domain(app_, job->company_id, record::str(*log, "domainId"));
    core::Result<std::string> message =
        domain ? build_message(app_, *log, *content, *domain) : core::Result<std::string>(domain.error());
    if (!message) {
      attempt.outcome = {SmtpOutcome::Kind::permanent, 0,
                         "cannot build the message: " + message.error().message};
    } else {
      auto from = core::mail::parse_mail_address(record::str(*log, "from"));
      attempt = attempt_delivery(app_, from ? from->address : std::string(), rcpt, *message);
    }
  }
  ++attempts;

  const std::int64_t now = app_.clock.now_ms();
  core::mail::RetrySchedule schedule;
  if (!app_.config.mail.retry_delays_ms.empty()) schedule.delays_ms = app_.config.mail.retry_delays_ms;
  auto write = app_.kv->write([&](store::WriteTxn& txn) -> core::Status {
    if (!txn.get(app_.mail_table, outbox_key)) return {};  // recorded by another attempt meanwhile
    txn.erase(app_.mail_table, outbox_key);
    auto current = get_object(txn, app_.mail_table, log_key);
    if (!current) return {};
    std::vector<MailEvent> events;
    RecipientStatus status = RecipientStatus::queued;
    const std::string detail = describe(attempt);
    switch (attempt.outcome.kind) {
      case SmtpOutcome::Kind::delivered:
        status = RecipientStatus::delivered;
        events.push_back({"sent", job->log_id, rcpt, detail, now});
        events.push_back({"delivered", job->log_id, rcpt, detail, now});
        break;
      case SmtpOutcome::Kind::transient:
        if (auto delay = core::mail::next_retry_delay(schedule, attempts)) {
          status = RecipientStatus::deferred;
          events.push_back({"deferred", job->log_id, rcpt, detail, now});
          txn.put(app_.mail_table,
                  mail::outbox_key(now + *delay, job->company_id, job->log_id, job->recipient), "");
        } else {
          status = RecipientStatus::bounced;
          events.push_back({"bounced", job->log_id, rcpt,
                            "gave up after " + std::to_string(attempts) + " attempts; last answer: " + detail,
                            now});
        }
        break;
      case SmtpOutcome::Kind::permanent:
        status = RecipientStatus::bounced;
        events.push_back({"bounced", job->log_id, rcpt, detail, now});
        // A hard bounce lists the address: later sends to it are skipped (document 2).
        if (attempt.outcome.code >= 500)
          add_suppression(app_, txn, job->company_id, rcpt, "bounce",
                          json::object{{"event", "bounced"}, {"mailLogId", job->log_id}, {"detail", detail}},
                          now);
        break;
    }
    auto& recipients = (*current)["recipients"].as_array();
    std::vector<RecipientStatus> statuses;
    for (std::size_t i = 0; i < recipients.size(); ++i) {
      auto& r = recipients[i].as_object();
      if (i == job->recipient) {
        r["status"] = core::mail::to_string(status);
        r["attempts"] = attempts;
        r["lastAnswer"] = detail;
      }
      statuses.push_back(
          core::mail::parse_recipient_status(record::str(r, "status")).value_or(RecipientStatus::queued));
    }
    (*current)["status"] = core::mail::to_string(core::mail::log_status(statuses));
    auto& timeline = (*current)["events"].as_array();
    for (const auto& e : events) timeline.emplace_back(e.to_json());
    const bool done = std::none_of(statuses.begin(), statuses.end(), [](RecipientStatus s) {
      return s == RecipientStatus::queued || s == RecipientStatus::deferred;
    });
    put_object(txn, app_.mail_table, log_key, *current);
    if (done) txn.erase(app_.mail_table, company_key(job->company_id, "body", job->log_id));
    record_events(app_, txn, job->company_id, events);
    return {};
  });
  if (!write.ok()) spdlog::error("recording delivery of {} failed: {}", outbox_key, write.error().message);
}

}  // namespace edge::mail
