#include "native/mail/mime_message.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "core/ascii.h"
#include "core/validate.h"
#include "native/mail/gmime_support.h"
#include "native/mail/line_breaks.h"

namespace native::mail {
namespace {

using gmime::Ref;

core::Error invalid(std::string message) {
  return core::make_error("invalid_message", std::move(message));
}

// A header value may not break the header block: CR and LF would end the field (header injection), NUL
// ends the C string GMime sees.
bool breaks_header(std::string_view value) {
  return value.find_first_of(std::string_view("\r\n\0", 3)) != std::string_view::npos;
}

bool is_ascii(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

// RFC 5322 §3.2.3 atext.
bool is_atext(char c) {
  return core::is_ascii_alnum(c) || std::string_view("!#$%&'*+-/=?^_`{|}~").find(c) != std::string_view::npos;
}

// RFC 5322 dot-atom-text: atoms of atext joined by single dots.
bool is_dot_atom(std::string_view text) {
  if (text.empty() || text.front() == '.' || text.back() == '.') return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '.') {
      if (text[i - 1] == '.') return false;
    } else if (!is_atext(text[i])) {
      return false;
    }
  }
  return true;
}

core::Status check_message_id(std::string_view id) {
  auto at = id.find('@');
  if (id.size() > 900 || at == std::string_view::npos || !is_dot_atom(id.substr(0, at)) ||
      !is_dot_atom(id.substr(at + 1)))
    return invalid("message_id must be id-left@id-right (dot-atoms) without angle brackets");
  return {};
}

// RFC 5322 §3.6.8 field-name: printable ASCII except ':'.
bool is_field_name(std::string_view name) {
  return !name.empty() && name.size() <= 76 &&
         std::all_of(name.begin(), name.end(), [](char c) { return c > ' ' && c < 127 && c != ':'; });
}

// Fields build_mime writes itself; one given again would duplicate or contradict them.
bool is_reserved_field(std::string_view name) {
  static constexpr std::array<std::string_view, 11> kReserved = {
      "from",    "sender", "to",         "cc",           "bcc",           "reply-to",
      "subject", "date",   "message-id", "mime-version", "dkim-signature"};
  const std::string lower = core::to_ascii_lower(name);
  return lower.starts_with("content-") ||
         std::find(kReserved.begin(), kReserved.end(), lower) != kReserved.end();
}

// One mailbox, "Name <addr>" or "addr", as a GMime address whose display name will be encoded as UTF-8.
core::Result<Ref<InternetAddress>> parse_mailbox(std::string_view text, const std::string& field) {
  if (breaks_header(text)) return invalid(field + " must not contain CR, LF or NUL");
  Ref<InternetAddressList> list(internet_address_list_parse(nullptr, std::string(text).c_str()));
  if (list == nullptr || internet_address_list_length(list.get()) != 1)
    return invalid(field + " must be exactly one address");
  InternetAddress* address = internet_address_list_get_address(list.get(), 0);
  if (!INTERNET_ADDRESS_IS_MAILBOX(address)) return invalid(field + " must be a mailbox, not a group");
  const char* addr = internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(address));
  if (addr == nullptr || !core::is_valid_email(addr))
    return invalid(field + " is not a valid email address (local@domain, ASCII)");
  // GMime would otherwise pick the smallest charset that fits (often iso-8859-1) for a display name.
  internet_address_set_charset(address, "utf-8");
  return Ref<InternetAddress>(INTERNET_ADDRESS(g_object_ref(address)));
}

// Line breaks of any style as LF (GMime writes each LF as CRLF), ending with one.
std::string normalize_line_breaks(std::string_view text) {
  std::string out = lf_line_breaks(text);
  if (out.empty() || out.back() != '\n') out.push_back('\n');
  return out;
}

