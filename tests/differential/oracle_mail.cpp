// renderTemplate, missingVariables and pickLocalized answered by core/mail/. `variables` arrives as a JSON
// object (used as parsed from the request line) or as its text (parsed with core::parse_json_object, as a
// send body is). On top of the core's errors the package documents `offset` on compile errors (the byte
// offset of the offending tag) and `missing` on a render refused for missing variables.

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/mail/localized_string.h"
#include "core/mail/render.h"
#include "core/mail/template.h"
#include "core/mail/template_variables.h"
#include "tests/differential/oracle.h"

namespace oracle {
namespace {

namespace mail = core::mail;

json::array names(const std::vector<std::string>& list) {
  json::array out;
  for (const std::string& name : list) out.emplace_back(name);
  return out;
}

core::Result<mail::Template> compiled(const json::value& js, json::value* refused) {
  std::size_t offset = 0;
  auto t = mail::Template::compile(text(js), &offset);
  if (!t) {
    *refused = fail(t.error());
    refused->as_object()["offset"] = offset;
  }
  return t;
}

core::Result<json::object> variables(const json::value& js) {
  if (js.is_string()) return core::parse_json_object(js.as_string());
  return js.as_object();
}

json::value render_template(const json::array& args) {
  json::value refused;
  auto t = compiled(arg(args, 0), &refused);
  if (!t) return refused;
  auto vars = variables(arg(args, 1));
  if (!vars) return fail(vars.error());
  const json::value& escaping = arg(args, 2);  // 'html' (the default) or 'none'
  const auto mode =
      escaping.is_string() && escaping.as_string() == "none" ? mail::Escaping::none : mail::Escaping::html;
  auto out = mail::render(*t, *vars, mode);
  if (!out) {
    json::value answer = fail(out.error());
    if (out.error().code == "missing_variables") {
      answer.as_object()["missing"] = names(mail::missing_variables(*t, *vars));
    }
    return answer;
  }
  return ok(json::string(*out));
}

json::value missing_variables(const json::array& args) {
  json::value refused;
  auto t = compiled(arg(args, 0), &refused);
  if (!t) return refused;
  auto vars = variables(arg(args, 1));
  if (!vars) return fail(vars.error());
  return ok(names(mail::missing_variables(*t, *vars)));
}

json::value pick_localized(const json::array& args) {
  auto localized = mail::LocalizedString::from_json(arg(args, 0));
  if (!localized) return fail(localized.error());
  const auto& entry = localized->entries()[localized->pick_index(text(arg(args, 1)))];
  return ok(json::object{{"locale", entry.locale}, {"text", entry.text}});
}

constexpr std::array kFunctions = {
    Function{"renderTemplate", &render_template},
    Function{"missingVariables", &missing_variables},
    Function{"pickLocalized", &pick_localized},
};

}  // namespace

std::span<const Function> mail_functions() {
  return kFunctions;
}

}  // namespace oracle
