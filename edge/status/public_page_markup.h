#pragma once
// A small element tree for the status service's public documents (the page, the embed, the Atom feed):
// handlers describe elements, attributes and text, and `render` writes them with every text and attribute
// value escaped, so no user data (page names, incident bodies) reaches the output unescaped and no handler
// concatenates markup.

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace edge::status::markup {

struct Node {
  enum class Kind { element, text, raw };
  Kind kind = Kind::element;
  std::string name;  // element name, or the text
  std::vector<std::pair<std::string, std::string>> attributes;
  std::vector<Node> children;

  // Appends and answers the child, for building in steps.
  Node& add(Node child) {
    children.push_back(std::move(child));
    return children.back();
  }
  Node& attr(std::string name_, std::string value) {
    attributes.emplace_back(std::move(name_), std::move(value));
    return *this;
  }
};

using Attrs = std::vector<std::pair<std::string, std::string>>;

Node el(std::string name, Attrs attributes = {}, std::vector<Node> children = {});
Node text(std::string_view value);
// Trusted markup written by the code itself (never user data): the inline SVG icons.
Node raw(std::string_view markup);
// Children without an element of their own (rendered in place).
Node fragment(std::vector<Node> children);

// HTML serialization: `<!doctype html>` first when the root is <html>; void elements without an end tag.
std::string render_html(const Node& root);
// XML serialization with the XML declaration; elements without children as <name/>.
std::string render_xml(const Node& root);

}  // namespace edge::status::markup
