#include "core/storage/multipart.h"

#include <algorithm>
#include <vector>

#include "core/ascii.h"

namespace core::storage {
namespace {

constexpr std::size_t kMaxHeaderBytes = 16 << 10;

Error malformed(std::string message) {
  return make_error("invalid_multipart", std::move(message));
}

int hex_value(char c) {
  if (is_ascii_digit(c)) return c - '0';
  c = to_ascii_lower(c);
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

std::string percent_decode(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size()) {
      int hi = hex_value(text[i + 1]), lo = hex_value(text[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out.push_back(static_cast<char>(hi * 16 + lo));
        i += 2;
        continue;
      }
    }
    out.push_back(text[i]);
  }
  return out;
}

// Splits `a; b="x;y"; c` at the semicolons outside quotes. Quoted strings are taken literally, with no
// backslash escapes: browsers send a form-data filename's `"` as %22 and its backslashes as they are (WHATWG
// HTML, "multipart/form-data encoding algorithm"), so `C:\dir\a.png` keeps its backslashes.
std::vector<std::string_view> split_params(std::string_view text) {
  std::vector<std::string_view> out;
  bool quoted = false;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '"') {
      quoted = !quoted;
    } else if (text[i] == ';' && !quoted) {
      out.push_back(trim_ascii_space(text.substr(start, i - start)));
      start = i + 1;
    }
  }
  out.push_back(trim_ascii_space(text.substr(start)));
  return out;
}

std::string unquote(std::string_view v) {
  if (v.size() < 2 || v.front() != '"' || v.back() != '"') return std::string(v);
  return std::string(v.substr(1, v.size() - 2));
}

}  // namespace

Result<std::string> multipart_boundary(std::string_view content_type) {
  auto params = split_params(content_type);
  if (!ascii_iequals(params[0], "multipart/form-data"))
    return malformed("the Content-Type is not multipart/form-data");
  for (std::size_t i = 1; i < params.size(); ++i) {
    std::size_t eq = params[i].find('=');
    if (eq == std::string_view::npos) continue;
    if (!ascii_iequals(trim_ascii_space(params[i].substr(0, eq)), "boundary")) continue;
    std::string b = unquote(trim_ascii_space(params[i].substr(eq + 1)));
    if (b.empty() || b.size() > 70) break;
    return b;
  }
  return malformed("the multipart/form-data Content-Type has no usable boundary");
}

MultipartReader::MultipartReader(std::string boundary, Callbacks callbacks)
    : delimiter_("\r\n--" + boundary), cb_(std::move(callbacks)) {
  buffer_ = "\r\n";  // the first boundary may open the body: read it as if a line break came before it
}

Status MultipartReader::fail(Error e) {
  failed_ = e;
  buffer_.clear();
  return e;
}

Status MultipartReader::feed(std::string_view bytes) {
  if (failed_) return *failed_;
  if (state_ == State::epilogue) return {};
  buffer_.append(bytes);
  for (bool progressed = true; progressed;) {
    progressed = false;
    if (auto st = step(progressed); !st.ok()) return fail(st.error());
  }
  return {};
}

Status MultipartReader::finish() {
  if (failed_) return *failed_;
  if (state_ != State::epilogue)
    return fail(malformed("the multipart body ends before its closing boundary"));
  return {};
}

Status MultipartReader::step(bool& progressed) {
  switch (state_) {
    case State::epilogue:
      buffer_.clear();
      return {};
    case State::preamble:
    case State::content: {
      const std::size_t at = buffer_.find(delimiter_);
      if (at == std::string::npos) {
        // Everything but a possible start of the delimiter is content (or preamble, dropped).
        const std::size_t keep = std::min(buffer_.size(), delimiter_.size() - 1);
        const std::size_t done = buffer_.size() - keep;
        if (state_ == State::content && done > 0)
          CORE_TRY(cb_.data(std::string_view(buffer_).substr(0, done)));
        buffer_.erase(0, done);
        return {};
      }
      if (state_ == State::content) {
        if (at > 0) CORE_TRY(cb_.data(std::string_view(buffer_).substr(0, at)));
        CORE_TRY(cb_.end());
      }
      buffer_.erase(0, at + delimiter_.size());
      state_ = State::after_boundary;
      progressed = true;
      return {};
    }
    case State::after_boundary: {
      if (buffer_.size() < 2) return {};
      if (buffer_.compare(0, 2, "--") == 0) {
        state_ = State::epilogue;
        buffer_.clear();
        return {};
      }
      std::size_t i = 0;
      while (i < buffer_.size() && (buffer_[i] == ' ' || buffer_[i] == '\t')) ++i;
      if (i + 2 > buffer_.size()) {
        if (buffer_.size() > 256) return malformed("malformed multipart boundary line");
        return {};
      }
      if (buffer_.compare(i, 2, "\r\n") != 0) return malformed("malformed multipart boundary line");
      buffer_.erase(0, i + 2);
      state_ = State::headers;
      progressed = true;
      return {};
    }
    case State::headers: {
      if (buffer_.size() >= 2 && buffer_.compare(0, 2, "\r\n") == 0)
        return malformed("a multipart part has no Content-Disposition header");
      const std::size_t end = buffer_.find("\r\n\r\n");
      if (end == std::string::npos) {
        if (buffer_.size() > kMaxHeaderBytes) return malformed("a multipart part's headers are too large");
        return {};
      }
      if (end > kMaxHeaderBytes) return malformed("a multipart part's headers are too large");
      CORE_TRY(parse_headers(std::string_view(buffer_).substr(0, end)));
      buffer_.erase(0, end + 4);
      state_ = State::content;
      progressed = true;
      return {};
    }
  }
  return {};
}

Status MultipartReader::parse_headers(std::string_view block) {
  MultipartPart part;
  bool disposition = false;
  while (!block.empty()) {
    std::size_t eol = block.find("\r\n");
    std::string_view line = block.substr(0, eol);
    block = eol == std::string_view::npos ? std::string_view() : block.substr(eol + 2);
    std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) return malformed("malformed multipart part header");
    std::string_view name = trim_ascii_space(line.substr(0, colon));
    std::string_view value = trim_ascii_space(line.substr(colon + 1));
    if (ascii_iequals(name, "content-type")) {
      part.content_type = std::string(value);
    } else if (ascii_iequals(name, "content-disposition")) {
      auto params = split_params(value);
      if (!ascii_iequals(params[0], "form-data")) return malformed("a multipart part is not form-data");
      disposition = true;
      bool extended = false;
      for (std::size_t i = 1; i < params.size(); ++i) {
        std::size_t eq = params[i].find('=');
        if (eq == std::string_view::npos) continue;
        std::string key = to_ascii_lower(trim_ascii_space(params[i].substr(0, eq)));
        std::string_view raw = trim_ascii_space(params[i].substr(eq + 1));
        if (key == "name") {
          part.name = unquote(raw);
        } else if (key == "filename" && !extended) {
          part.filename = unquote(raw);
          part.has_filename = true;
        } else if (key == "filename*") {  // RFC 5987: charset'language'percent-encoded
          std::size_t q1 = raw.find('\''), q2 = q1 == std::string_view::npos ? q1 : raw.find('\'', q1 + 1);
          if (q2 != std::string_view::npos && ascii_iequals(raw.substr(0, q1), "utf-8")) {
            part.filename = percent_decode(raw.substr(q2 + 1));
            part.has_filename = true;
            extended = true;
          }
        }
      }
    }
  }
  if (!disposition) return malformed("a multipart part has no Content-Disposition header");
  return cb_.begin(part);
}

}  // namespace core::storage
