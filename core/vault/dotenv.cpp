#include "core/vault/dotenv.h"

#include "core/vault/variables.h"

namespace core::vault {

namespace {

bool blank(char c) {
  return c == ' ' || c == '\t';
}

Error at_line(std::size_t line, const std::string& what) {
  return make_error("invalid_dotenv", "line " + std::to_string(line) + ": " + what);
}

struct Cursor {
  std::string_view text;
  std::size_t pos = 0;
  std::size_t line = 1;

  bool done() const { return pos >= text.size(); }
  char peek() const { return text[pos]; }
  char take() {
    char c = text[pos++];
    if (c == '\n') ++line;
    return c;
  }
  void skip_blanks() {
    while (!done() && blank(peek())) ++pos;
  }
  // The rest of the current line, consumed with its line break.
  std::string_view rest_of_line() {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view out = text.substr(pos, end - pos);
    pos = end;
    if (!done()) take();
    if (!out.empty() && out.back() == '\r') out.remove_suffix(1);
    return out;
  }
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (blank(s.front()) || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (blank(s.back()) || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// After a closing quote: blanks, then nothing or a comment, then the line break.
Status end_after_quote(Cursor& c, std::size_t line) {
  std::string_view rest = trim(c.rest_of_line());
  if (!rest.empty() && rest.front() != '#') return at_line(line, "unexpected text after the closing quote");
  return {};
}

bool plain_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
         c == '/' || c == ':' || c == '@' || c == ',' || c == '+' || c == '-' || c == '=';
}

}  // namespace

Result<DotenvEntries> parse_dotenv(std::string_view text) {
  DotenvEntries out;
  Cursor c{text};
  // A UTF-8 byte order mark some editors write.
  if (text.starts_with("\xEF\xBB\xBF")) c.pos = 3;
  while (!c.done()) {
    const std::size_t line = c.line;
    c.skip_blanks();
    if (c.done()) break;
    if (c.peek() == '\n' || c.peek() == '\r' || c.peek() == '#') {
      c.rest_of_line();
      continue;
    }
    if (c.text.substr(c.pos).starts_with("export") && c.pos + 6 < c.text.size() && blank(c.text[c.pos + 6])) {
      c.pos += 6;
      c.skip_blanks();
    }
    std::size_t key_start = c.pos;
    while (!c.done() && c.peek() != '=' && c.peek() != '\n' && !blank(c.peek())) ++c.pos;
    std::string key(c.text.substr(key_start, c.pos - key_start));
    c.skip_blanks();
    if (c.done() || c.peek() != '=') return at_line(line, "expected KEY=VALUE");
    if (auto st = validate_key(key); !st.ok()) return at_line(line, st.error().message);
    ++c.pos;  // '='
    c.skip_blanks();
    std::string value;
    if (!c.done() && c.peek() == '\'') {
      c.take();
      bool closed = false;
      while (!c.done()) {
        char ch = c.take();
        if (ch == '\'') {
          closed = true;
          break;
        }
        value.push_back(ch);
      }
      if (!closed) return at_line(line, "unterminated single-quoted value");
      if (auto st = end_after_quote(c, line); !st.ok()) return st.error();
    } else if (!c.done() && c.peek() == '"') {
      c.take();
      bool closed = false;
      while (!c.done()) {
        char ch = c.take();
        if (ch == '"') {
          closed = true;
          break;
        }
        if (ch == '\\' && !c.done()) {
          char e = c.peek();
          switch (e) {
            case 'n':
              value.push_back('\n');
              break;
            case 'r':
              value.push_back('\r');
              break;
            case 't':
              value.push_back('\t');
              break;
            case '"':
              value.push_back('"');
              break;
            case '\\':
              value.push_back('\\');
              break;
            case '$':
              value.push_back('$');
              break;
            default:
              value.push_back('\\');
              continue;  // kept as written; the next char is read normally
          }
          c.take();
          continue;
        }
        value.push_back(ch);
      }
      if (!closed) return at_line(line, "unterminated double-quoted value");
      if (auto st = end_after_quote(c, line); !st.ok()) return st.error();
    } else {
      std::string_view raw = c.rest_of_line();
      // A comment starts at a '#' that follows a blank.
      for (std::size_t i = 1; i < raw.size(); ++i)
        if (raw[i] == '#' && blank(raw[i - 1])) {
          raw = raw.substr(0, i);
          break;
        }
      if (raw.starts_with("#")) raw = {};
      value = std::string(trim(raw));
    }
    out[key] = std::move(value);
  }
  return out;
}

std::string write_dotenv(const DotenvEntries& entries, std::string_view header) {
  std::string out;
  while (!header.empty()) {
    std::size_t nl = header.find('\n');
    out += "# ";
    out += header.substr(0, nl);
    out += '\n';
    header = nl == std::string_view::npos ? std::string_view() : header.substr(nl + 1);
  }
  for (const auto& [key, value] : entries) {
    out += key;
    out += '=';
    bool plain = true;
    bool single_ok = true;
    for (char ch : value) {
      plain = plain && plain_char(ch);
      single_ok = single_ok && ch != '\'' && ch != '\n' && ch != '\r';
    }
    if (plain) {
      out += value;
    } else if (single_ok) {
      out += '\'';
      out += value;
      out += '\'';
    } else {
      out += '"';
      for (char ch : value) {
        switch (ch) {
          case '\n':
            out += "\\n";
            break;
          case '\r':
            out += "\\r";
            break;
          case '\t':
            out += "\\t";
            break;
          case '"':
            out += "\\\"";
            break;
          case '\\':
            out += "\\\\";
            break;
          case '$':
            out += "\\$";
            break;
          default:
            out += ch;
        }
      }
      out += '"';
    }
    out += '\n';
  }
  return out;
}

}  // namespace core::vault
