#pragma once
// Reading and writing `.env` files (docs/env-vault.md, "Command-line client"), the format the env vault's
// command-line client pulls to and pushes from.
//
// Reading, line by line:
//   - blank lines and lines whose first non-blank character is `#` are comments;
//   - `KEY=VALUE`, with an optional `export ` prefix and blanks around `=`; KEY as core/vault/variables.h
//     says (`[A-Za-z_][A-Za-z0-9_]*`);
//   - VALUE unquoted: up to the end of the line or a ` #` comment, blanks trimmed at both ends;
//   - VALUE in single quotes: literal, no escapes, may span lines;
//   - VALUE in double quotes: escapes \n \r \t \" \\ \$ (any other backslash is kept as written), may span
//     lines; after the closing quote only blanks and a `#` comment may follow;
//   - a key given twice keeps its last value (as a shell would).
// Errors: `invalid_dotenv` with "line N: ..." (missing `=`, bad key, unterminated quote, text after a quote).
// Nothing is expanded: `$OTHER` stays as written.
//
// Writing: keys sorted, one `KEY=VALUE` per line, the value as is when it holds only [A-Za-z0-9_./:@,+-=],
// in single quotes when it holds no `'` and no line break, otherwise in double quotes with the escapes
// above. What write_dotenv writes, parse_dotenv reads back to the same map.

#include <map>
#include <string>
#include <string_view>

#include "core/result.h"

namespace core::vault {

using DotenvEntries = std::map<std::string, std::string, std::less<>>;

Result<DotenvEntries> parse_dotenv(std::string_view text);

// `header`, when not empty, goes first as `# <header>` comment lines.
std::string write_dotenv(const DotenvEntries& entries, std::string_view header = {});

}  // namespace core::vault
