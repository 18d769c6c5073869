#include "edge/http/file_response.h"

#include <charconv>
#include <optional>

#include "edge/http/http_date.h"

namespace edge {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// If-None-Match: `*` or a list of entity tags, compared weakly (a `W/` prefix is ignored on both sides).
bool none_match_fails(std::string_view header, std::string_view etag) {
  if (trim(header) == "*") return true;
  while (!header.empty()) {
    std::size_t comma = header.find(',');
    std::string_view tag = trim(header.substr(0, comma));
    header = comma == std::string_view::npos ? std::string_view() : header.substr(comma + 1);
    if (tag.substr(0, 2) == "W/") tag.remove_prefix(2);
    if (tag == etag) return true;
  }
  return false;
}

std::int64_t seconds(std::int64_t ns) {
  return ns >= 0 ? ns / 1'000'000'000 : (ns - 999'999'999) / 1'000'000'000;
}

std::optional<std::uint64_t> number(std::string_view s) {
  std::uint64_t v = 0;
  if (s.empty()) return std::nullopt;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

std::string file_etag(const FileVersion& v) {
  char size[24], mtime[24];
  auto* size_end = std::to_chars(size, size + sizeof size, v.size, 16).ptr;
  auto* mtime_end =
      std::to_chars(mtime, mtime + sizeof mtime, static_cast<std::uint64_t>(v.mtime_ns), 16).ptr;
  std::string etag;
  etag.reserve(48);
  etag.push_back('"');
  etag.append(size, size_end).push_back('-');
  etag.append(mtime, mtime_end).push_back('"');
  return etag;
}

FileAnswer answer_file_request(const FileRequest& req, const FileVersion& v) {
  FileAnswer whole{200, 0, v.size};
  if (!req.get_or_head) return whole;
  std::string etag = file_etag(v);
  if (!req.if_none_match.empty()) {
    if (none_match_fails(req.if_none_match, etag)) return {304, 0, 0};
  } else if (auto since = parse_http_date(req.if_modified_since); since && seconds(v.mtime_ns) <= *since) {
    return {304, 0, 0};
  }
  std::string_view range = trim(req.range);
  if (range.empty()) return whole;
  if (!req.if_range.empty()) {
    std::string_view cond = trim(req.if_range);
    bool current = cond.front() == '"' ? cond == etag : parse_http_date(cond) == seconds(v.mtime_ns);
    if (!current) return whole;
  }
  if (range.substr(0, 6) != "bytes=") return whole;
  range.remove_prefix(6);
  if (range.find(',') != std::string_view::npos) return whole;
  range = trim(range);
  std::size_t dash = range.find('-');
  if (dash == std::string_view::npos) return whole;
  std::string_view first_text = range.substr(0, dash), last_text = range.substr(dash + 1);
  if (first_text.empty()) {  // suffix: the last N bytes
    auto n = number(last_text);
    if (!n) return whole;
    if (*n == 0 || v.size == 0) return {416, 0, 0};
    std::uint64_t len = *n < v.size ? *n : v.size;
    return {206, v.size - len, len};
  }
  auto first = number(first_text);
  if (!first) return whole;
  std::uint64_t last = v.size == 0 ? 0 : v.size - 1;
  if (!last_text.empty()) {
    auto l = number(last_text);
    if (!l || *l < *first) return whole;
    if (*l < last) last = *l;
  }
  if (*first >= v.size) return {416, 0, 0};
  return {206, *first, last - *first + 1};
}

}  // namespace edge
