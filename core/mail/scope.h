#pragma once
// How a template's names resolve against a send call's `variables`, shared by render.h and
// template_variables.h so that rendering and the missing-variable check can never disagree.

#include <string_view>

#include <boost/json.hpp>

namespace core::mail {

namespace json = boost::json;

// The value `name` stands for: inside a `{#section}` element (`item` non-null) the element's field first,
// then the top-level variable; elsewhere the top-level variable. nullptr when neither has it (missing).
inline const json::value* lookup(const json::object* item, const json::object& root, std::string_view name) {
  if (item != nullptr) {
    if (auto it = item->find(name); it != item->end()) return &it->value();
  }
  auto it = root.find(name);
  return it == root.end() ? nullptr : &it->value();
}

// The values for which `{^name}` renders (spec/DECISIONS.md): missing (nullptr), null, false, "" and [].
// 0 is a value, and so is an empty object.
inline bool is_blank(const json::value* v) {
  if (v == nullptr || v->is_null()) return true;
  if (const bool* b = v->if_bool()) return !*b;
  if (const json::string* s = v->if_string()) return s->empty();
  if (const json::array* a = v->if_array()) return a->empty();
  return false;
}

// What a `{#name}` section does with its value: an array repeats the body per element (each element an
// object), true renders it once with the top-level variables, false and null render nothing; anything else
// (a number, a string, an object, an array holding a non-object) is refused as invalid_variable.
enum class SectionUse { repeat, once, skip, invalid };

inline SectionUse section_use(const json::value& v) {
  if (const json::array* a = v.if_array()) {
    for (const json::value& element : *a) {
      if (!element.is_object()) return SectionUse::invalid;
    }
    return SectionUse::repeat;
  }
  if (const bool* b = v.if_bool()) return *b ? SectionUse::once : SectionUse::skip;
  if (v.is_null()) return SectionUse::skip;
  return SectionUse::invalid;
}

}  // namespace core::mail
