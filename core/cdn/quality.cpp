#include "core/cdn/quality.h"

namespace core::cdn {

Result<Quality> quality_named(std::string_view segment) {
  for (const Quality& quality : kQualities) {
    if (quality.name == segment) return quality;
  }
  return make_error("not_found", "No such quality; use thumb, small, medium or large.");
}

}  // namespace core::cdn
