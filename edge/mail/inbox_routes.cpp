// Mail: inbox (spec document 2). `{uid}` is the IMAP UID; `mailbox` (address) and `folder` (inbox, sent,
// trash) are required query parameters. Permission inbox.view, or `inbox.mailbox:<email>` for one mailbox.
// Read through Dovecot over IMAP as the master user (edge/mail/mailboxes.h); messages parsed by GMime.

#include <charconv>

#include "edge/app.h"
#include "edge/mail/mail_routes.h"
#include "edge/mail/mailboxes.h"
#include "edge/platform/envelope.h"
#include "native/mail/mime_parse.h"

namespace edge::mail {
namespace {

using native::imap::Folder;

// The mailbox and folder of an inbox call, checked: the caller's permission for that mailbox (403), the
// mailbox of this company (404), a known folder (400).
struct Target {
  std::string address;
  Folder folder = Folder::inbox;
  native::imap::ImapAccount account;
};

std::optional<Response> resolve(App& app, const Request& req, const MailContext& ctx, Target& out) {
  auto mailbox = req.query_param("mailbox");
  if (!mailbox || mailbox->empty()) return envelope_error(400, "query parameter 'mailbox' is required");
  auto folder = req.query_param("folder");
  if (!folder) return envelope_error(400, "query parameter 'folder' is required (inbox, sent or trash)");
  if (*folder == "inbox")
    out.folder = Folder::inbox;
  else if (*folder == "sent")
    out.folder = Folder::sent;
  else if (*folder == "trash")
    out.folder = Folder::trash;
  else
    return envelope_error(400, "query parameter 'folder' must be inbox, sent or trash");
  if (!ctx.principal().allows("inbox.view", *mailbox)) return missing_permission("inbox.view");
  auto rec = mailbox_by_address(app, ctx.co().id, *mailbox);
  if (!rec) return envelope_error(rec.error());
  out.address = std::string(rec->at("address").as_string());
  auto account = imap_account(app, out.address);
  if (!account) return envelope_error(503, account.error().message);
  out.account = std::move(*account);
  return std::nullopt;
}

std::optional<std::uint32_t> parse_uid(std::string_view text) {
  std::uint32_t uid = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), uid);
  if (ec != std::errc() || end != text.data() + text.size() || uid == 0) return std::nullopt;
  return uid;
}

// The platform's timestamp form (DECISIONS.md: milliseconds): IMAP dates come to the second.
std::string with_millis(std::string iso) {
  if (iso.size() == 20 && iso.back() == 'Z') iso.insert(19, ".000");
  return iso;
}

json::object summary_json(const native::imap::MessageSummary& m) {
  return json::object{{"uid", m.uid},  {"unread", m.unread},   {"from", m.from},
                      {"to", m.to},    {"subject", m.subject}, {"date", with_millis(m.date_iso)},
                      {"size", m.size}};
}

}  // namespace

void register_inbox_routes(App& app) {
  add_mail_route(app, "GET", "/inbox", "", [&app](Request& req, const MailContext& ctx) {
    Target t;
    if (auto refused = resolve(app, req, ctx, t)) return std::move(*refused);
    std::optional<bool> unread;
    if (auto u = req.query_param("unread")) {
      if (*u == "true")
        unread = true;
      else if (*u == "false")
        unread = false;
      else
        return envelope_error(400, "query parameter 'unread' must be true or false");
    }
    auto list = native::imap::list_messages(t.account, t.folder, unread);
    if (!list) return envelope_error(list.error());
    json::array out;
    for (const auto& m : *list) out.emplace_back(summary_json(m));
    Response r = envelope_ok(std::move(out));
    r.set_header("X-Total-Count", std::to_string(list->size()));
    return r;
  });

  add_mail_route(app, "GET", "/inbox/{uid}", "", [&app](Request& req, const MailContext& ctx) {
    Target t;
    if (auto refused = resolve(app, req, ctx, t)) return std::move(*refused);
    auto uid = parse_uid(req.param("uid"));
    if (!uid) return envelope_error(404, "message not found");
    auto raw = native::imap::fetch_message(t.account, t.folder, *uid);
    if (!raw)
      return envelope_error(
          raw.error().code == "not_found" ? core::make_error("not_found", "message not found") : raw.error());
    auto parsed = native::mail::parse_mime(*raw);
    if (!parsed) return envelope_error(502, "the stored message cannot be parsed: " + parsed.error().message);
    json::array attachments;
    for (const auto& a : parsed->attachments)
      attachments.emplace_back(json::object{{"filename", a.filename},
                                            {"contentType", a.content_type},
                                            {"disposition", a.disposition},
                                            {"contentId", a.content_id},
                                            {"size", a.size}});
    return envelope_ok(json::object{{"uid", *uid},
                                    {"mailbox", t.address},
                                    {"folder", native::imap::folder_name(t.folder)},
                                    {"messageId", parsed->message_id},
                                    {"from", parsed->from},
                                    {"to", parsed->to},
                                    {"cc", parsed->cc},
                                    {"replyTo", parsed->reply_to},
                                    {"subject", parsed->subject},
                                    {"date", parsed->date_iso},
                                    {"text", parsed->text},
                                    {"html", parsed->html},
                                    {"attachments", std::move(attachments)}});
  });

  add_mail_route(app, "POST", "/inbox/{uid}/read", "", [&app](Request& req, const MailContext& ctx) {
    Target t;
    if (auto refused = resolve(app, req, ctx, t)) return std::move(*refused);
    auto uid = parse_uid(req.param("uid"));
    if (!uid) return envelope_error(404, "message not found");
    if (auto st = native::imap::mark_read(t.account, t.folder, *uid); !st.ok())
      return envelope_error(
          st.error().code == "not_found" ? core::make_error("not_found", "message not found") : st.error());
    return envelope_ok(json::object{{"uid", *uid}, {"unread", false}});
  });

  add_mail_route(app, "DELETE", "/inbox/{uid}", "", [&app](Request& req, const MailContext& ctx) {
    Target t;
    if (auto refused = resolve(app, req, ctx, t)) return std::move(*refused);
    auto uid = parse_uid(req.param("uid"));
    if (!uid) return envelope_error(404, "message not found");
    if (auto st = native::imap::move_to_trash(t.account, t.folder, *uid); !st.ok())
      return envelope_error(
          st.error().code == "not_found" ? core::make_error("not_found", "message not found") : st.error());
    // In Trash itself the message is gone for good, as in mail clients.
    return envelope_ok(
        json::object{{"uid", *uid}, {"movedTo", t.folder == Folder::trash ? "deleted" : "trash"}});
  });
}

}  // namespace edge::mail
