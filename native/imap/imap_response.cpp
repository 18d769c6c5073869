#include "native/imap/imap_response.h"

#include <algorithm>
#include <charconv>
#include <utility>

namespace native::imap {
namespace {

core::Error imap_error(std::string_view reason) {
  return core::make_error("imap_error", "IMAP protocol error: " + std::string(reason));
}

char upper(char c) {
  return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return upper(x) == upper(y); });
}

bool istarts_with(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && iequals(text.substr(0, prefix.size()), prefix);
}

std::string upper_case(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = upper(c);
  return out;
}

bool is_status_word(std::string_view word) {
  return iequals(word, "OK") || iequals(word, "NO") || iequals(word, "BAD") || iequals(word, "BYE") ||
         iequals(word, "PREAUTH");
}

std::optional<std::uint64_t> parse_decimal(std::string_view digits) {
  if (digits.empty() || digits.size() > 19) return std::nullopt;
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return value;
}

// A status response or continuation request: its text is free and announces no literal.
bool is_free_text_line(std::string_view line) {
  auto space = line.find(' ');
  std::string_view tag = line.substr(0, space);
  if (tag == "+") return true;
  if (space == std::string_view::npos) return false;
  std::string_view rest = line.substr(space + 1);
  return is_status_word(rest.substr(0, rest.find(' ')));
}

// The literal size announced at the end of `line` (`{12}`, `{12+}`, `~{12}`), nullopt when the line does not
// end with an announcement, or an error when it ends with a malformed one.
core::Result<std::optional<std::uint64_t>> announced_literal(std::string_view line) {
  if (!line.ends_with('}')) return std::optional<std::uint64_t>();
  auto open = line.rfind('{');
  if (open == std::string_view::npos) return std::optional<std::uint64_t>();
  std::string_view digits = line.substr(open + 1, line.size() - open - 2);
  if (digits.ends_with('+')) digits.remove_suffix(1);
  auto size = parse_decimal(digits);
  if (!size) return imap_error("malformed literal announcement");
  return std::optional<std::uint64_t>(*size);
}

class Parser {
 public:
  explicit Parser(std::string_view text) : s_(text) {}

  bool at_end() const { return i_ >= s_.size(); }
  std::string_view rest() const { return at_end() ? std::string_view() : s_.substr(i_); }

  void skip_spaces() {
    while (i_ < s_.size() && s_[i_] == ' ') ++i_;
  }

  // A word up to the next space (tags, numbers and response names).
  std::string_view word() {
    std::size_t start = i_;
    while (i_ < s_.size() && s_[i_] != ' ') ++i_;
    return s_.substr(start, i_ - start);
  }

  // `[...]` with nested brackets, returned without the outer pair.
  core::Result<std::string> bracketed() {
    std::size_t start = ++i_;
    int depth = 1;
    for (; i_ < s_.size(); ++i_) {
      if (s_[i_] == '[') ++depth;
      if (s_[i_] == ']' && --depth == 0) break;
    }
    if (depth != 0) return imap_error("unbalanced brackets");
    std::string inside(s_.substr(start, i_ - start));
    ++i_;
    return inside;
  }

  core::Result<std::vector<ImapValue>> values_to_end() {
    std::vector<ImapValue> values;
    for (skip_spaces(); !at_end(); skip_spaces()) {
      auto v = value(0);
      if (!v.ok()) return v.error();
      values.push_back(std::move(*v));
    }
    return values;
  }

 private:
  static constexpr int kMaxDepth = 64;

  core::Result<ImapValue> value(int depth) {
    if (depth > kMaxDepth) return imap_error("lists nested too deeply");
    char c = s_[i_];
    if (c == '(') return list(depth);
    if (c == '"') return quoted();
    if (c == '{' || (c == '~' && i_ + 1 < s_.size() && s_[i_ + 1] == '{')) return literal();
    return atom();
  }

  core::Result<ImapValue> list(int depth) {
    ++i_;
    ImapValue out;
    out.kind = ImapValue::Kind::list;
    for (;;) {
      skip_spaces();
      if (at_end()) return imap_error("unterminated list");
      if (s_[i_] == ')') {
        ++i_;
        return out;
      }
      auto item = value(depth + 1);
      if (!item.ok()) return item.error();
      out.items.push_back(std::move(*item));
    }
  }

  core::Result<ImapValue> quoted() {
    ++i_;
    ImapValue out;
    out.kind = ImapValue::Kind::string;
    for (; i_ < s_.size(); ++i_) {
      char c = s_[i_];
      if (c == '"') {
        ++i_;
        return out;
      }
      if (c == '\\') {
        if (++i_ >= s_.size()) break;
        c = s_[i_];
      }
      if (c == '\r' || c == '\n') break;
      out.text.push_back(c);
    }
    return imap_error("unterminated quoted string");
  }

  core::Result<ImapValue> literal() {
    if (s_[i_] == '~') ++i_;
    auto close = s_.find('}', i_);
    if (close == std::string_view::npos) return imap_error("malformed literal");
    std::string_view digits = s_.substr(i_ + 1, close - i_ - 1);
    if (digits.ends_with('+')) digits.remove_suffix(1);
    auto size = parse_decimal(digits);
    if (!size) return imap_error("malformed literal");
    i_ = close + 1;
    if (s_.substr(i_).starts_with("\r\n"))
      i_ += 2;
    else if (s_.substr(i_).starts_with("\n"))
      i_ += 1;
    else
      return imap_error("literal announcement not followed by a line break");
    if (s_.size() - i_ < *size) return imap_error("literal shorter than announced");
    ImapValue out;
    out.kind = ImapValue::Kind::string;
    out.text = std::string(s_.substr(i_, *size));
    i_ += *size;
    return out;
  }

