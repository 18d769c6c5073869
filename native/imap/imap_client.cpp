#include "native/imap/imap_client.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <utility>

#include "native/imap/imap_connection.h"
#include "native/imap/summary_headers.h"

namespace native::imap {
namespace {

// Fetched for every listed message; the header fields are decoded by decode_summary_headers.
constexpr std::string_view kSummaryItems =
    "(UID FLAGS RFC822.SIZE INTERNALDATE BODY.PEEK[HEADER.FIELDS (FROM TO SUBJECT DATE)])";

core::Error failed(std::string_view what, const CommandResult& result) {
  std::string reply = result.completion.status;
  if (!result.completion.code.empty()) reply += " [" + result.completion.code + "]";
  if (!result.completion.text.empty()) reply += " " + result.completion.text;
  return core::make_error("imap_error", "IMAP " + std::string(what) + " failed: " + reply);
}

core::Error not_found(Folder folder, std::uint32_t uid) {
  return core::make_error("not_found",
                          "no message with UID " + std::to_string(uid) + " in " + folder_name(folder));
}

// The command's name for messages: "SELECT", "UID FETCH".
std::string command_name(const std::string& command) {
  auto end = command.find(' ', command.starts_with("UID ") ? 4 : 0);
  return command.substr(0, end);
}

// Runs `command` and turns a NO or BAD completion into `imap_error`.
core::Result<CommandResult> run_ok(ImapConnection& connection, const std::string& command) {
  auto result = connection.run(command);
  if (!result.ok()) return result.error();
  if (!result->ok()) return failed(command_name(command), *result);
  return result;
}

// A connection with `folder` selected: read-only (EXAMINE) for reading, so nothing can change a flag by
// accident, or read-write (SELECT).
core::Result<ImapConnection> open_folder(const ImapAccount& account, Folder folder, bool writable) {
  auto connection = ImapConnection::open(account);
  if (!connection.ok()) return connection.error();
  auto selected = run_ok(*connection, std::string(writable ? "SELECT " : "EXAMINE ") + folder_name(folder));
  if (!selected.ok()) return selected.error();
  return connection;
}

bool has_flag(const ImapValue* flags, std::string_view flag) {
  if (flags == nullptr || flags->kind != ImapValue::Kind::list) return false;
  return std::any_of(flags->items.begin(), flags->items.end(), [&](const ImapValue& item) {
    if (item.kind != ImapValue::Kind::atom || item.text.size() != flag.size()) return false;
    for (std::size_t i = 0; i < flag.size(); ++i)
      if (std::tolower(static_cast<unsigned char>(item.text[i])) !=
          std::tolower(static_cast<unsigned char>(flag[i])))
        return false;
    return true;
  });
}

std::optional<std::uint32_t> fetched_uid(const ImapResponse& response) {
  if (response.name != "FETCH") return std::nullopt;
  const ImapValue* uid = fetch_item(response, "UID");
  return uid != nullptr ? uid->number() : std::nullopt;
}

// UIDs as an IMAP sequence set with ranges: {1,2,3,7} -> "1:3,7".
std::string uid_set(std::vector<std::uint32_t> uids) {
  std::sort(uids.begin(), uids.end());
  uids.erase(std::unique(uids.begin(), uids.end()), uids.end());
  std::string out;
  for (std::size_t i = 0; i < uids.size();) {
    std::size_t j = i;
    while (j + 1 < uids.size() && uids[j + 1] == uids[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(uids[i]);
    if (j > i) out += ':' + std::to_string(uids[j]);
    i = j + 1;
  }
  return out;
}

std::optional<MessageSummary> summary_of(const ImapResponse& response) {
  auto uid = fetched_uid(response);
  const ImapValue* headers = fetch_item_prefix(response, "BODY[HEADER.FIELDS");
  const ImapValue* size = fetch_item(response, "RFC822.SIZE");
  if (!uid || headers == nullptr || size == nullptr || !size->number())
    return std::nullopt;  // an unsolicited FETCH (a flag changed by another session), not our answer
  const ImapValue* internal_date = fetch_item(response, "INTERNALDATE");
  std::optional<std::time_t> arrived;
  if (internal_date != nullptr && internal_date->kind == ImapValue::Kind::string)
    arrived = parse_internal_date(internal_date->text);
  auto decoded =
      decode_summary_headers(headers->kind == ImapValue::Kind::string ? headers->text : "", arrived);
  MessageSummary summary;
  summary.uid = *uid;
  summary.unread = !has_flag(fetch_item(response, "FLAGS"), "\\Seen");
  summary.from = std::move(decoded.from);
  summary.to = std::move(decoded.to);
  summary.subject = std::move(decoded.subject);
  summary.date_iso = std::move(decoded.date_iso);
  summary.size = *size->number();
  return summary;
}

}  // namespace

const char* folder_name(Folder folder) {
  switch (folder) {
    case Folder::inbox:
      return "INBOX";
    case Folder::sent:
      return "Sent";
    case Folder::trash:
      return "Trash";
  }
  return "INBOX";
}

core::Result<std::vector<MessageSummary>> list_messages(const ImapAccount& account, Folder folder,
                                                        std::optional<bool> unread) {
  auto connection = open_folder(account, folder, false);
  if (!connection.ok()) return connection.error();
  std::string set = "1:*";
  if (unread) {
    auto search = run_ok(*connection, *unread ? "UID SEARCH UNSEEN" : "UID SEARCH SEEN");
    if (!search.ok()) return search.error();
    std::vector<std::uint32_t> uids;
    for (const auto& response : search->untagged)
      if (response.name == "SEARCH")
        for (const auto& value : response.data)
          if (auto uid = value.number()) uids.push_back(*uid);
    if (uids.empty()) {
      connection->logout();
      return std::vector<MessageSummary>();
    }
    set = uid_set(std::move(uids));
  }
  auto fetch = run_ok(*connection, "UID FETCH " + set + " " + std::string(kSummaryItems));
  if (!fetch.ok()) return fetch.error();
  connection->logout();

  std::map<std::uint32_t, MessageSummary, std::greater<>> by_uid;  // newest first, each UID once
  for (const auto& response : fetch->untagged) {
    auto summary = summary_of(response);
    // The flags fetched are newer than the search: a message read in between no longer matches.
    if (summary && (!unread || summary->unread == *unread)) by_uid[summary->uid] = std::move(*summary);
  }
  std::vector<MessageSummary> out;
  out.reserve(by_uid.size());
  for (auto& [uid, summary] : by_uid) out.push_back(std::move(summary));
  return out;
}

core::Result<std::string> fetch_message(const ImapAccount& account, Folder folder, std::uint32_t uid) {
  if (uid == 0) return not_found(folder, uid);
  auto connection = open_folder(account, folder, false);
  if (!connection.ok()) return connection.error();
  auto fetch = run_ok(*connection, "UID FETCH " + std::to_string(uid) + " (UID BODY.PEEK[])");
  if (!fetch.ok()) return fetch.error();
  connection->logout();
  for (auto& response : fetch->untagged) {
    if (fetched_uid(response) != uid) continue;
    const ImapValue* body = fetch_item(response, "BODY[]");
    if (body != nullptr && body->kind == ImapValue::Kind::string) return body->text;
  }
  return not_found(folder, uid);
}

core::Status mark_read(const ImapAccount& account, Folder folder, std::uint32_t uid) {
  if (uid == 0) return not_found(folder, uid);
  auto connection = open_folder(account, folder, true);
  if (!connection.ok()) return connection.error();
  // Dovecot answers a STORE with a FETCH only for messages whose flags changed: no answer means unknown
  // or already read, which a search tells apart.
  auto store = run_ok(*connection, "UID STORE " + std::to_string(uid) + " +FLAGS (\\Seen)");
  if (!store.ok()) return store.error();
  bool changed = std::any_of(store->untagged.begin(), store->untagged.end(),
                             [&](const ImapResponse& r) { return fetched_uid(r) == uid; });
  if (!changed) {
    auto search = run_ok(*connection, "UID SEARCH UID " + std::to_string(uid));
    if (!search.ok()) return search.error();
    bool exists = std::any_of(search->untagged.begin(), search->untagged.end(), [&](const ImapResponse& r) {
      return r.name == "SEARCH" &&
             std::any_of(r.data.begin(), r.data.end(), [&](const ImapValue& v) { return v.number() == uid; });
    });
    connection->logout();
    if (!exists) return not_found(folder, uid);
    return {};
  }
  connection->logout();
  return {};
}

core::Status move_to_trash(const ImapAccount& account, Folder folder, std::uint32_t uid) {
  if (uid == 0) return not_found(folder, uid);
  auto connection = open_folder(account, folder, true);
  if (!connection.ok()) return connection.error();
  std::string id = std::to_string(uid);
  CommandResult done;
  if (folder == Folder::trash) {
    auto store = run_ok(*connection, "UID STORE " + id + " +FLAGS.SILENT (\\Deleted)");
    if (!store.ok()) return store.error();
    auto expunge = run_ok(*connection, "UID EXPUNGE " + id);  // UIDPLUS: other \Deleted messages stay
    if (!expunge.ok()) return expunge.error();
    done = std::move(*expunge);
  } else {
    auto move = run_ok(*connection, "UID MOVE " + id + " " + folder_name(Folder::trash));
    if (!move.ok()) return move.error();
    done = std::move(*move);
  }
  connection->logout();
  // Dovecot completes both with OK for an unknown UID ("No messages found" for MOVE); a message that was
  // there leaves with an EXPUNGE response.
  bool removed = std::any_of(done.untagged.begin(), done.untagged.end(), [](const ImapResponse& r) {
    return r.name == "EXPUNGE" || r.name == "VANISHED";
  });
  if (!removed) return not_found(folder, uid);
  return {};
}

core::Result<std::uint32_t> append_message(const ImapAccount& account, Folder folder,
                                           std::string_view message, bool seen) {
  if (message.find('\0') != std::string_view::npos)
    return core::make_error("imap_error", "IMAP APPEND failed: the message holds a NUL byte");
  auto connection = ImapConnection::open(account);
  if (!connection.ok()) return connection.error();
  std::string command = std::string("APPEND ") + folder_name(folder) + (seen ? " (\\Seen)" : " ()");
  auto append = connection->run_with_literal(command, message);
  if (!append.ok()) return append.error();
  connection->logout();
  const auto& code = append->completion.code;
  if (!append->ok()) {
    if (code == "OVERQUOTA" || code.starts_with("OVERQUOTA "))
      return core::make_error("over_quota",
                              "the mailbox quota cannot take this message: " + append->completion.text);
    return failed("APPEND", *append);
  }
  // RFC 4315: OK [APPENDUID <uidvalidity> <uid>]
  ImapValue uid{ImapValue::Kind::atom, code.substr(code.rfind(' ') + 1), {}};
  if (!code.starts_with("APPENDUID ") || !uid.number())
    return core::make_error("imap_error", "IMAP APPEND: the server did not report the new UID");
  return *uid.number();
}

}  // namespace native::imap
