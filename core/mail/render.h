#pragma once
// Rendering a compiled template with a send call's `variables` (spec document 2, "Template variable
// syntax"; spec/DECISIONS.md "Templates"). Rules: docs/mail-templates.md.

#include <string>

#include <boost/json.hpp>

#include "core/mail/escape.h"
#include "core/mail/template.h"
#include "core/result.h"

namespace core::mail {

// The template's output. Literal text is copied byte for byte (lines holding only a tag keep their
// newline). A `{name}` tag takes its value from the element of the enclosing `{#section}` first, then from
// `variables`; strings are inserted through `escaping`, numbers as their JSON text (integers as integers,
// other numbers as printf %g with the fewest digits that read back the same), true/false as `true` /
// `false`, null as nothing. Sections: see scope.h.
// Errors:
//   missing_variables  a name the output needs is not provided; the message lists every such name, in the
//                      order of missing_variables() (the 422 of the send call)
//   invalid_variable   an array or object where a scalar belongs, or a `{#name}` value that is not an
//                      array of objects, true, false or null; the message names it (and the element)
Result<std::string> render(const Template& tpl, const boost::json::object& variables, Escaping escaping);

// The same, appending to `out` (a caller's reused buffer). On an error `out` holds a partial output.
Status render_to(std::string& out, const Template& tpl, const boost::json::object& variables,
                 Escaping escaping);

}  // namespace core::mail
