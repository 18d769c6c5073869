#include "core/mail/send_request.h"

#include <algorithm>

#include "core/ascii.h"
#include "core/bytes.h"
#include "core/date.h"
#include "core/json.h"
#include "core/validate.h"

namespace core::mail {
namespace {

namespace json = boost::json;

Error field_error(std::string_view field, std::string_view what) {
  return make_error("invalid_field", "field '" + std::string(field) + "' " + std::string(what));
}

// The address with its domain lower-cased (domains compare without case; local parts are the receiver's).
std::string canonical_address(std::string_view address) {
  auto at = address.rfind('@');
  return std::string(address.substr(0, at + 1)) + to_ascii_lower(address.substr(at + 1));
}

Result<std::vector<std::string>> recipients(const json::object& body) {
  auto* v = body.if_contains("to");
  if (!v || v->is_null()) return field_error("to", "is required");
  std::vector<std::string> given;
  if (v->is_string()) {
    given.emplace_back(v->get_string());
  } else if (v->is_array()) {
    for (const auto& e : v->get_array()) {
      if (!e.is_string()) return field_error("to", "must be a string or an array of strings");
      given.emplace_back(e.get_string());
    }
  } else {
    return field_error("to", "must be a string or an array of strings");
  }
  if (given.empty()) return field_error("to", "must name at least one recipient");
  std::vector<std::string> out;
  for (const auto& text : given) {
    auto a = parse_mail_address(text);
    if (!a) return make_error("invalid_email", "field 'to': " + a.error().message);
    if (std::find(out.begin(), out.end(), a->address) == out.end()) out.push_back(a->address);
  }
  if (out.size() > kMaxRecipients)
    return field_error("to", "may name at most " + std::to_string(kMaxRecipients) + " recipients");
  return out;
}

Result<std::vector<SendAttachment>> attachments(const json::object& body) {
  std::vector<SendAttachment> out;
  auto* v = body.if_contains("attachments");
  if (!v || v->is_null()) return out;
  if (!v->is_array()) return field_error("attachments", "must be an array");
  std::size_t total = 0;
  for (std::size_t i = 0; i < v->get_array().size(); ++i) {
    const auto& e = v->get_array()[i];
    const std::string field = "attachments[" + std::to_string(i) + "]";
    if (!e.is_object()) return field_error(field, "must be an object");
    const auto& o = e.get_object();
    auto filename = core::require_string(o, "filename");
    if (!filename || filename->empty()) return field_error(field + ".filename", "is required");
    if (filename->find_first_of("\r\n") != std::string::npos)
      return field_error(field + ".filename", "must be one line");
    auto type = core::optional_string(o, "contentType");
    if (!type) return field_error(field + ".contentType", "must be a string");
    std::string content_type = type->value_or("application/octet-stream");
    if (content_type.find('/') == std::string::npos ||
        content_type.find_first_of("\r\n") != std::string::npos)
      return field_error(field + ".contentType", "must be a media type such as application/pdf");
    auto content = core::require_string(o, "content");
    if (!content) return field_error(field + ".content", "is required (base64)");
    auto bytes = core::base64_decode(*content);
    if (!bytes) return field_error(field + ".content", "must be base64");
    total += bytes->size();
    if (total > kMaxAttachmentBytes)
      return make_error("payload_too_large", "attachments exceed 25 MB per message");
    out.push_back({std::move(*filename), std::move(content_type), std::string(bytes->begin(), bytes->end())});
  }
  return out;
}

}  // namespace

Result<MailAddress> parse_mail_address(std::string_view text) {
  std::string_view t = trim_ascii_space(text);
  MailAddress out;
  if (!t.empty() && t.back() == '>') {
    auto open = t.rfind('<');
    if (open == std::string_view::npos) return make_error("invalid_email", "unbalanced '<' in an address");
    std::string_view name = trim_ascii_space(t.substr(0, open));
    if (name.size() >= 2 && name.front() == '"' && name.back() == '"') name = name.substr(1, name.size() - 2);
    if (name.find_first_of("\r\n\"<>") != std::string_view::npos)
      return make_error("invalid_email", "a display name may not hold quotes, angle brackets or line breaks");
    out.display_name = std::string(name);
    t = t.substr(open + 1, t.size() - open - 2);
  }
  if (auto st = validate_email(t); !st.ok())
    return make_error("invalid_email",
                      "'" + std::string(t.size() > 254 ? t.substr(0, 254) : t) + "' is not an email address");
  out.address = canonical_address(t);
  return out;
}

Result<SendRequest> parse_send_request(const json::object& body, std::int64_t now_ms) {
  SendRequest r;
  auto domain = core::require_string(body, "domainId");
  if (!domain) return domain.error();
  r.domain_id = std::move(*domain);
  auto from = core::require_string(body, "from");
  if (!from) return from.error();
  auto from_address = parse_mail_address(*from);
  if (!from_address) return make_error("invalid_email", "field 'from': " + from_address.error().message);
  r.from = std::move(*from_address);
  auto to = recipients(body);
  if (!to) return to.error();
  r.to = std::move(*to);
  auto reply_to = core::optional_string(body, "replyTo");
  if (!reply_to) return reply_to.error();
  if (*reply_to) {
    auto a = parse_mail_address(**reply_to);
    if (!a) return make_error("invalid_email", "field 'replyTo': " + a.error().message);
    r.reply_to = std::move(*a);
  }
  auto locale = core::optional_string(body, "locale");
  if (!locale) return locale.error();
  r.locale = locale->value_or("");

  auto template_id = core::optional_string(body, "templateId");
  if (!template_id) return template_id.error();
  r.template_id = std::move(*template_id);
  for (const char* field : {"subject", "html", "text"}) {
    auto v = core::optional_string(body, field);
    if (!v) return v.error();
    if (!*v) continue;
    if (r.template_id)
      return field_error(field, "cannot be given with 'templateId' (the template supplies the content)");
    (field[0] == 's' ? r.subject : field[0] == 'h' ? r.html : r.text) = std::move(**v);
  }
  if (auto* v = body.if_contains("variables"); v && !v->is_null()) {
    if (!v->is_object()) return field_error("variables", "must be an object");
    if (!r.template_id) return field_error("variables", "needs 'templateId'");
    r.variables = v->get_object();
  }
  if (!r.template_id) {
    if (r.subject.empty()) return field_error("subject", "is required without 'templateId'");
    if (r.html.empty() && r.text.empty())
      return make_error("invalid_field", "field 'html' or 'text' is required without 'templateId'");
    if (r.subject.find_first_of("\r\n") != std::string::npos)
      return field_error("subject", "must be one line");
  }

  auto files = attachments(body);
  if (!files) return files.error();
  r.attachments = std::move(*files);

  auto scheduled = core::optional_string(body, "scheduledAt");
  if (!scheduled) return scheduled.error();
  if (*scheduled) {
    auto at = parse_timestamp(**scheduled);
    if (!at)
      return field_error("scheduledAt", "must be an ISO 8601 timestamp such as 2026-11-22T13:16:56.000Z");
    if (*at - now_ms > kMaxScheduleAheadMs) return field_error("scheduledAt", "may be at most 30 days ahead");
    r.scheduled_at_ms = std::max(*at, now_ms);
  }
  return r;
}

Status check_from_domain(const MailAddress& from, std::string_view domain_name) {
  if (from.domain() == domain_name) return {};
  return make_error("unprocessable", "'from' address " + from.address + " is not on the sending domain " +
                                         std::string(domain_name));
}

}  // namespace core::mail
