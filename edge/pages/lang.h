#pragma once
// The languages of the server-rendered pages: English and Turkish.

#include <string_view>

namespace edge {

enum class Lang { en, tr };

// `ui_locales` (OpenID Connect, space-separated) first, then Accept-Language; English by default.
Lang pick_lang(std::string_view ui_locales, std::string_view accept_language);
std::string_view lang_code(Lang lang);

}  // namespace edge
