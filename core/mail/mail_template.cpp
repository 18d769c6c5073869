#include "core/mail/mail_template.h"

#include <algorithm>
#include <utility>

#include "core/mail/render.h"
#include "core/mail/template_variables.h"

namespace core::mail {

namespace {

Result<std::vector<Template>> compile_all(const LocalizedString& text, const char* field,
                                          TemplateErrorSite* site) {
  std::vector<Template> out;
  out.reserve(text.entries().size());
  for (const LocalizedString::Entry& entry : text.entries()) {
    std::size_t offset = 0;
    auto compiled = Template::compile(entry.text, &offset);
    if (!compiled) {
      if (site != nullptr) *site = TemplateErrorSite{field, entry.locale, offset};
      const std::string where = entry.locale.empty() ? field : std::string(field) + "[" + entry.locale + "]";
      return make_error(compiled.error().code, where + ": " + compiled.error().message);
    }
    out.push_back(std::move(compiled).value());
  }
  return out;
}

void merge(std::vector<std::string>& into, std::vector<std::string> names) {
  for (std::string& name : names) {
    if (std::find(into.begin(), into.end(), name) == into.end()) into.push_back(std::move(name));
  }
}

}  // namespace

Result<MailTemplate> MailTemplate::compile(LocalizedString name, LocalizedString subject,
                                           LocalizedString body, TemplateErrorSite* site) {
  auto subjects = compile_all(subject, "subject", site);
  if (!subjects) return subjects.error();
  auto bodies = compile_all(body, "body", site);
  if (!bodies) return bodies.error();
  MailTemplate t(std::move(name), std::move(subject), std::move(body));
  t.subjects_ = std::move(subjects).value();
  t.bodies_ = std::move(bodies).value();
  return t;
}

std::vector<std::string> MailTemplate::variables() const {
  std::vector<std::string> names;
  for (const Template& t : subjects_) merge(names, template_variables(t));
  for (const Template& t : bodies_) merge(names, template_variables(t));
  return names;
}

std::vector<std::string> MailTemplate::missing_variables(std::string_view locale,
                                                         const boost::json::object& variables) const {
  std::vector<std::string> names = mail::missing_variables(subjects_[subject_.pick_index(locale)], variables);
  merge(names, mail::missing_variables(bodies_[body_.pick_index(locale)], variables));
  return names;
}

Result<RenderedMail> MailTemplate::render(std::string_view locale,
                                          const boost::json::object& variables) const {
  const std::vector<std::string> missing = missing_variables(locale, variables);
  if (!missing.empty()) {
    std::string names;
    for (const std::string& name : missing) names += (names.empty() ? "" : ", ") + name;
    return make_error("missing_variables", "missing variables: " + names);
  }
  RenderedMail mail;
  CORE_TRY(render_to(mail.subject, subjects_[subject_.pick_index(locale)], variables, Escaping::none));
  CORE_TRY(render_to(mail.html, bodies_[body_.pick_index(locale)], variables, Escaping::html));
  return mail;
}

}  // namespace core::mail
