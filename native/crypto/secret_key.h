#pragma once
// The deployment's secret key for values sealed at rest (core/sealed.h).

#include <string>

#include "core/random.h"
#include "core/result.h"
#include "core/sealed.h"

namespace native {

// `configured_hex` (64 hex characters, from PLATFORM_SECRET_KEY) when given; otherwise the key in
// `<data_dir>/secret.key`, created with 32 random bytes and mode 0600 on first use. Errors:
// `invalid_secret_key` for a malformed key, `storage_error` when the file cannot be read or written.
core::Result<core::SecretKey> load_secret_key(const std::string& configured_hex, const std::string& data_dir,
                                              core::RandomSource& random);

}  // namespace native
