#include "edge/pages/lang.h"

namespace edge {
namespace {

bool starts_with_tr(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == ',')) s.remove_prefix(1);
  return s.size() >= 2 && (s[0] == 't' || s[0] == 'T') && (s[1] == 'r' || s[1] == 'R') &&
         (s.size() == 2 || s[2] == '-' || s[2] == ';' || s[2] == ',' || s[2] == ' ');
}

}  // namespace

Lang pick_lang(std::string_view ui_locales, std::string_view accept_language) {
  if (!ui_locales.empty()) return starts_with_tr(ui_locales) ? Lang::tr : Lang::en;
  return starts_with_tr(accept_language) ? Lang::tr : Lang::en;
}

std::string_view lang_code(Lang lang) {
  return lang == Lang::tr ? "tr" : "en";
}

}  // namespace edge
