#pragma once
// How a variable's text enters the output (spec/DECISIONS.md "Templates"): HTML bodies escape it, subjects
// and text bodies take it as it is.

#include <string>
#include <string_view>

namespace core::mail {

enum class Escaping {
  html,  // `& < > " '` become `&amp; &lt; &gt; &quot; &#39;`; every other byte (UTF-8 included) unchanged
  none,  // inserted as it is: subjects and text bodies
};

// Appends `text` to `out` as `escaping` says.
void append_escaped(std::string& out, std::string_view text, Escaping escaping);

}  // namespace core::mail
