#include "edge/status/subscriber_texts.h"

#include "edge/platform/record_json.h"

namespace edge::status {
namespace {

const SubscriberTexts kEn{
    "Confirm your subscription",
    "Confirm that you want status notifications of this page at this address.",
    "Confirm subscription",
    "Subscription confirmed",
    "You will now receive this page's notifications. Every mail has a link to change or end the "
    "subscription.",
    "Link not valid",
    "This link is not valid any more. The subscription may have been removed.",
    "Notification preferences",
    "Choose which notifications this subscription receives.",
    "Notify me about",
    "Incidents and maintenance",
    "Incidents only",
    "Maintenance only",
    "Components",
    "None selected means every component.",
    "Save preferences",
    "Your preferences were saved.",
    "Unsubscribe",
    "Stop every notification of this page for this subscription.",
    "Unsubscribe",
    "Unsubscribed",
    "You will not receive notifications of this page any more.",
    "The form was not sent by this page. Reload it and try again.",
    "Confirm your subscription to {page}",
    "Someone, hopefully you, asked for status notifications of {page} at this address.\n\n"
    "Confirm the subscription by opening this link:\n{link}\n\n"
    "If you did not ask for this, ignore this mail: nothing will be sent without the confirmation.\n",
    "You are subscribed to the status notifications of {page}.",
    "Preferences",
    "Unsubscribe",
    "Incident update",
    "Incident resolved",
    "Maintenance scheduled",
    "Maintenance starts in one hour",
    "Maintenance started",
    "Maintenance completed",
};

const SubscriberTexts kTr{
    "Aboneliğinizi onaylayın",
    "Bu sayfanın durum bildirimlerini bu adreste almak istediğinizi onaylayın.",
    "Aboneliği onayla",
    "Abonelik onaylandı",
    "Artık bu sayfanın bildirimlerini alacaksınız. Her e-postada aboneliği değiştirme veya bitirme "
    "bağlantısı vardır.",
    "Bağlantı geçersiz",
    "Bu bağlantı artık geçerli değil. Abonelik kaldırılmış olabilir.",
    "Bildirim tercihleri",
    "Bu aboneliğin hangi bildirimleri alacağını seçin.",
    "Bildirim konuları",
    "Olaylar ve bakım çalışmaları",
    "Yalnızca olaylar",
    "Yalnızca bakım çalışmaları",
    "Bileşenler",
    "Hiçbiri seçilmezse tüm bileşenler.",
    "Tercihleri kaydet",
    "Tercihleriniz kaydedildi.",
    "Abonelikten çık",
    "Bu abonelik için bu sayfanın tüm bildirimlerini durdurun.",
    "Abonelikten çık",
    "Abonelikten çıkıldı",
    "Bu sayfanın bildirimlerini artık almayacaksınız.",
    "Form bu sayfadan gönderilmedi. Sayfayı yenileyip tekrar deneyin.",
    "{page} aboneliğinizi onaylayın",
    "Birisi, umarız sizsiniz, {page} durum bildirimlerini bu adreste almak istedi.\n\n"
    "Aboneliği onaylamak için bu bağlantıyı açın:\n{link}\n\n"
    "Bunu siz istemediyseniz bu e-postayı dikkate almayın: onay olmadan hiçbir şey gönderilmez.\n",
    "{page} durum bildirimlerine abone oldunuz.",
    "Tercihler",
    "Abonelikten çık",
    "Olay güncellemesi",
    "Olay çözüldü",
    "Bakım planlandı",
    "Bakım bir saat içinde başlıyor",
    "Bakım başladı",
    "Bakım tamamlandı",
};

// A localized `{tr, en}` member in `lang` (the other language when that one is empty), or a plain string.
std::string localized(const core::json::value* v, Lang lang) {
  if (!v) return {};
  if (v->is_string()) return std::string(v->get_string());
  if (!v->is_object()) return {};
  const auto& o = v->get_object();
  std::string first = record::str(o, lang == Lang::tr ? "tr" : "en");
  return first.empty() ? record::str(o, lang == Lang::tr ? "en" : "tr") : first;
}

std::string_view event_words(const SubscriberTexts& t, std::string_view event) {
  if (event == "incident.updated") return t.ev_incident_updated;
  if (event == "incident.resolved") return t.ev_incident_resolved;
  if (event == "maintenance.scheduled") return t.ev_maintenance_scheduled;
  if (event == "maintenance.reminder") return t.ev_maintenance_reminder;
  if (event == "maintenance.started") return t.ev_maintenance_started;
  if (event == "maintenance.completed") return t.ev_maintenance_completed;
  return event;
}

}  // namespace

const SubscriberTexts& subscriber_texts(Lang lang) {
  return lang == Lang::tr ? kTr : kEn;
}

Lang lang_from_code(std::string_view code) {
  return code == "tr" ? Lang::tr : Lang::en;
}

NotificationText notification_text(std::string_view event, const core::json::object& data,
                                   std::string_view page_name, Lang lang) {
  const SubscriberTexts& t = subscriber_texts(lang);
  std::string title = localized(data.if_contains("incidentTitle"), lang);
  if (title.empty()) title = localized(data.if_contains("title"), lang);
  NotificationText out;
  out.subject = "[" + std::string(page_name) + "] " + std::string(event_words(t, event));
  if (!title.empty()) out.subject += ": " + title;
  out.body = std::string(event_words(t, event));
  if (!title.empty()) out.body += ": " + title;
  out.body += "\n";
  std::string body, status;
  if (const auto* u = data.if_contains("update"); u && u->is_object()) {
    body = localized(u->get_object().if_contains("body"), lang);
    status = record::str(u->get_object(), "status");
  }
  if (body.empty()) body = localized(data.if_contains("description"), lang);
  if (status.empty()) status = record::str(data, "status");
  if (!status.empty()) out.body += "(" + status + ")\n";
  if (!body.empty()) out.body += "\n" + body + "\n";
  for (const char* member : {"scheduledStart", "end"})
    if (auto v = record::str(data, member); !v.empty()) out.body += std::string(member) + ": " + v + "\n";
  return out;
}

}  // namespace edge::status
