#pragma once
// The words of the consent and connected-apps pages, in English and Turkish.

#include <string>
#include <string_view>
#include <vector>

#include "edge/http/message.h"
#include "edge/pages/lang.h"

namespace edge::oauth {

using edge::Lang;
using edge::lang_code;
using edge::pick_lang;

struct Texts {
  std::string_view consent_title, wants_access, as_user, allow, deny, homepage, not_you;
  std::string_view apps_title, apps_lead, apps_none, granted_on, revoke;
  std::string_view error_title, signed_out_title, signed_out_lead;
  // The end-session confirmation page (RP-Initiated Logout §3, without id_token_hint).
  std::string_view end_session_title, end_session_asks, sign_out, forged_form;
};
const Texts& texts(Lang lang);

// Scopes in the order a person reads them: openid, profile, email, offline_access, then any other.
std::vector<std::string> in_reading_order(const std::vector<std::string>& scopes);

// What a scope lets the application see, in words.
std::string_view scope_words(Lang lang, std::string_view scope);

}  // namespace edge::oauth
