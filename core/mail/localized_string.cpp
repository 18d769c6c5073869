#include "core/mail/localized_string.h"

#include <utility>

namespace core::mail {

namespace json = boost::json;

LocalizedString::LocalizedString(std::string text) : plain_(true), entries_{Entry{"", std::move(text)}} {}

Result<LocalizedString> LocalizedString::from_json(const json::value& v) {
  if (const json::string* s = v.if_string()) return LocalizedString(std::string(s->data(), s->size()));
  const json::object* o = v.if_object();
  if (o == nullptr) {
    return make_error("invalid_localized_string", "must be a string or an object of locale to string");
  }
  if (o->empty()) return make_error("invalid_localized_string", "must hold at least one locale");
  LocalizedString out;
  out.plain_ = false;
  out.entries_.reserve(o->size());
  for (const auto& [key, value] : *o) {
    if (key.empty()) return make_error("invalid_localized_string", "a locale key is empty");
    const json::string* text = value.if_string();
    if (text == nullptr) {
      return make_error("invalid_localized_string", "locale '" + std::string(key) + "' must be a string");
    }
    out.entries_.push_back(Entry{std::string(key), std::string(text->data(), text->size())});
  }
  return out;
}

std::size_t LocalizedString::pick_index(std::string_view locale) const {
  if (plain_) return 0;
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (entries_[i].locale == locale) return i;
  }
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (entries_[i].locale == "en") return i;
  }
  return 0;
}

json::value LocalizedString::to_json() const {
  if (plain_) return json::value(entries_[0].text);
  json::object o;
  for (const Entry& e : entries_) o[e.locale] = e.text;
  return o;
}

}  // namespace core::mail
