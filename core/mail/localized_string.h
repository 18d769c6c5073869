#pragma once
// LocalizedString (spec document 2, "Resources and their fields"): either a plain string, applied to all
// locales, or an object keyed by locale (`tr`, `en`). When the recipient's locale has no entry, `en` is
// used, then the first available key.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json.hpp>

#include "core/result.h"

namespace core::mail {

class LocalizedString {
 public:
  struct Entry {
    std::string locale;  // empty for a plain string
    std::string text;
  };

  // A plain string.
  explicit LocalizedString(std::string text);

  // From the JSON of a request or a stored record. Locale keys are kept as written and in their order
  // (the order decides the "first available key"); they are matched exactly, case included.
  // Errors: invalid_localized_string when `v` is neither a string nor an object, when the object is empty,
  // has an empty key, or has a value that is not a string (the message names the key).
  static Result<LocalizedString> from_json(const boost::json::value& v);

  bool is_plain() const { return plain_; }
  // At least one entry; a plain string is one entry with an empty locale.
  const std::vector<Entry>& entries() const { return entries_; }

  // The index in entries() of the text for `locale`: the plain string; else the entry keyed exactly
  // `locale`; else `en`; else the first entry.
  std::size_t pick_index(std::string_view locale) const;
  const std::string& pick(std::string_view locale) const { return entries_[pick_index(locale)].text; }

  // A plain string as a JSON string, an object as {locale: text} in its order.
  boost::json::value to_json() const;

 private:
  LocalizedString() = default;
  bool plain_ = true;
  std::vector<Entry> entries_;
};

}  // namespace core::mail
