#include "edge/oauth/texts.h"

#include <algorithm>

namespace edge::oauth {
namespace {

constexpr Texts kEnglish{"Allow access?",
                         " wants to access your account",
                         "Signed in as",
                         "Allow",
                         "Deny",
                         "Application website",
                         "Not you? Sign in with another account",
                         "Connected apps",
                         "Applications you signed in to with your account, and what they can see.",
                         "No application has access to your account.",
                         "Allowed on",
                         "Revoke",
                         "This sign-in link is not valid",
                         "You are signed out",
                         "The application no longer has access to your account until you sign in again.",
                         "Sign out?",
                         " asks to sign you out.",
                         "Sign out",
                         "This form was not sent by this site, or your session ended. Start again from the "
                         "application."};

constexpr Texts kTurkish{"Erişime izin verilsin mi?",
                         " hesabınıza erişmek istiyor",
                         "Oturum açan hesap",
                         "İzin ver",
                         "Reddet",
                         "Uygulamanın web sitesi",
                         "Siz değil misiniz? Başka bir hesapla giriş yapın",
                         "Bağlı uygulamalar",
                         "Hesabınızla giriş yaptığınız uygulamalar ve görebildikleri bilgiler.",
                         "Hesabınıza erişimi olan bir uygulama yok.",
                         "İzin tarihi",
                         "Erişimi kaldır",
                         "Bu giriş bağlantısı geçerli değil",
                         "Oturumunuz kapatıldı",
                         "Uygulama, siz yeniden giriş yapana kadar hesabınıza erişemez.",
                         "Oturum kapatılsın mı?",
                         " oturumunuzu kapatmak istiyor.",
                         "Oturumu kapat",
                         "Bu form bu siteden gönderilmedi ya da oturumunuz sona erdi. Uygulamadan yeniden "
                         "başlayın."};

}  // namespace

const Texts& texts(Lang lang) {
  return lang == Lang::tr ? kTurkish : kEnglish;
}

std::vector<std::string> in_reading_order(const std::vector<std::string>& scopes) {
  static constexpr std::string_view kOrder[] = {"openid", "profile", "email", "offline_access"};
  std::vector<std::string> out;
  for (std::string_view known : kOrder)
    for (auto& s : scopes)
      if (s == known) out.push_back(s);
  for (auto& s : scopes)
    if (std::find(std::begin(kOrder), std::end(kOrder), s) == std::end(kOrder)) out.push_back(s);
  return out;
}

std::string_view scope_words(Lang lang, std::string_view scope) {
  bool tr = lang == Lang::tr;
  if (scope == "openid") return tr ? "Sizi tanıması (kullanıcı kimliğiniz)" : "Recognise you (your user id)";
  if (scope == "profile")
    return tr ? "Profiliniz: adınız, kullanıcı adınız ve fotoğrafınız"
              : "Your profile: name, username and picture";
  if (scope == "email") return tr ? "E-posta adresiniz" : "Your email address";
  if (scope == "offline_access")
    return tr ? "Siz yokken de erişim (yenileme anahtarı)"
              : "Stay connected when you are away (refresh token)";
  return scope;
}

}  // namespace edge::oauth