// A leaf part holding `bytes`, with the given transfer encoding, or GMime's best one for 7-bit transport
// when `encoding` is DEFAULT.
Ref<GMimePart> make_part(GMimePart* raw, std::string_view bytes, GMimeContentEncoding encoding) {
  Ref<GMimePart> part(raw);
  Ref<GMimeStream> stream(g_mime_stream_mem_new_with_buffer(bytes.data(), bytes.size()));
  Ref<GMimeDataWrapper> content(
      g_mime_data_wrapper_new_with_stream(stream.get(), GMIME_CONTENT_ENCODING_DEFAULT));
  g_mime_part_set_content(part.get(), content.get());
  if (encoding == GMIME_CONTENT_ENCODING_DEFAULT)
    encoding = g_mime_part_get_best_content_encoding(part.get(), GMIME_ENCODING_CONSTRAINT_7BIT);
  g_mime_part_set_content_encoding(part.get(), encoding);
  return part;
}

Ref<GMimeObject> text_part(const char* subtype, std::string_view text) {
  Ref<GMimePart> part = make_part(g_mime_part_new_with_type("text", subtype), normalize_line_breaks(text),
                                  GMIME_CONTENT_ENCODING_DEFAULT);
  g_mime_object_set_content_type_parameter(GMIME_OBJECT(part.get()), "charset", "utf-8");
  return Ref<GMimeObject>(GMIME_OBJECT(part.release()));
}

// Marks a parameter's value (if present) to be encoded as UTF-8 under RFC 2231 when it is not ASCII.
void utf8_parameter(GMimeParamList* list, const char* name) {
  if (GMimeParam* param = g_mime_param_list_get_parameter(list, name))
    g_mime_param_set_charset(param, "UTF-8");
}

core::Result<Ref<GMimeObject>> attachment_part(const Attachment& attachment, std::size_t index) {
  const std::string field = "attachments[" + std::to_string(index) + "]";
  if (breaks_header(attachment.filename)) return invalid(field + ".filename must not contain CR, LF or NUL");
  std::string type = attachment.content_type.empty() ? "application/octet-stream" : attachment.content_type;
  if (breaks_header(type) || !is_ascii(type)) return invalid(field + ".content_type is not a MIME type");
  Ref<GMimeContentType> content_type(g_mime_content_type_parse(nullptr, type.c_str()));
  const char* media = content_type ? g_mime_content_type_get_media_type(content_type.get()) : nullptr;
  const char* subtype = content_type ? g_mime_content_type_get_media_subtype(content_type.get()) : nullptr;
  if (media == nullptr || subtype == nullptr || *media == '\0' || *subtype == '\0' ||
      std::string_view(media) == "multipart" || std::string_view(media) == "message" ||
      type.find('/') == std::string::npos)
    return invalid(field + ".content_type is not a MIME type of a single part (type/subtype)");

  // Always base64: the bytes come back exactly, whatever they are (a text attachment's line ends too).
  Ref<GMimePart> part = make_part(g_mime_part_new(), attachment.content, GMIME_CONTENT_ENCODING_BASE64);
  g_mime_object_set_content_type(GMIME_OBJECT(part.get()), content_type.get());
  g_mime_object_set_disposition(GMIME_OBJECT(part.get()), GMIME_DISPOSITION_ATTACHMENT);
  if (!attachment.filename.empty()) {
    g_mime_part_set_filename(part.get(), attachment.filename.c_str());
    utf8_parameter(g_mime_content_type_get_parameters(content_type.get()), "name");
    utf8_parameter(g_mime_content_disposition_get_parameters(
                       g_mime_object_get_content_disposition(GMIME_OBJECT(part.get()))),
                   "filename");
  }
  return Ref<GMimeObject>(GMIME_OBJECT(part.release()));
}

Ref<GMimeObject> multipart(const char* subtype, std::vector<Ref<GMimeObject>> parts) {
  Ref<GMimeMultipart> multipart(g_mime_multipart_new_with_subtype(subtype));
  for (auto& part : parts) g_mime_multipart_add(multipart.get(), part.get());
  return Ref<GMimeObject>(GMIME_OBJECT(multipart.release()));
}

