#include "core/auth/link_mail.h"

#include "core/json.h"
#include "core/mail/escape.h"
#include "core/mail/render.h"
#include "core/mail/template.h"

namespace core::auth {
namespace {

struct Texts {
  std::string_view subject, html, text;
};

// {project}, {link} and {hours} are the variables.
constexpr Texts kVerify[] = {
    {"Confirm your email for {project}",
     "<p>Hello,</p><p>Please confirm your email address for <strong>{project}</strong> by opening this "
     "link:</p><p><a href=\"{link}\">Confirm my email</a></p><p>The link works once, for {hours} hours. If "
     "you "
     "did not sign up, ignore this mail.</p>",
     "Hello,\n\nPlease confirm your email address for {project} by opening this link:\n\n{link}\n\nThe link "
     "works once, for {hours} hours. If you did not sign up, ignore this mail.\n"},
    {"{project} için e-posta adresinizi doğrulayın",
     "<p>Merhaba,</p><p><strong>{project}</strong> için e-posta adresinizi doğrulamak üzere bu bağlantıyı "
     "açın:</p><p><a href=\"{link}\">E-postamı doğrula</a></p><p>Bağlantı bir kez ve {hours} saat "
     "geçerlidir. "
     "Kaydolmadıysanız bu e-postayı yok sayın.</p>",
     "Merhaba,\n\n{project} için e-posta adresinizi doğrulamak üzere bu bağlantıyı açın:\n\n{link}\n\n"
     "Bağlantı bir kez ve {hours} saat geçerlidir. Kaydolmadıysanız bu e-postayı yok sayın.\n"},
};
constexpr Texts kReset[] = {
    {"Reset your password for {project}",
     "<p>Hello,</p><p>Someone asked to reset the password of your <strong>{project}</strong> account. To "
     "choose a new one, open this link:</p><p><a href=\"{link}\">Reset my password</a></p><p>The link works "
     "once, for {hours} hour. Every signed-in device will be signed out. If it was not you, ignore this "
     "mail: your password stays as it is.</p>",
     "Hello,\n\nSomeone asked to reset the password of your {project} account. To choose a new one, open "
     "this "
     "link:\n\n{link}\n\nThe link works once, for {hours} hour. Every signed-in device will be signed out. "
     "If "
     "it was not you, ignore this mail: your password stays as it is.\n"},
    {"{project} şifrenizi sıfırlayın",
     "<p>Merhaba,</p><p><strong>{project}</strong> hesabınızın şifresini sıfırlama isteği aldık. Yeni bir "
     "şifre seçmek için bu bağlantıyı açın:</p><p><a href=\"{link}\">Şifremi sıfırla</a></p><p>Bağlantı bir "
     "kez ve {hours} saat geçerlidir. Oturum açık tüm cihazlardan çıkış yapılır. İstek sizden gelmediyse bu "
     "e-postayı yok sayın: şifreniz değişmez.</p>",
     "Merhaba,\n\n{project} hesabınızın şifresini sıfırlama isteği aldık. Yeni bir şifre seçmek için bu "
     "bağlantıyı açın:\n\n{link}\n\nBağlantı bir kez ve {hours} saat geçerlidir. Oturum açık tüm cihazlardan "
     "çıkış yapılır. İstek sizden gelmediyse bu e-postayı yok sayın: şifreniz değişmez.\n"},
};

Result<std::string> render_text(std::string_view text, const json::object& vars, mail::Escaping escaping) {
  auto tpl = mail::Template::compile(text);
  if (!tpl) return tpl.error();
  return mail::render(*tpl, vars, escaping);
}

}  // namespace

std::string_view to_string(LinkPurpose purpose) {
  return purpose == LinkPurpose::verify_email ? "verify_email" : "password_reset";
}

Result<LinkPurpose> parse_link_purpose(std::string_view text) {
  if (text == "verify_email") return LinkPurpose::verify_email;
  if (text == "password_reset") return LinkPurpose::password_reset;
  return make_error("invalid_link_type", "unknown link type");
}

std::int64_t link_lifetime_s(LinkPurpose purpose) {
  return purpose == LinkPurpose::verify_email ? kVerifyLinkLifetimeS : kResetLinkLifetimeS;
}

std::string link_url(std::string_view redirect_url, std::string_view token, LinkPurpose purpose) {
  std::string url(redirect_url);
  url += url.find('?') == std::string::npos ? '?' : '&';
  url += "token=";
  url += token;
  url += "&type=";
  url += to_string(purpose);
  return url;
}

Result<LinkMail> render_link_mail(LinkPurpose purpose, std::string_view locale, std::string_view project_name,
                                  std::string_view link) {
  const Texts* texts = purpose == LinkPurpose::verify_email ? kVerify : kReset;
  const Texts& t = texts[locale == "tr" ? 1 : 0];
  json::object vars{{"project", project_name}, {"link", link}, {"hours", link_lifetime_s(purpose) / 3600}};
  LinkMail out;
  auto subject = render_text(t.subject, vars, mail::Escaping::none);
  if (!subject) return subject.error();
  auto html = render_text(t.html, vars, mail::Escaping::html);
  if (!html) return html.error();
  auto text = render_text(t.text, vars, mail::Escaping::none);
  if (!text) return text.error();
  out.subject = std::move(*subject);
  out.html = std::move(*html);
  out.text = std::move(*text);
  return out;
}

}  // namespace core::auth
