#include "native/restart/detail_text.h"

namespace native::restart {
namespace {

std::string redact(std::string_view text, std::initializer_list<std::string_view> secrets) {
  std::string out(text);
  for (std::string_view secret : secrets) {
    if (secret.empty()) continue;
    std::size_t at = 0;
    while ((at = out.find(secret, at)) != std::string::npos) {
      out.replace(at, secret.size(), "[redacted]");
      at += 10;
    }
  }
  return out;
}

bool is_space_or_control(unsigned char c) {
  return c <= 0x20 || c == 0x7f;
}

}  // namespace

std::string detail_text(std::string_view text, std::initializer_list<std::string_view> secrets) {
  const std::string redacted = redact(text, secrets);
  std::string out;
  out.reserve(std::min(redacted.size(), kMaxDetailBytes + 3));
  bool pending_space = false;
  for (char c : redacted) {
    if (is_space_or_control(static_cast<unsigned char>(c))) {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out.push_back(' ');
    pending_space = false;
    out.push_back(c);
  }
  if (out.size() <= kMaxDetailBytes) return out;
  std::size_t cut = kMaxDetailBytes - 3;
  // Back up over UTF-8 continuation bytes so no character is split.
  while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;
  out.resize(cut);
  out += "...";
  return out;
}

}  // namespace native::restart
