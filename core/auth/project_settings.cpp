#include "core/auth/project_settings.h"

#include <algorithm>

#include "core/ascii.h"
#include "core/validate.h"

namespace core::auth {
namespace {

Error invalid_setting(std::string message) {
  return make_error("invalid_setting", std::move(message));
}

// An integer member within [lo, hi], or nullopt when absent.
Result<std::optional<std::int64_t>> bounded(const json::object& o, std::string_view key, std::int64_t lo,
                                            std::int64_t hi) {
  auto v = optional_int(o, key);
  if (!v) return v.error();
  if (*v && (**v < lo || **v > hi))
    return invalid_setting("'" + std::string(key) + "' must be between " + std::to_string(lo) + " and " +
                           std::to_string(hi));
  return *v;
}

// A nested object member, or nullptr when absent or null. Unknown members are refused so that a typo in
// the dashboard or a script does not silently do nothing.
Result<const json::object*> nested(const json::object& o, std::string_view key,
                                   std::initializer_list<std::string_view> known) {
  auto it = o.find(key);
  if (it == o.end() || it->value().is_null()) return static_cast<const json::object*>(nullptr);
  if (!it->value().is_object())
    return make_error("invalid_field", "field '" + std::string(key) + "' must be an object");
  const json::object& inner = it->value().get_object();
  for (const auto& member : inner)
    if (std::find(known.begin(), known.end(), std::string_view(member.key())) == known.end())
      return invalid_setting("'" + std::string(key) + "' has no member '" + std::string(member.key()) + "'");
  return &inner;
}

Status apply_bool(const json::object& o, std::string_view key, bool& out) {
  auto v = optional_bool(o, key);
  if (!v) return v.error();
  if (*v) out = **v;
  return {};
}

// scheme://host[:port] with no path: what a browser reports as an origin.
Status check_origin(std::string_view origin) {
  if (auto st = validate_http_url(origin); !st.ok())
    return invalid_setting("passkey origin " + quote_for_message(origin) + " is not an http(s) origin");
  auto rest = origin.substr(origin.find("://") + 3);
  if (rest.find('/') != std::string_view::npos || rest.find('?') != std::string_view::npos)
    return invalid_setting("passkey origin " + quote_for_message(origin) +
                           " must be scheme://host[:port] without a path");
  return {};
}

// A string member, required or optional.
Result<std::optional<std::string>> string_member(const json::object& o, std::string_view key, bool required) {
  if (!required) return optional_string(o, key);
  auto v = require_string(o, key);
  if (!v) return v.error();
  return std::optional<std::string>(std::move(*v));
}

std::size_t code_points(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(
      text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

}  // namespace

Status apply_project_settings(ProjectSettings& settings, const json::object& body, bool creating) {
  ProjectSettings s = settings;
  auto name = string_member(body, "name", creating);
  if (!name) return name.error();
  if (*name) {
    std::string_view trimmed = trim_ascii_space(**name);
    if (trimmed.empty() || trimmed.size() > 200) return invalid_setting("'name' must be 1 to 200 characters");
    s.name = std::string(trimmed);
  }
  auto slug = string_member(body, "slug", creating);
  if (!slug) return slug.error();
  if (*slug) {
    CORE_TRY(validate_slug(**slug));
    s.slug = **slug;
  }
  auto urls = optional_string_array(body, "allowedRedirectUrls");
  if (!urls) return urls.error();
  if (*urls) {
    if ((*urls)->size() > 50) return invalid_setting("at most 50 allowed redirect URLs");
    for (const auto& url : **urls) CORE_TRY(validate_http_url(url));
    s.allowed_redirect_urls = **urls;
  }
  auto access = bounded(body, "accessTokenTtlSeconds", kMinAccessTtlS, kMaxAccessTtlS);
  if (!access) return access.error();
  if (*access) s.access_token_ttl_s = **access;
  auto refresh = bounded(body, "refreshTokenTtlSeconds", kMinRefreshTtlS, kMaxRefreshTtlS);
  if (!refresh) return refresh.error();
  if (*refresh) s.refresh_token_ttl_s = **refresh;
  auto reuse = bounded(body, "refreshReuseIntervalSeconds", 0, kMaxReuseIntervalS);
  if (!reuse) return reuse.error();
  if (*reuse) s.refresh_reuse_interval_s = **reuse;
  CORE_TRY(apply_bool(body, "requireEmailVerification", s.require_email_verification));

  auto policy =
      nested(body, "passwordPolicy", {"minLength", "requireLetter", "requireDigit", "requireSymbol"});
  if (!policy) return policy.error();
  if (*policy) {
    auto min = bounded(**policy, "minLength", kMinPasswordLength, kMaxPasswordLength);
    if (!min) return min.error();
    if (*min) s.password_policy.min_length = static_cast<int>(**min);
    CORE_TRY(apply_bool(**policy, "requireLetter", s.password_policy.require_letter));
    CORE_TRY(apply_bool(**policy, "requireDigit", s.password_policy.require_digit));
    CORE_TRY(apply_bool(**policy, "requireSymbol", s.password_policy.require_symbol));
  }
  auto methods = nested(body, "signInMethods", {"password", "passkey", "social", "totp"});
  if (!methods) return methods.error();
  if (*methods) {
    CORE_TRY(apply_bool(**methods, "password", s.sign_in_methods.password));
    CORE_TRY(apply_bool(**methods, "passkey", s.sign_in_methods.passkey));
    CORE_TRY(apply_bool(**methods, "social", s.sign_in_methods.social));
    CORE_TRY(apply_bool(**methods, "totp", s.sign_in_methods.totp));
  }

  if (auto it = body.find("mail"); it != body.end() && it->value().is_null()) {
    s.mail.reset();
  } else {
    auto mail = nested(body, "mail", {"domainId", "from", "fromName"});
    if (!mail) return mail.error();
    if (*mail) {
      MailSender sender;
      auto domain = require_string(**mail, "domainId");
      if (!domain) return domain.error();
      auto from = require_string(**mail, "from");
      if (!from) return from.error();
      CORE_TRY(validate_email(*from));
      auto from_name = optional_string(**mail, "fromName");
      if (!from_name) return from_name.error();
      sender.domain_id = *domain;
      sender.from = to_ascii_lower(*from);
      sender.from_name = from_name->value_or("");
      if (sender.from_name.size() > 200) return invalid_setting("'fromName' must be at most 200 characters");
      s.mail = std::move(sender);
    }
  }

  if (auto it = body.find("passkeys"); it != body.end() && it->value().is_null()) {
    s.passkeys.reset();
  } else {
    auto passkeys = nested(body, "passkeys", {"rpId", "rpName", "origins"});
    if (!passkeys) return passkeys.error();
    if (*passkeys) {
      PasskeySettings p;
      auto rp_id = require_string(**passkeys, "rpId");
      if (!rp_id) return rp_id.error();
      if (*rp_id != "localhost" && !is_valid_domain_name(*rp_id))
        return invalid_setting("'rpId' must be a domain name or localhost");
      p.rp_id = to_ascii_lower(*rp_id);
      auto rp_name = optional_string(**passkeys, "rpName");
      if (!rp_name) return rp_name.error();
      p.rp_name = rp_name->value_or(s.name);
      auto origins = require_string_array(**passkeys, "origins");
      if (!origins) return origins.error();
      if (origins->empty() || origins->size() > 20)
        return invalid_setting("'origins' must list 1 to 20 origins");
      for (const auto& o : *origins) CORE_TRY(check_origin(o));
      p.origins = *origins;
      s.passkeys = std::move(p);
    }
  }
  if (s.sign_in_methods.passkey && !s.passkeys)
    return invalid_setting("passkey sign-in needs 'passkeys' (rpId and origins)");
  settings = std::move(s);
  return {};
}

json::object to_json(const ProjectSettings& s) {
  json::object o{
      {"name", s.name},
      {"slug", s.slug},
      {"allowedRedirectUrls", json::array(s.allowed_redirect_urls.begin(), s.allowed_redirect_urls.end())},
      {"accessTokenTtlSeconds", s.access_token_ttl_s},
      {"refreshTokenTtlSeconds", s.refresh_token_ttl_s},
      {"refreshReuseIntervalSeconds", s.refresh_reuse_interval_s},
      {"requireEmailVerification", s.require_email_verification},
      {"passwordPolicy", json::object{{"minLength", s.password_policy.min_length},
                                      {"requireLetter", s.password_policy.require_letter},
                                      {"requireDigit", s.password_policy.require_digit},
                                      {"requireSymbol", s.password_policy.require_symbol}}},
      {"signInMethods", json::object{{"password", s.sign_in_methods.password},
                                     {"passkey", s.sign_in_methods.passkey},
                                     {"social", s.sign_in_methods.social},
                                     {"totp", s.sign_in_methods.totp}}},
  };
  o["mail"] =
      s.mail ? json::value(json::object{
                   {"domainId", s.mail->domain_id}, {"from", s.mail->from}, {"fromName", s.mail->from_name}})
             : json::value(nullptr);
  o["passkeys"] = s.passkeys
                      ? json::value(json::object{
                            {"rpId", s.passkeys->rp_id},
                            {"rpName", s.passkeys->rp_name},
                            {"origins", json::array(s.passkeys->origins.begin(), s.passkeys->origins.end())}})
                      : json::value(nullptr);
  return o;
}

ProjectSettings project_settings_from_json(const json::object& o) {
  ProjectSettings s;
  // Stored records were written by to_json from settings that passed apply_project_settings; reading them
  // back through it keeps one parser. A record that no longer passes (bounds tightened later) keeps the
  // defaults of the members it fails on.
  json::object body = o;
  body.erase("name");
  body.erase("slug");
  if (auto st = apply_project_settings(s, body, false); !st.ok()) {
    s = ProjectSettings{};
  }
  if (auto n = o.if_contains("name"); n && n->is_string()) s.name = std::string(n->get_string());
  if (auto n = o.if_contains("slug"); n && n->is_string()) s.slug = std::string(n->get_string());
  return s;
}

Status check_password(const PasswordPolicy& policy, std::string_view password) {
  if (password.size() > kMaxPasswordBytes)
    return make_error("invalid_password",
                      "the password is longer than " + std::to_string(kMaxPasswordBytes) + " bytes");
  std::vector<std::string> missing;
  if (code_points(password) < static_cast<std::size_t>(policy.min_length))
    missing.push_back("at least " + std::to_string(policy.min_length) + " characters");
  bool letter = false, digit = false, symbol = false;
  for (char c : password) {
    if (is_ascii_alpha(c) || (static_cast<unsigned char>(c) & 0x80))
      letter = true;
    else if (is_ascii_digit(c))
      digit = true;
    else
      symbol = true;
  }
  if (policy.require_letter && !letter) missing.push_back("a letter");
  if (policy.require_digit && !digit) missing.push_back("a digit");
  if (policy.require_symbol && !symbol) missing.push_back("a symbol");
  if (missing.empty()) return {};
  std::string list;
  for (std::size_t i = 0; i < missing.size(); ++i)
    list += (i == 0 ? "" : i + 1 == missing.size() ? " and " : ", ") + missing[i];
  return make_error("weak_password", "the password needs " + list);
}

bool is_allowed_redirect(const ProjectSettings& settings, std::string_view url) {
  return std::any_of(settings.allowed_redirect_urls.begin(), settings.allowed_redirect_urls.end(),
                     [&](const std::string& allowed) { return allowed == url; });
}

}  // namespace core::auth
