// The `platform_templates` ES module (templates entry of bindings/): the mail template engine of core/mail/,
// so that the dashboard's live preview and JS apps compile, check and render templates exactly as the send
// path does.
//
// Contract with bindings/templates.js, as in tokens_module.cpp (answers `{ok: true, value}` or
// `{ok: false, code, message}` with the core's code; nothing throws into JS), plus:
// - Every function takes the template text and compiles it again: no compiled object crosses into JS, so
//   nothing needs freeing and a preview never holds a stale template. Compiling is a single pass (about
//   0.5 µs for the 3 KB benchmark receipt natively, docs/performance.md).
// - A compile error also carries `offset`, the byte offset of the offending tag in the UTF-8 text.
// - `variables` arrives as JSON text (bindings/templates.js stringifies an object), parsed like a send call's
//   body: not JSON is invalid_json, JSON that is not an object is invalid_body.
// - A render refused for missing variables also carries `missing`, the names (missingVariables' answer).

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/json.h"
#include "core/mail/localized_string.h"
#include "core/mail/render.h"
#include "core/mail/template.h"
#include "core/mail/template_variables.h"
#include "wasm/js_result.h"

namespace {

using emscripten::val;
using platform_wasm::error_result;
using platform_wasm::ok_result;

namespace mail = core::mail;

val string_array(const std::vector<std::string>& names) {
  val out = val::array();
  for (const std::string& name : names) out.call<void>("push", name);
  return out;
}

// The compiled template, or the `{ok: false, code, message, offset}` answer in `*failure`.
std::optional<mail::Template> compile(const std::string& text, val* failure) {
  std::size_t offset = 0;
  auto compiled = mail::Template::compile(text, &offset);
  if (compiled) return std::move(compiled).value();
  *failure = error_result(compiled.error());
  failure->set("offset", static_cast<double>(offset));
  return std::nullopt;
}

// {variables, sectionFields: [{section, names}]}. Errors: the compile codes (with offset).
val compile_template(const std::string& text) {
  val failure = val::null();
  auto t = compile(text, &failure);
  if (!t) return failure;
  val sections = val::array();
  for (const mail::SectionFields& fields : mail::section_fields(*t)) {
    val entry = val::object();
    entry.set("section", fields.section);
    entry.set("names", string_array(fields.names));
    sections.call<void>("push", entry);
  }
  val value = val::object();
  value.set("variables", string_array(mail::template_variables(*t)));
  value.set("sectionFields", sections);
  return ok_result(value);
}

// The output string. Errors: the compile codes (with offset), invalid_json, invalid_body,
// missing_variables (with missing), invalid_variable.
val render_template(const std::string& text, const std::string& variables_json, bool escape_html) {
  val failure = val::null();
  auto t = compile(text, &failure);
  if (!t) return failure;
  auto variables = core::parse_json_object(variables_json);
  if (!variables) return error_result(variables.error());
  auto out = mail::render(*t, *variables, escape_html ? mail::Escaping::html : mail::Escaping::none);
  if (!out) {
    val error = error_result(out.error());
    if (out.error().code == "missing_variables") {
      error.set("missing", string_array(mail::missing_variables(*t, *variables)));
    }
    return error;
  }
  return ok_result(val(*out));
}

// The names the send call leaves out. Errors: the compile codes (with offset), invalid_json, invalid_body.
val missing_variables(const std::string& text, const std::string& variables_json) {
  val failure = val::null();
  auto t = compile(text, &failure);
  if (!t) return failure;
  auto variables = core::parse_json_object(variables_json);
  if (!variables) return error_result(variables.error());
  return ok_result(string_array(mail::missing_variables(*t, *variables)));
}

// {locale, text}: the entry a LocalizedString (JSON text) gives `locale` (locale '' for a plain string).
// Errors: invalid_json, invalid_localized_string.
val pick_localized(const std::string& localized_json, const std::string& locale) {
  auto parsed = core::parse_json(localized_json);
  if (!parsed) return error_result(parsed.error());
  auto localized = mail::LocalizedString::from_json(*parsed);
  if (!localized) return error_result(localized.error());
  const auto& entry = localized->entries()[localized->pick_index(locale)];
  val value = val::object();
  value.set("locale", entry.locale);
  value.set("text", entry.text);
  return ok_result(value);
}

// {locale, text}: the entry of a LocalizedString (JSON text) that `locale` picks (the send path's rule:
// exact key, else `en`, else the first; locale '' for a plain string), rendered with `variables_json`.
// Errors: invalid_json, invalid_localized_string, then render_template's for the picked text; a compile error
// also carries `locale`, the entry's key.
val render_localized(const std::string& localized_json, const std::string& variables_json,
                     const std::string& locale, bool escape_html) {
  auto parsed = core::parse_json(localized_json);
  if (!parsed) return error_result(parsed.error());
  auto localized = mail::LocalizedString::from_json(*parsed);
  if (!localized) return error_result(localized.error());
  const auto& entry = localized->entries()[localized->pick_index(locale)];
  val rendered = render_template(entry.text, variables_json, escape_html);
  if (!rendered["ok"].as<bool>()) {
    rendered.set("locale", entry.locale);
    return rendered;
  }
  val value = val::object();
  value.set("locale", entry.locale);
  value.set("text", rendered["value"]);
  return ok_result(value);
}

}  // namespace

EMSCRIPTEN_BINDINGS(platform_templates) {
  emscripten::function("compileTemplate", &compile_template);
  emscripten::function("renderTemplate", &render_template);
  emscripten::function("missingVariables", &missing_variables);
  emscripten::function("pickLocalized", &pick_localized);
  emscripten::function("renderLocalized", &render_localized);
}