core::Result<Ref<GMimeObject>> body(const OutgoingMessage& message) {
  if (message.text.empty() && message.html.empty()) return invalid("a message needs text or html");
  Ref<GMimeObject> content;
  if (!message.text.empty() && !message.html.empty()) {
    std::vector<Ref<GMimeObject>> alternatives;
    alternatives.push_back(text_part("plain", message.text));
    alternatives.push_back(text_part("html", message.html));
    content = multipart("alternative", std::move(alternatives));
  } else {
    content = message.text.empty() ? text_part("html", message.html) : text_part("plain", message.text);
  }
  if (message.attachments.empty()) return content;
  std::vector<Ref<GMimeObject>> parts;
  parts.push_back(std::move(content));
  for (std::size_t i = 0; i < message.attachments.size(); ++i) {
    auto part = attachment_part(message.attachments[i], i);
    if (!part.ok()) return part.error();
    parts.push_back(std::move(*part));
  }
  return multipart("mixed", std::move(parts));
}

core::Status add_headers(GMimeMessage* out, const OutgoingMessage& message) {
  auto from = parse_mailbox(message.from, "from");
  if (!from.ok()) return from.error();
  internet_address_list_add(g_mime_message_get_from(out), from->get());

  if (message.to.empty()) return invalid("to needs at least one address");
  for (std::size_t i = 0; i < message.to.size(); ++i) {
    auto to = parse_mailbox(message.to[i], "to[" + std::to_string(i) + "]");
    if (!to.ok()) return to.error();
    internet_address_list_add(g_mime_message_get_to(out), to->get());
  }
  if (!message.reply_to.empty()) {
    auto reply_to = parse_mailbox(message.reply_to, "reply_to");
    if (!reply_to.ok()) return reply_to.error();
    internet_address_list_add(g_mime_message_get_reply_to(out), reply_to->get());
  }

  if (breaks_header(message.subject)) return invalid("subject must not contain CR, LF or NUL");
  g_mime_message_set_subject(out, message.subject.c_str(), "utf-8");

  if (message.date_ms <= 0) return invalid("date_ms is required");
  gmime::DateTime date(g_date_time_new_from_unix_utc(message.date_ms / 1000));
  if (date == nullptr) return invalid("date_ms is out of range");
  g_mime_message_set_date(out, date.get());

  CORE_TRY(check_message_id(message.message_id));
  g_mime_message_set_message_id(out, message.message_id.c_str());

  for (const auto& [name, value] : message.headers) {
    if (!is_field_name(name))
      return invalid("header name " + core::quote_for_message(name) + " is malformed");
    if (is_reserved_field(name)) return invalid("header " + name + " is written by the builder");
    if (breaks_header(value)) return invalid("header " + name + " must not contain CR, LF or NUL");
    g_mime_object_append_header(GMIME_OBJECT(out), name.c_str(), value.c_str(), "utf-8");
  }
  return {};
}

}  // namespace

core::Result<std::string> build_mime(const OutgoingMessage& message) {
  gmime::ensure_initialized();
  Ref<GMimeMessage> out(g_mime_message_new(TRUE));
  CORE_TRY(add_headers(out.get(), message));
  auto content = body(message);
  if (!content.ok()) return content.error();
  g_mime_message_set_mime_part(out.get(), content->get());

  gmime::FormatOptions format(g_mime_format_options_new());
  g_mime_format_options_set_newline_format(format.get(), GMIME_NEWLINE_FORMAT_DOS);
  std::string bytes = gmime::take(g_mime_object_to_string(GMIME_OBJECT(out.get()), format.get()));
  // The promise of the header comment, checked on the bytes rather than trusted.
  if (bytes.empty() || !has_only_crlf(bytes) || !bytes.ends_with("\r\n"))
    return core::make_error("mime_error", "GMime did not produce a CRLF message");
  return bytes;
}

}  // namespace native::mail
