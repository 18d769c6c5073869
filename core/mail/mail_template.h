#pragma once
// A Template resource compiled for sending (spec document 2): every locale of its subject and body compiled
// once, its read-only `variables`, and the rendering of one send call. The name is a LocalizedString shown
// to people, never rendered into a mail, so it is not compiled (a `{x}` in it is text and needs no variable).

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json.hpp>

#include "core/mail/localized_string.h"
#include "core/mail/template.h"
#include "core/result.h"

namespace core::mail {

// Where compile() found a syntax error, for an editor to point at it.
struct TemplateErrorSite {
  std::string field;   // "subject" or "body"
  std::string locale;  // empty for a plain string
  std::size_t offset = 0;
};

// What one send call renders: the subject as it is, the body HTML-escaped.
struct RenderedMail {
  std::string subject;
  std::string html;
};

class MailTemplate {
 public:
  // Compiles every locale of `subject` and `body`. Errors: the first Template::compile error, subject
  // before body and locales in their order; the message starts with the field and locale (`body[tr]: ...`,
  // `subject: ...` for a plain string) and `*site` (when given) says where.
  static Result<MailTemplate> compile(LocalizedString name, LocalizedString subject, LocalizedString body,
                                      TemplateErrorSite* site = nullptr);

  const LocalizedString& name() const { return name_; }
  const LocalizedString& subject() const { return subject_; }
  const LocalizedString& body() const { return body_; }

  // The Template resource's `variables`: template_variables() of every subject, then every body, each name
  // once in order of first appearance.
  std::vector<std::string> variables() const;

  // missing_variables() of the subject and body `locale` picks, subject first, each name once. A send call
  // with a non-empty answer is refused with 422.
  std::vector<std::string> missing_variables(std::string_view locale,
                                             const boost::json::object& variables) const;

  // The subject (Escaping::none) and body (Escaping::html) `locale` picks. Errors: those of render().
  Result<RenderedMail> render(std::string_view locale, const boost::json::object& variables) const;

 private:
  MailTemplate(LocalizedString name, LocalizedString subject, LocalizedString body)
      : name_(std::move(name)), subject_(std::move(subject)), body_(std::move(body)) {}

  LocalizedString name_;
  LocalizedString subject_;
  LocalizedString body_;
  // In the order of the entries of subject_ and body_.
  std::vector<Template> subjects_;
  std::vector<Template> bodies_;
};

}  // namespace core::mail
