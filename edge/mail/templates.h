#pragma once
// Templates (spec document 2, "Mail: templates"; docs/mail-templates.md). A template is compiled when it is
// written (a syntax error refuses the write) and the compiled form is kept in memory beside the record, keyed
// by the record's version: a send renders without parsing again.

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/json.h"
#include "core/mail/mail_template.h"
#include "core/result.h"
#include "edge/mail/mail_http.h"

namespace edge {
struct App;
}

namespace edge::mail {

namespace json = core::json;

struct StoredTemplate {
  json::object record;  // id, name, subject, body, domainId, variables, version, createdAt, updatedAt
  std::shared_ptr<const core::mail::MailTemplate> compiled;
};

// The API's view; the product form names the body `mjmlBody`.
json::object template_to_api(const json::object& record, PathForm form);

// What a create or update carries. Errors: wrong types (`invalid_field`), an invalid LocalizedString,
// template syntax (`invalid_template`, naming field, locale and offset).
struct TemplateFields {
  std::optional<core::mail::LocalizedString> name, subject, body;
  std::optional<std::string> domain_id;
};
core::Result<TemplateFields> parse_template_fields(const json::object& body);

// Errors: `unprocessable` when the domain is not a verified domain of the company, those of compile.
core::Result<StoredTemplate> create_template(App& app, std::string_view company_id, const TemplateFields& f);
// Partial update; at least one field. Errors: as create, `not_found`, `invalid_field` for an empty update.
core::Result<StoredTemplate> update_template(App& app, std::string_view company_id, std::string_view id,
                                             const TemplateFields& f);
core::Result<json::array> list_templates(App& app, std::string_view company_id, PathForm form);
core::Status delete_template(App& app, std::string_view company_id, std::string_view id);

// The template with its compiled form, from the cache when its version is current. `not_found` otherwise.
core::Result<StoredTemplate> load_template(App& app, std::string_view company_id, std::string_view id);

// Compiled templates by template id, each with the version it was compiled from.
class TemplateCache {
 public:
  std::shared_ptr<const core::mail::MailTemplate> get(const std::string& id, std::int64_t version);
  void put(const std::string& id, std::int64_t version, std::shared_ptr<const core::mail::MailTemplate> t);
  void erase(const std::string& id);

 private:
  std::mutex mutex_;
  std::unordered_map<std::string, std::pair<std::int64_t, std::shared_ptr<const core::mail::MailTemplate>>>
      map_;
};

}  // namespace edge::mail
