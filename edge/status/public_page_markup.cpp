#include "edge/status/public_page_markup.h"

#include <algorithm>
#include <array>

namespace edge::status::markup {
namespace {

constexpr std::array<std::string_view, 8> kVoid = {"br",   "img", "input",  "link",
                                                   "meta", "hr",  "source", "wbr"};

void escape_into(std::string& out, std::string_view s, bool attribute) {
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        if (attribute)
          out += "&quot;";
        else
          out += c;
        break;
      case '\'':
        if (attribute)
          out += "&#39;";
        else
          out += c;
        break;
      default:
        out += c;
    }
  }
}

void render(std::string& out, const Node& n, bool xml) {
  switch (n.kind) {
    case Node::Kind::text:
      escape_into(out, n.name, false);
      return;
    case Node::Kind::raw:
      out += n.name;
      return;
    case Node::Kind::element:
      break;
  }
  if (n.name.empty()) {  // a fragment
    for (auto& c : n.children) render(out, c, xml);
    return;
  }
  out += '<';
  out += n.name;
  for (auto& [k, v] : n.attributes) {
    out += ' ';
    out += k;
    out += "=\"";
    escape_into(out, v, true);
    out += '"';
  }
  const bool is_void = !xml && std::find(kVoid.begin(), kVoid.end(), n.name) != kVoid.end();
  if (is_void) {
    out += '>';
    return;
  }
  if (xml && n.children.empty()) {
    out += "/>";
    return;
  }
  out += '>';
  for (auto& c : n.children) render(out, c, xml);
  out += "</";
  out += n.name;
  out += '>';
}

}  // namespace

Node el(std::string name, Attrs attributes, std::vector<Node> children) {
  Node n;
  n.name = std::move(name);
  n.attributes = std::move(attributes);
  n.children = std::move(children);
  return n;
}

Node text(std::string_view value) {
  Node n;
  n.kind = Node::Kind::text;
  n.name = std::string(value);
  return n;
}

Node raw(std::string_view markup) {
  Node n;
  n.kind = Node::Kind::raw;
  n.name = std::string(markup);
  return n;
}

Node fragment(std::vector<Node> children) {
  Node n;
  n.children = std::move(children);
  return n;
}

std::string render_html(const Node& root) {
  std::string out;
  out.reserve(16 * 1024);
  if (root.name == "html") out += "<!doctype html>\n";
  render(out, root, false);
  out += '\n';
  return out;
}

std::string render_xml(const Node& root) {
  std::string out = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n";
  render(out, root, true);
  out += '\n';
  return out;
}

}  // namespace edge::status::markup
