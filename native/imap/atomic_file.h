#pragma once
// Replacing a small file that a running Dovecot reads (its configuration, the passwd-files) so that a
// reader sees the old content or the new one, never a part.

#include <sys/types.h>

#include <string>
#include <string_view>

#include "core/result.h"

namespace native::imap {

// Writes `content` to a temporary file beside `path`, fsyncs it, renames it over `path` and fsyncs the
// folder. The new file has exactly `mode` and the group of its folder (so the folder's group decides who
// may read it: Dovecot's group for the passwd-files). Its modification time is at least one whole second
// later than the replaced file's: Dovecot notices a changed passwd-file by mtime in seconds and size only,
// so two same-size writes within a second would otherwise go unseen. Writers of one path must be
// serialized by the caller (the last rename wins). Errors: `storage_error` naming the step that failed;
// the temporary file is removed.
core::Status replace_file(const std::string& path, std::string_view content, mode_t mode);

}  // namespace native::imap
