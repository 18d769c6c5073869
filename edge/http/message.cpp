#include "edge/http/message.h"

#include <unistd.h>

#include "core/ascii.h"

namespace edge {
namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string_view Request::header(std::string_view lower_name) const {
  auto it = headers.find(std::string(lower_name));
  return it == headers.end() ? std::string_view() : std::string_view(it->second);
}

std::optional<std::string> Request::query_param(std::string_view name) const {
  auto it = query.find(std::string(name));
  if (it == query.end()) return std::nullopt;
  return it->second;
}

std::string_view Request::param(std::string_view name) const {
  auto it = params.find(name);
  return it == params.end() ? std::string_view() : std::string_view(it->second);
}

std::string Request::cookie(std::string_view name) const {
  std::string_view all = header("cookie");
  while (!all.empty()) {
    std::size_t semi = all.find(';');
    std::string_view part = all.substr(0, semi);
    all = semi == std::string_view::npos ? std::string_view() : all.substr(semi + 1);
    while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
    std::size_t eq = part.find('=');
    if (eq != std::string_view::npos && part.substr(0, eq) == name) return std::string(part.substr(eq + 1));
  }
  return {};
}

std::map<std::string, std::string> Request::form() const {
  std::map<std::string, std::string> out;
  for (auto& [k, v] : parse_url_encoded(body)) out.emplace(k, v);
  return out;
}

OpenFile::~OpenFile() {
  if (fd_ >= 0) ::close(fd_);
}

Response redirect_response(int status, std::string location) {
  Response r;
  r.status = status;
  r.content_type = "text/plain";
  r.set_header("Location", std::move(location));
  r.set_header("Cache-Control", "no-store");
  return r;
}

std::string url_decode(std::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '%' && i + 2 < text.size()) {
      int hi = hex_digit(text[i + 1]), lo = hex_digit(text[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out.push_back(static_cast<char>(hi << 4 | lo));
        i += 2;
        continue;
      }
    }
    out.push_back(plus_is_space && c == '+' ? ' ' : c);
  }
  return out;
}

std::string url_encode(std::string_view text) {
  return core::percent_encode(text);
}

std::multimap<std::string, std::string> parse_url_encoded(std::string_view text) {
  std::multimap<std::string, std::string> out;
  while (!text.empty()) {
    std::size_t amp = text.find('&');
    std::string_view pair = text.substr(0, amp);
    text = amp == std::string_view::npos ? std::string_view() : text.substr(amp + 1);
    if (pair.empty()) continue;
    std::size_t eq = pair.find('=');
    std::string_view name = pair.substr(0, eq);
    std::string_view value = eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1);
    out.emplace(url_decode(name, true), url_decode(value, true));
  }
  return out;
}

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out.push_back(c);
    }
  }
  return out;
}

}  // namespace edge
