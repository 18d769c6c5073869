#pragma once
// The words of the public status documents (the page, the embed, the Atom feed) in English and Turkish.

#include <string_view>

#include "edge/pages/lang.h"

namespace edge::status {

struct PublicTexts {
  // Overall banner, by the snapshot's `overall`.
  std::string_view overall_operational, overall_degraded, overall_down, overall_maintenance, overall_no_data;
  // A component's or a day's status.
  std::string_view operational, degraded, down, maintenance, no_data;
  std::string_view components, uptime_24h, uptime_30d, days_ago_90, today, no_components;
  std::string_view active_incidents, upcoming_maintenance, past_incidents, no_past_incidents;
  std::string_view started, resolved, scheduled_for, affects;
  // Incident statuses and impacts.
  std::string_view investigating, identified, monitoring, resolved_status;
  std::string_view impact_minor, impact_major, impact_critical;
  std::string_view subscribe, subscribe_lead, channel_email, channel_webhook, email_address, webhook_url,
      subscribe_button, subscribe_done, subscribe_failed;
  std::string_view feed, incident_history, last_updated, live, reconnecting, powered_by, view_page, loading;
  std::string_view not_found_title, not_found_lead;
};

const PublicTexts& public_texts(Lang lang);

// The text of a status wire name (`operational`, `degraded`, `down`, `maintenance`, `no-data`) and of the
// overall banner; the name itself for anything else.
std::string_view status_words(const PublicTexts& t, std::string_view status);
std::string_view overall_words(const PublicTexts& t, std::string_view status);
// Incident status (`investigating`...`resolved`) and impact (`minor`, `major`, `critical`).
std::string_view incident_status_words(const PublicTexts& t, std::string_view status);
std::string_view impact_words(const PublicTexts& t, std::string_view impact);

}  // namespace edge::status