  // Atom characters up to a delimiter; a `[` section (which may hold spaces and parentheses) is part of it.
  core::Result<ImapValue> atom() {
    ImapValue out;
    out.kind = ImapValue::Kind::atom;
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (c == ' ' || c == '(' || c == ')' || c == '"' || c == '\r' || c == '\n') break;
      if (c == '[') {
        auto inside = bracketed();
        if (!inside.ok()) return inside.error();
        out.text += '[' + *inside + ']';
        continue;
      }
      out.text.push_back(c);
      ++i_;
    }
    if (out.text.empty()) return imap_error("unexpected character");
    if (iequals(out.text, "NIL")) {
      out.kind = ImapValue::Kind::nil;
      out.text.clear();
    }
    return out;
  }

  std::string_view s_;
  std::size_t i_ = 0;
};

}  // namespace

bool ImapValue::is_number() const {
  return number().has_value();
}

std::optional<std::uint32_t> ImapValue::number() const {
  if (kind != Kind::atom) return std::nullopt;
  auto value = parse_decimal(text);
  if (!value || *value > 0xffffffffu) return std::nullopt;
  return static_cast<std::uint32_t>(*value);
}

void ResponseFramer::append(std::string_view bytes) {
  // Drop what earlier responses used before the buffer grows again.
  if (start_ > 0 && (start_ == buffer_.size() || start_ >= (std::size_t{1} << 16))) {
    buffer_.erase(0, start_);
    scan_ -= start_;
    start_ = 0;
  }
  buffer_.append(bytes);
}

core::Result<std::optional<std::string>> ResponseFramer::next() {
  for (;;) {
    std::size_t newline = scan_ < buffer_.size() ? buffer_.find('\n', scan_) : std::string::npos;
    if (newline == std::string::npos) {
      if (pending() > max_response_) return imap_error("response too large");
      return std::optional<std::string>();
    }
    std::size_t line_end = newline;
    if (line_end > scan_ && buffer_[line_end - 1] == '\r') --line_end;
    std::string_view line(buffer_.data() + scan_, line_end - scan_);
    bool first_line = scan_ == start_;
    if (!(first_line && is_free_text_line(line))) {
      auto literal = announced_literal(line);
      if (!literal.ok()) return literal.error();
      if (*literal) {
        if (**literal > max_response_ || newline + 1 - start_ + **literal > max_response_)
          return imap_error("response too large");
        scan_ = newline + 1 + static_cast<std::size_t>(**literal);
        continue;
      }
    }
    std::string response(buffer_, start_, line_end - start_);
    start_ = scan_ = newline + 1;
    return std::optional<std::string>(std::move(response));
  }
}

core::Result<ImapResponse> parse_response(std::string_view text) {
  Parser p(text);
  ImapResponse out;
  out.tag = std::string(p.word());
  if (out.tag.empty()) return imap_error("response without a tag");
  p.skip_spaces();
  if (out.tag == "+") {
    out.text = std::string(p.rest());
    return out;
  }
  std::string_view word = p.word();
  if (out.tag == "*") {
    ImapValue as_value{ImapValue::Kind::atom, std::string(word), {}};
    if (auto number = as_value.number()) {
      out.number = number;
      p.skip_spaces();
      word = p.word();
    }
  }
  if (word.empty()) return imap_error("response without a name");
  if (is_status_word(word) && !out.number) {
    out.status = upper_case(word);
    p.skip_spaces();
    if (!p.at_end() && p.rest().front() == '[') {
      auto code = p.bracketed();
      if (!code.ok()) return code.error();
      out.code = std::move(*code);
      p.skip_spaces();
    }
    out.text = std::string(p.rest());
    return out;
  }
  if (out.tag != "*") return imap_error("tagged response without a status");
  out.name = upper_case(word);
  auto data = p.values_to_end();
  if (!data.ok()) return data.error();
  out.data = std::move(*data);
  return out;
}

const ImapValue* fetch_item(const ImapResponse& fetch, std::string_view name) {
  if (fetch.data.empty() || fetch.data[0].kind != ImapValue::Kind::list) return nullptr;
  const auto& items = fetch.data[0].items;
  for (std::size_t i = 0; i + 1 < items.size(); i += 2)
    if (items[i].kind == ImapValue::Kind::atom && iequals(items[i].text, name)) return &items[i + 1];
  return nullptr;
}

const ImapValue* fetch_item_prefix(const ImapResponse& fetch, std::string_view prefix) {
  if (fetch.data.empty() || fetch.data[0].kind != ImapValue::Kind::list) return nullptr;
  const auto& items = fetch.data[0].items;
  for (std::size_t i = 0; i + 1 < items.size(); i += 2)
    if (items[i].kind == ImapValue::Kind::atom && istarts_with(items[i].text, prefix)) return &items[i + 1];
  return nullptr;
}

}  // namespace native::imap
