#pragma once
// The names a template needs (the Template resource's read-only `variables`, spec document 2) and the ones
// a send call leaves out (its 422). Rules: docs/mail-templates.md, "Variables".

#include <string>
#include <vector>

#include <boost/json.hpp>

#include "core/mail/template.h"

namespace core::mail {

// The top-level names the template references, each once, in order of first appearance: variables outside
// sections, the names of sections and inverted sections, and variables inside inverted sections (which do
// not change scope). Names used only inside a `{#section}` are the elements' fields and are listed by
// section_fields() instead.
std::vector<std::string> template_variables(const Template& tpl);

// The names used inside one `{#section}`, each once per section, in order of first appearance. They resolve
// to the element's field first, then to the top-level variable of that name.
struct SectionFields {
  std::string section;
  std::vector<std::string> names;
};
// One entry per `{#name}` section of the template, in order (a section that appears twice appears twice).
std::vector<SectionFields> section_fields(const Template& tpl);

// The names the template would need with these `variables` and that they do not provide, each once, in
// order of first appearance; empty when render() cannot fail with missing_variables. Exactly the lookups
// render() makes:
// - a variable outside sections, and a `{#name}` section's own name, must be a top-level variable;
// - inside `{#name}` over an array, a name is provided when the top level has it or every element has it
//   (an empty array needs nothing); over true, when the top level has it; over false or null, never needed;
// - `{^name}` never needs `name` (missing means render); inside it, names must be top-level when it renders.
// A section whose value render() would refuse (invalid_variable) contributes nothing here.
std::vector<std::string> missing_variables(const Template& tpl, const boost::json::object& variables);

}  // namespace core::mail
