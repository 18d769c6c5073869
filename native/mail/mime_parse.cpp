#include "native/mail/mime_parse.h"

#include <cstdint>

#include "core/ascii.h"
#include "core/date.h"
#include "native/mail/gmime_support.h"
#include "native/mail/line_breaks.h"

namespace native::mail {
namespace {

using gmime::Ref;

// Undeclared 8-bit text (raw bytes in headers, a text part without a usable charset) is tried as these, in
// order: UTF-8 first because that is what modern senders write, then windows-1252, a superset of Latin-1
// that maps every byte, so decoding never fails.
const char* kFallbackCharsets[] = {"utf-8", "windows-1252", nullptr};

// `bytes` in the declared `charset` as UTF-8; when the charset is missing, unknown to iconv or wrong for
// the bytes, the fallback charsets decide.
std::string to_utf8(GMimeParserOptions* options, const std::string& bytes, const char* charset) {
  if (charset != nullptr) {
    gsize written = 0;
    gmime::CString converted(g_convert(bytes.data(), static_cast<gssize>(bytes.size()), "UTF-8",
                                       g_mime_charset_iconv_name(charset), nullptr, &written, nullptr));
    if (converted != nullptr) return std::string(converted.get(), written);
  } else if (g_utf8_validate(bytes.data(), static_cast<gssize>(bytes.size()), nullptr)) {
    return bytes;
  }
  return gmime::take(g_mime_utils_decode_8bit(options, bytes.data(), bytes.size()));
}

// The part's content with its transfer encoding undone.
std::string decoded_content(GMimePart* part) {
  GMimeDataWrapper* wrapper = g_mime_part_get_content(part);
  if (wrapper == nullptr) return {};
  Ref<GMimeStream> out(g_mime_stream_mem_new());
  if (g_mime_data_wrapper_write_to_stream(wrapper, out.get()) < 0) return {};
  return gmime::stream_bytes(out.get());
}

std::string mime_type(GMimeObject* object) {
  GMimeContentType* type = g_mime_object_get_content_type(object);
  if (type == nullptr) return "application/octet-stream";
  return core::to_ascii_lower(gmime::take(g_mime_content_type_get_mime_type(type)));
}

std::string text_of(const char* value) {
  return value == nullptr ? std::string() : std::string(value);
}

std::string addresses(InternetAddressList* list) {
  if (list == nullptr || internet_address_list_length(list) == 0) return {};
  return gmime::take(internet_address_list_to_string(list, nullptr, FALSE));
}

// Walks the MIME tree: the first body text and HTML into the message, every other leaf into attachments.
class PartCollector {
 public:
  static constexpr int kMaxDepth = 32;

  PartCollector(GMimeParserOptions* options, ParsedMessage& out) : options_(options), out_(out) {}

  void visit(GMimeObject* object, int depth = 0) {
    if (GMIME_IS_MULTIPART(object)) {
      // Nesting deeper than any mail program writes is not followed (the recursion stays bounded).
      if (depth >= kMaxDepth) return;
      GMimeMultipart* multipart = GMIME_MULTIPART(object);
      for (int i = 0; i < g_mime_multipart_get_count(multipart); ++i)
        visit(g_mime_multipart_get_part(multipart, i), depth + 1);
    } else if (GMIME_IS_MESSAGE_PART(object)) {
      ParsedPart part = describe(object);
      if (GMimeMessage* inner = g_mime_message_part_get_message(GMIME_MESSAGE_PART(object)))
        part.content = gmime::take(g_mime_object_to_string(GMIME_OBJECT(inner), nullptr));
      part.size = part.content.size();
      out_.attachments.push_back(std::move(part));
    } else if (GMIME_IS_PART(object)) {
      leaf(GMIME_PART(object));
    }
  }

 private:
  ParsedPart describe(GMimeObject* object) {
    ParsedPart part;
    part.content_type = mime_type(object);
    part.disposition = core::to_ascii_lower(text_of(g_mime_object_get_disposition(object)));
    part.content_id = text_of(g_mime_object_get_content_id(object));
    if (GMIME_IS_PART(object)) part.filename = text_of(g_mime_part_get_filename(GMIME_PART(object)));
    return part;
  }

  void leaf(GMimePart* leaf) {
    GMimeObject* object = GMIME_OBJECT(leaf);
    ParsedPart part = describe(object);
    part.content = decoded_content(leaf);
    part.size = part.content.size();
    const bool is_text = part.content_type.starts_with("text/");
    if (is_text) {
      const char* charset = g_mime_object_get_content_type_parameter(object, "charset");
      part.text = lf_line_breaks(to_utf8(options_, part.content, charset));
    }
    const bool body_candidate = part.disposition != "attachment" && part.filename.empty();
    if (body_candidate && part.content_type == "text/plain" && !has_text_) {
      out_.text = std::move(part.text);
      has_text_ = true;
    } else if (body_candidate && part.content_type == "text/html" && !has_html_) {
      out_.html = std::move(part.text);
      has_html_ = true;
    } else {
      out_.attachments.push_back(std::move(part));
    }
  }

  GMimeParserOptions* options_;
  ParsedMessage& out_;
  bool has_text_ = false;
  bool has_html_ = false;
};

}  // namespace

core::Result<ParsedMessage> parse_mime(std::string_view raw) {
  gmime::ensure_initialized();
  gmime::ParserOptions options(g_mime_parser_options_new());
  g_mime_parser_options_set_fallback_charsets(options.get(), kFallbackCharsets);

  Ref<GMimeStream> stream(g_mime_stream_mem_new_with_buffer(raw.data(), raw.size()));
  Ref<GMimeParser> parser(g_mime_parser_new_with_stream(stream.get()));
  g_mime_parser_set_format(parser.get(), GMIME_FORMAT_MESSAGE);
  Ref<GMimeMessage> message(g_mime_parser_construct_message(parser.get(), options.get()));
  if (message == nullptr ||
      g_mime_header_list_get_count(g_mime_object_get_header_list(GMIME_OBJECT(message.get()))) == 0)
    return core::make_error("invalid_message", "the input is not a mail message (no header fields)");

  ParsedMessage out;
  out.message_id = text_of(g_mime_message_get_message_id(message.get()));
  out.from = addresses(g_mime_message_get_from(message.get()));
  out.to = addresses(g_mime_message_get_to(message.get()));
  out.cc = addresses(g_mime_message_get_cc(message.get()));
  out.reply_to = addresses(g_mime_message_get_reply_to(message.get()));
  out.subject = text_of(g_mime_message_get_subject(message.get()));
  if (GDateTime* date = g_mime_message_get_date(message.get())) {
    const std::int64_t ms = g_date_time_to_unix(date) * 1000 + g_date_time_get_microsecond(date) / 1000;
    out.date_iso = core::format_timestamp(ms);
  }
  if (GMimeObject* body = g_mime_message_get_mime_part(message.get()))
    PartCollector(options.get(), out).visit(body);
  return out;
}

}  // namespace native::mail
