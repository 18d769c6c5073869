#pragma once
// Where the edge's secrets come from: an environment variable holding the value, or a file named by a
// flag (or by the variable `<NAME>_FILE`). Never a command-line value: argv is readable by every local user
// through `ps` and /proc/<pid>/cmdline, and lands in shell histories.

#include <string>

#include "core/result.h"

namespace edge {

// The secret `env_name` (e.g. OAUTH_RSA_PRIVATE_KEY): the contents of `file` when it is non-empty, with
// trailing CR/LF removed (files written by `echo` end in a newline); otherwise the variable's value; empty
// when neither is set. Errors: `invalid_secret` when both are set (which one wins would be a guess) or the
// file is empty, `storage_error` when the file cannot be read.
core::Result<std::string> read_secret(const char* env_name, const std::string& file);

}  // namespace edge
