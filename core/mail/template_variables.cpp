#include "core/mail/template_variables.h"

#include <algorithm>
#include <cstddef>

#include "core/mail/scope.h"

namespace core::mail {

namespace {

void add_once(std::vector<std::string>& names, std::string_view name) {
  if (std::find(names.begin(), names.end(), name) == names.end()) names.emplace_back(name);
}

}  // namespace

std::vector<std::string> template_variables(const Template& tpl) {
  std::vector<std::string> names;
  const auto nodes = tpl.nodes();
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const TemplateNode& node = nodes[i];
    if (node.kind == NodeKind::literal || node.kind == NodeKind::section_end) continue;
    add_once(names, tpl.view(node));
    if (node.kind == NodeKind::section) i = node.end;  // its body names the elements' fields
  }
  return names;
}

std::vector<SectionFields> section_fields(const Template& tpl) {
  std::vector<SectionFields> sections;
  const auto nodes = tpl.nodes();
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].kind != NodeKind::section) continue;
    SectionFields fields{std::string(tpl.view(nodes[i])), {}};
    for (std::size_t j = i + 1; j < nodes[i].end; ++j) {
      if (nodes[j].kind == NodeKind::variable) add_once(fields.names, tpl.view(nodes[j]));
    }
    sections.push_back(std::move(fields));
    i = nodes[i].end;
  }
  return sections;
}

std::vector<std::string> missing_variables(const Template& tpl, const json::object& variables) {
  const auto nodes = tpl.nodes();
  // Marked per node first, so that the names come out in the template's order whatever element lacks them.
  std::vector<bool> missing(nodes.size(), false);
  auto at_top = [&](std::size_t i) { return variables.contains(tpl.view(nodes[i])); };

  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const TemplateNode& node = nodes[i];
    switch (node.kind) {
      case NodeKind::literal:
      case NodeKind::section_end:
        break;
      case NodeKind::variable:
        missing[i] = !at_top(i);
        break;
      case NodeKind::section: {
        const json::value* v = lookup(nullptr, variables, tpl.view(node));
        if (v == nullptr) {
          missing[i] = true;
        } else if (const SectionUse use = section_use(*v);
                   use == SectionUse::repeat || use == SectionUse::once) {
          for (std::size_t j = i + 1; j < node.end; ++j) {
            if (nodes[j].kind != NodeKind::variable || at_top(j)) continue;
            if (use == SectionUse::once) {
              missing[j] = true;
              continue;
            }
            const std::string_view name = tpl.view(nodes[j]);
            for (const json::value& element : v->get_array()) {
              if (!element.get_object().contains(name)) {
                missing[j] = true;
                break;
              }
            }
          }
        }
        i = node.end;
        break;
      }
      case NodeKind::inverted_section:
        if (is_blank(lookup(nullptr, variables, tpl.view(node)))) {
          for (std::size_t j = i + 1; j < node.end; ++j) {
            missing[j] = nodes[j].kind == NodeKind::variable && !at_top(j);
          }
        }
        i = node.end;
        break;
    }
  }
  std::vector<std::string> names;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (missing[i]) add_once(names, tpl.view(nodes[i]));
  }
  return names;
}

}  // namespace core::mail
