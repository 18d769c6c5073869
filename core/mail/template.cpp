#include "core/mail/template.h"

#include <cstring>
#include <optional>

namespace core::mail {

namespace {

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

struct Tag {
  NodeKind kind;
  std::size_t name_begin;
  std::size_t name_size;
  std::size_t end;  // one past the last closing brace
  bool inverted_close;
};

// The tag starting at `at` (a `{`) with `braces` opening and closing braces, if the text there is one.
std::optional<Tag> tag_at(std::string_view text, std::size_t at, std::size_t braces) {
  std::size_t i = at + braces;
  if (i > text.size()) return {};
  for (std::size_t b = 1; b < braces; ++b) {
    if (text[at + b] != '{') return {};
  }
  Tag tag{NodeKind::variable, 0, 0, 0, false};
  if (i < text.size()) {
    if (text[i] == '#') {
      tag.kind = NodeKind::section;
      ++i;
    } else if (text[i] == '^') {
      tag.kind = NodeKind::inverted_section;
      ++i;
    } else if (text[i] == '/') {
      tag.kind = NodeKind::section_end;
      ++i;
      if (i < text.size() && text[i] == '^') {
        tag.inverted_close = true;
        ++i;
      }
    }
  }
  tag.name_begin = i;
  while (i < text.size() && is_name_char(text[i])) ++i;
  tag.name_size = i - tag.name_begin;
  if (tag.name_size == 0 || text.size() - i < braces) return {};
  for (std::size_t b = 0; b < braces; ++b) {
    if (text[i + b] != '}') return {};
  }
  tag.end = i + braces;
  return tag;
}

Error syntax_error(std::size_t* error_offset, std::size_t offset, const char* code, std::string what) {
  if (error_offset != nullptr) *error_offset = offset;
  return make_error(code, what + " at byte " + std::to_string(offset));
}

}  // namespace

Result<Template> Template::compile(std::string_view text, std::size_t* error_offset) {
  if (text.size() > kMaxTemplateBytes) {
    return syntax_error(error_offset, 0, "template_too_large",
                        "template is longer than " + std::to_string(kMaxTemplateBytes) + " bytes");
  }
  Template t;
  t.text_.assign(text);
  const std::string_view src(t.text_);
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::size_t open = kNone;  // index of the open section's node
  std::size_t literal_start = 0;
  std::size_t at = 0;

  auto flush_literal = [&](std::size_t until) {
    if (until == literal_start) return;
    const auto begin = static_cast<std::uint32_t>(literal_start);
    const auto size = static_cast<std::uint32_t>(until - literal_start);
    t.nodes_.push_back({NodeKind::literal, begin, size, begin, 0});
    t.literal_bytes_ += size;
  };

  while (at < src.size()) {
    const void* brace = std::memchr(src.data() + at, '{', src.size() - at);
    if (brace == nullptr) break;
    at = static_cast<std::size_t>(static_cast<const char*>(brace) - src.data());
    auto tag = tag_at(src, at, 2);
    if (!tag) tag = tag_at(src, at, 1);
    if (!tag) {
      ++at;  // a literal brace; a tag may still start at the next one
      continue;
    }
    const std::string_view name = src.substr(tag->name_begin, tag->name_size);
    if (tag->kind == NodeKind::section || tag->kind == NodeKind::inverted_section) {
      if (open != kNone) {
        const auto& outer = t.nodes_[open];
        return syntax_error(error_offset, at, "template_nested_section",
                            "section '" + std::string(name) + "' opened inside section '" +
                                std::string(t.view(outer)) + "' (sections do not nest)");
      }
    } else if (tag->kind == NodeKind::section_end) {
      if (open == kNone) {
        return syntax_error(error_offset, at, "template_unexpected_close",
                            "'" + std::string(src.substr(at, tag->end - at)) + "' closes no open section");
      }
      const auto& opener = t.nodes_[open];
      const bool kind_matches = (opener.kind == NodeKind::inverted_section) == tag->inverted_close;
      if (!kind_matches || t.view(opener) != name) {
        const std::string expected = std::string(opener.kind == NodeKind::inverted_section ? "{/^" : "{/") +
                                     std::string(t.view(opener)) + "}";
        return syntax_error(error_offset, at, "template_mismatched_close",
                            "'" + std::string(src.substr(at, tag->end - at)) + "' does not close section '" +
                                std::string(t.view(opener)) + "' opened at byte " +
                                std::to_string(opener.offset) + " (expected " + expected + ")");
      }
    }
    flush_literal(at);
    const auto index = static_cast<std::uint32_t>(t.nodes_.size());
    t.nodes_.push_back({tag->kind, static_cast<std::uint32_t>(tag->name_begin),
                        static_cast<std::uint32_t>(tag->name_size), static_cast<std::uint32_t>(at), 0});
    if (tag->kind == NodeKind::section || tag->kind == NodeKind::inverted_section) {
      open = index;
    } else if (tag->kind == NodeKind::section_end) {
      t.nodes_[open].end = index;
      open = kNone;
    }
    at = tag->end;
    literal_start = at;
  }
  if (open != kNone) {
    const auto& opener = t.nodes_[open];
    return syntax_error(error_offset, opener.offset, "template_unclosed_section",
                        "section '" + std::string(t.view(opener)) + "' is never closed; opened");
  }
  flush_literal(src.size());
  return t;
}

}  // namespace core::mail
