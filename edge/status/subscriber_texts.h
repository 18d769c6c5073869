#pragma once
// The words subscribers read, in English and Turkish: the confirmation, preferences and unsubscribe pages,
// the opt-in mail, and the notification mails and chat messages (docs/status-subscribers.md).

#include <string>
#include <string_view>

#include "core/json.h"
#include "edge/pages/lang.h"

namespace edge::status {

struct SubscriberTexts {
  // Pages.
  std::string_view confirm_title, confirm_lead, confirm_button, confirmed_title, confirmed_lead;
  std::string_view invalid_title, invalid_lead;
  std::string_view prefs_title, prefs_lead, topic_label, topic_all, topic_incidents, topic_maintenance;
  std::string_view components_label, components_hint, save_button, saved_notice;
  std::string_view unsubscribe_title, unsubscribe_lead, unsubscribe_button, unsubscribed_title,
      unsubscribed_lead;
  std::string_view form_refused;
  // Mails and chat messages.
  std::string_view optin_subject, optin_body, telegram_confirmation, footer_preferences, footer_unsubscribe;
  std::string_view ev_incident_updated, ev_incident_resolved, ev_maintenance_scheduled,
      ev_maintenance_reminder, ev_maintenance_started, ev_maintenance_completed;
};

const SubscriberTexts& subscriber_texts(Lang lang);
Lang lang_from_code(std::string_view code);  // `tr` or English

// What a notification says, built from the event's `data` (docs/status-subscribers.md, "Messages"): a
// subject line and a plain-text body in `lang`. Members it does not know are ignored, so every event gets a
// sensible message whatever its payload holds.
struct NotificationText {
  std::string subject, body;
};
NotificationText notification_text(std::string_view event, const core::json::object& data,
                                   std::string_view page_name, Lang lang);

}  // namespace edge::status
