#pragma once
// A mail template compiled once (spec document 2, "Template variable syntax"; spec/DECISIONS.md "Templates"):
// the text is scanned a single time into a flat list of nodes (literal spans, variable tags, section
// openers that know where their section ends, section ends), which render.h and template_variables.h walk
// without parsing again. Rules and error codes: docs/mail-templates.md.
//
// Tag grammar: `{` or `{{`, an optional sigil (`#` section, `^` inverted section, `/` end of a section,
// `/^` end of an inverted section), a name of one or more ASCII letters, digits or underscores
// (case-sensitive), and as many closing braces as opening ones. Any other brace is literal text: CSS and
// JSON blocks, `{ }`, `{a-b}`, `{{ x }}` (spaces), `{{x}` (the `{x}` inside is the tag, the first `{` text).

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace core::mail {

enum class NodeKind : std::uint8_t {
  literal,           // text copied as it is
  variable,          // `{name}`: one scalar
  section,           // `{#name}`: once per array element
  inverted_section,  // `{^name}`: only when name is missing, null, false, "" or []
  section_end,       // `{/name}` or `{/^name}`
};

// One node of a compiled template. `begin` and `size` locate the literal text or the tag's name in
// Template::text(); `offset` is the tag's byte offset (the literal's start for literals); for a section
// opener, `end` is the index of its section_end node (for other nodes it is 0).
struct TemplateNode {
  NodeKind kind;
  std::uint32_t begin;
  std::uint32_t size;
  std::uint32_t offset;
  std::uint32_t end;
};

// The longest template text compile accepts (16 MiB): offsets fit in 32 bits with room to spare, and no
// mail comes near it.
inline constexpr std::size_t kMaxTemplateBytes = 16u << 20;

class Template {
 public:
  // Parses `text` once. Sections do not nest and must be closed by the matching end tag (`{#x}` by `{/x}`,
  // `{^x}` by `{/^x}`; single and double braces may be mixed). Errors, each naming the byte offset of the
  // offending tag in its message (and in `*error_offset` when given; untouched on success):
  //   template_nested_section    a section opened inside another (the inner opener's offset)
  //   template_unexpected_close  an end tag with no section open
  //   template_mismatched_close  an end tag that does not close the open section (other name or kind)
  //   template_unclosed_section  a section still open at the end of the text (the opener's offset)
  //   template_too_large         more than kMaxTemplateBytes (offset 0)
  static Result<Template> compile(std::string_view text, std::size_t* error_offset = nullptr);

  const std::string& text() const { return text_; }
  std::span<const TemplateNode> nodes() const { return nodes_; }
  // The tag name of a non-literal node, or the text of a literal one.
  std::string_view view(const TemplateNode& node) const {
    return std::string_view(text_).substr(node.begin, node.size);
  }
  // Bytes of literal text outside sections plus once per section body: a lower bound of any output.
  std::size_t literal_bytes() const { return literal_bytes_; }

 private:
  std::string text_;
  std::vector<TemplateNode> nodes_;
  std::size_t literal_bytes_ = 0;
};

}  // namespace core::mail
