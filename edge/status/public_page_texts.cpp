#include "edge/status/public_page_texts.h"

namespace edge::status {
namespace {

constexpr PublicTexts kEn{
    .overall_operational = "All systems operational",
    .overall_degraded = "Degraded performance",
    .overall_down = "Service disruption",
    .overall_maintenance = "Maintenance in progress",
    .overall_no_data = "No data yet",
    .operational = "Operational",
    .degraded = "Degraded",
    .down = "Down",
    .maintenance = "Maintenance",
    .no_data = "No data",
    .components = "Components",
    .uptime_24h = "24 h",
    .uptime_30d = "30 days",
    .days_ago_90 = "90 days ago",
    .today = "Today",
    .no_components = "This page has no components yet.",
    .active_incidents = "Active incidents",
    .upcoming_maintenance = "Scheduled maintenance",
    .past_incidents = "Past incidents",
    .no_past_incidents = "No incidents reported.",
    .started = "Started",
    .resolved = "Resolved",
    .scheduled_for = "Scheduled",
    .affects = "Affects",
    .investigating = "Investigating",
    .identified = "Identified",
    .monitoring = "Monitoring",
    .resolved_status = "Resolved",
    .impact_minor = "Minor",
    .impact_major = "Major",
    .impact_critical = "Critical",
    .subscribe = "Subscribe to updates",
    .subscribe_lead = "Get incident and maintenance notifications by email or webhook.",
    .channel_email = "Email",
    .channel_webhook = "Webhook",
    .email_address = "Email address",
    .webhook_url = "Webhook URL",
    .subscribe_button = "Subscribe",
    .subscribe_done = "Done. Check your inbox to confirm, or keep this management token (shown once):",
    .subscribe_failed = "The subscription failed:",
    .feed = "Atom feed",
    .incident_history = "Incident history",
    .last_updated = "Updated",
    .live = "Live",
    .reconnecting = "Reconnecting…",
    .powered_by = "Status page",
    .view_page = "View status page",
    .loading = "Checking status…",
    .not_found_title = "Status page not found",
    .not_found_lead = "No status page has this address.",
};

constexpr PublicTexts kTr{
    .overall_operational = "Tüm sistemler çalışıyor",
    .overall_degraded = "Performans düşüklüğü",
    .overall_down = "Hizmet kesintisi",
    .overall_maintenance = "Bakım sürüyor",
    .overall_no_data = "Henüz veri yok",
    .operational = "Çalışıyor",
    .degraded = "Yavaş",
    .down = "Kesinti",
    .maintenance = "Bakım",
    .no_data = "Veri yok",
    .components = "Bileşenler",
    .uptime_24h = "24 saat",
    .uptime_30d = "30 gün",
    .days_ago_90 = "90 gün önce",
    .today = "Bugün",
    .no_components = "Bu sayfada henüz bileşen yok.",
    .active_incidents = "Süren olaylar",
    .upcoming_maintenance = "Planlı bakım",
    .past_incidents = "Geçmiş olaylar",
    .no_past_incidents = "Bildirilmiş olay yok.",
    .started = "Başlangıç",
    .resolved = "Çözüldü",
    .scheduled_for = "Planlanan",
    .affects = "Etkilenen",
    .investigating = "İnceleniyor",
    .identified = "Neden bulundu",
    .monitoring = "İzleniyor",
    .resolved_status = "Çözüldü",
    .impact_minor = "Düşük",
    .impact_major = "Yüksek",
    .impact_critical = "Kritik",
    .subscribe = "Güncellemelere abone olun",
    .subscribe_lead = "Olay ve bakım bildirimlerini e-posta ya da webhook ile alın.",
    .channel_email = "E-posta",
    .channel_webhook = "Webhook",
    .email_address = "E-posta adresi",
    .webhook_url = "Webhook adresi",
    .subscribe_button = "Abone ol",
    .subscribe_done =
        "Tamam. Onay için e-postanıza bakın ya da bu yönetim anahtarını saklayın (bir kez gösterilir):",
    .subscribe_failed = "Abonelik başarısız:",
    .feed = "Atom akışı",
    .incident_history = "Olay geçmişi",
    .last_updated = "Güncellendi",
    .live = "Canlı",
    .reconnecting = "Yeniden bağlanıyor…",
    .powered_by = "Durum sayfası",
    .view_page = "Durum sayfasını aç",
    .loading = "Durum kontrol ediliyor…",
    .not_found_title = "Durum sayfası bulunamadı",
    .not_found_lead = "Bu adreste bir durum sayfası yok.",
};

}  // namespace

const PublicTexts& public_texts(Lang lang) {
  return lang == Lang::tr ? kTr : kEn;
}

std::string_view status_words(const PublicTexts& t, std::string_view s) {
  if (s == "operational") return t.operational;
  if (s == "degraded") return t.degraded;
  if (s == "down") return t.down;
  if (s == "maintenance") return t.maintenance;
  if (s == "no-data") return t.no_data;
  return s;
}

std::string_view overall_words(const PublicTexts& t, std::string_view s) {
  if (s == "operational") return t.overall_operational;
  if (s == "degraded") return t.overall_degraded;
  if (s == "down") return t.overall_down;
  if (s == "maintenance") return t.overall_maintenance;
  if (s == "no-data") return t.overall_no_data;
  return s;
}

std::string_view incident_status_words(const PublicTexts& t, std::string_view s) {
  if (s == "investigating") return t.investigating;
  if (s == "identified") return t.identified;
  if (s == "monitoring") return t.monitoring;
  if (s == "resolved") return t.resolved_status;
  return s;
}

std::string_view impact_words(const PublicTexts& t, std::string_view s) {
  if (s == "minor") return t.impact_minor;
  if (s == "major") return t.impact_major;
  if (s == "critical") return t.impact_critical;
  return s;
}

}  // namespace edge::status
