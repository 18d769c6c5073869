#include "core/mail/escape.h"

#include <array>
#include <cstdint>

namespace core::mail {

namespace {

// Index into kEntities + 1 for the five bytes HTML escaping replaces, 0 for every other byte.
constexpr std::array<std::uint8_t, 256> kEntityIndex = [] {
  std::array<std::uint8_t, 256> table{};
  table[static_cast<unsigned char>('&')] = 1;
  table[static_cast<unsigned char>('<')] = 2;
  table[static_cast<unsigned char>('>')] = 3;
  table[static_cast<unsigned char>('"')] = 4;
  table[static_cast<unsigned char>('\'')] = 5;
  return table;
}();

constexpr std::array<std::string_view, 5> kEntities = {"&amp;", "&lt;", "&gt;", "&quot;", "&#39;"};

}  // namespace

void append_escaped(std::string& out, std::string_view text, Escaping escaping) {
  if (escaping == Escaping::none) {
    out.append(text);
    return;
  }
  const char* run = text.data();
  const char* const end = text.data() + text.size();
  for (const char* p = run; p != end; ++p) {
    const std::uint8_t entity = kEntityIndex[static_cast<unsigned char>(*p)];
    if (entity == 0) continue;
    out.append(run, static_cast<std::size_t>(p - run));
    out.append(kEntities[entity - 1]);
    run = p + 1;
  }
  out.append(run, static_cast<std::size_t>(end - run));
}

}  // namespace core::mail
