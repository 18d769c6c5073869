#include "core/mail/render.h"

#include <charconv>
#include <cstddef>
#include <cstdio>
#include <cstdlib>

#include "core/mail/scope.h"
#include "core/mail/template_variables.h"

namespace core::mail {

namespace {

Error missing_error(const Template& tpl, const json::object& variables) {
  std::string names;
  for (const std::string& name : missing_variables(tpl, variables)) {
    if (!names.empty()) names += ", ";
    names += name;
  }
  return make_error("missing_variables", "missing variables: " + names);
}

Error not_scalar(std::string_view name, const json::value& v) {
  return make_error("invalid_variable",
                    "'" + std::string(name) + "' is " + (v.is_array() ? "an array" : "an object") + ": a {" +
                        std::string(name) + "} tag takes a string, number, boolean or null");
}

template <class Integer>
void append_integer(std::string& out, Integer n) {
  char buffer[24];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, n);
  (void)ec;  // 24 bytes hold every int64 and uint64
  out.append(buffer, static_cast<std::size_t>(end - buffer));
}

// printf's %g with the fewest significant digits that read back as the same double. Not std::to_chars:
// Emscripten 3.1.6's libc++ has no floating-point to_chars, and both builds must print the same text.
void append_double(std::string& out, double d) {
  char buffer[32];
  int size = 0;
  for (int precision = 1; precision <= 17; ++precision) {
    size = std::snprintf(buffer, sizeof buffer, "%.*g", precision, d);
    if (std::strtod(buffer, nullptr) == d) break;
  }
  out.append(buffer, static_cast<std::size_t>(size));
}

// One scalar as the output shows it. Returns false for an array or object.
bool append_scalar(std::string& out, const json::value& v, Escaping escaping) {
  switch (v.kind()) {
    case json::kind::string: {
      const json::string& s = v.get_string();
      append_escaped(out, std::string_view(s.data(), s.size()), escaping);
      return true;
    }
    case json::kind::int64:
      append_integer(out, v.get_int64());
      return true;
    case json::kind::uint64:
      append_integer(out, v.get_uint64());
      return true;
    case json::kind::double_:
      append_double(out, v.get_double());
      return true;
    case json::kind::bool_:
      out.append(v.get_bool() ? "true" : "false");
      return true;
    case json::kind::null:
      return true;
    default:
      return false;
  }
}

// Renders nodes [first, last) of a section body, which holds only literals and variables.
class Renderer {
 public:
  Renderer(std::string& out, const Template& tpl, const json::object& root, Escaping escaping)
      : out_(out), tpl_(tpl), nodes_(tpl.nodes()), root_(root), escaping_(escaping) {}

  Status run() {
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      const TemplateNode& node = nodes_[i];
      switch (node.kind) {
        case NodeKind::literal:
        case NodeKind::variable:
          CORE_TRY(span(i, i + 1, nullptr));
          break;
        case NodeKind::section:
          CORE_TRY(section(i));
          i = node.end;
          break;
        case NodeKind::inverted_section:
          if (is_blank(lookup(nullptr, root_, tpl_.view(node)))) CORE_TRY(span(i + 1, node.end, nullptr));
          i = node.end;
          break;
        case NodeKind::section_end:
          break;  // consumed by its opener
      }
    }
    return {};
  }

 private:
  Status section(std::size_t i) {
    const TemplateNode& node = nodes_[i];
    const std::string_view name = tpl_.view(node);
    const json::value* v = lookup(nullptr, root_, name);
    if (v == nullptr) return missing_error(tpl_, root_);
    switch (section_use(*v)) {
      case SectionUse::repeat:
        for (const json::value& element : v->get_array())
          CORE_TRY(span(i + 1, node.end, &element.get_object()));
        return {};
      case SectionUse::once:
        return span(i + 1, node.end, nullptr);
      case SectionUse::skip:
        return {};
      case SectionUse::invalid:
        break;
    }
    return make_error("invalid_variable", "'" + std::string(name) +
                                              "' must be an array of objects, true, false or null for {#" +
                                              std::string(name) + "}");
  }

  Status span(std::size_t first, std::size_t last, const json::object* item) {
    for (std::size_t i = first; i < last; ++i) {
      const TemplateNode& node = nodes_[i];
      const std::string_view text = tpl_.view(node);
      if (node.kind == NodeKind::literal) {
        out_.append(text);
        continue;
      }
      const json::value* v = lookup(item, root_, text);
      if (v == nullptr) return missing_error(tpl_, root_);
      if (!append_scalar(out_, *v, escaping_)) return not_scalar(text, *v);
    }
    return {};
  }

  std::string& out_;
  const Template& tpl_;
  std::span<const TemplateNode> nodes_;
  const json::object& root_;
  Escaping escaping_;
};

}  // namespace

Status render_to(std::string& out, const Template& tpl, const json::object& variables, Escaping escaping) {
  // Most of the output is the literal text; values and repeated rows add to it.
  out.reserve(out.size() + tpl.text().size() + tpl.text().size() / 2 + 64);
  return Renderer(out, tpl, variables, escaping).run();
}

Result<std::string> render(const Template& tpl, const json::object& variables, Escaping escaping) {
  std::string out;
  CORE_TRY(render_to(out, tpl, variables, escaping));
  return out;
}

}  // namespace core::mail
