#pragma once
// The media list's filters and order (document 2: `type`, `folder`, `q`, `sort`, `dir`;
// docs/storage-api.md, "List media"). Pure: the caller reads the bucket's media into rows, and this filters
// and sorts them.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace core::storage {

enum class MediaSort { created_at, filename, size, position };

struct MediaQuery {
  std::string type;                   // "" any; else image, video, audio, doc, other
  std::optional<std::string> folder;  // absent: every folder; "": the bucket's root only
  std::string q;                      // "" any; else a filename substring, ASCII case-insensitive
  MediaSort sort = MediaSort::position;
  bool descending = false;
};

// From the query parameters (nullopt: absent). Defaults: sort `position`, dir `asc`.
// Errors: `invalid_query` naming the parameter (type, folder, q over 255 bytes, sort, dir).
Result<MediaQuery> parse_media_query(std::optional<std::string> type, std::optional<std::string> folder,
                                     std::optional<std::string> q, std::optional<std::string> sort,
                                     std::optional<std::string> dir);

std::string_view sort_name(MediaSort sort);

struct MediaRow {
  std::string id, filename, type, folder;
  std::uint64_t size = 0;
  std::int64_t created_ms = 0;
  std::int64_t position = 0;
  std::size_t index = 0;  // the caller's own reference to the record
};

bool matches(const MediaQuery& query, const MediaRow& row);

// Filters `rows` and sorts them; ties are broken by id (ascending, whatever `dir`), so paging is stable.
std::vector<MediaRow> select_media(std::vector<MediaRow> rows, const MediaQuery& query);

}  // namespace core::storage
