#include "core/storage/media_list.h"

#include <algorithm>

#include "core/ascii.h"
#include "core/storage/media_fields.h"

namespace core::storage {

Result<MediaQuery> parse_media_query(std::optional<std::string> type, std::optional<std::string> folder,
                                     std::optional<std::string> q, std::optional<std::string> sort,
                                     std::optional<std::string> dir) {
  MediaQuery out;
  if (type && !type->empty()) {
    if (*type != "image" && *type != "video" && *type != "audio" && *type != "doc" && *type != "other")
      return make_error("invalid_query",
                        "query parameter 'type' must be one of image, video, audio, doc, other");
    out.type = *type;
  }
  if (folder) {
    if (!validate_folder(*folder).ok())
      return make_error("invalid_query", "query parameter 'folder' is not a valid folder");
    out.folder = *folder;
  }
  if (q) {
    if (q->size() > 255) return make_error("invalid_query", "query parameter 'q' must be at most 255 bytes");
    out.q = to_ascii_lower(*q);
  }
  if (sort && !sort->empty()) {
    if (*sort == "createdAt")
      out.sort = MediaSort::created_at;
    else if (*sort == "filename")
      out.sort = MediaSort::filename;
    else if (*sort == "size")
      out.sort = MediaSort::size;
    else if (*sort == "position")
      out.sort = MediaSort::position;
    else
      return make_error("invalid_query",
                        "query parameter 'sort' must be one of createdAt, filename, size, position");
  }
  if (dir && !dir->empty()) {
    if (*dir != "asc" && *dir != "desc")
      return make_error("invalid_query", "query parameter 'dir' must be asc or desc");
    out.descending = *dir == "desc";
  }
  return out;
}

std::string_view sort_name(MediaSort sort) {
  switch (sort) {
    case MediaSort::created_at:
      return "createdAt";
    case MediaSort::filename:
      return "filename";
    case MediaSort::size:
      return "size";
    case MediaSort::position:
      return "position";
  }
  return "position";
}

bool matches(const MediaQuery& query, const MediaRow& row) {
  if (!query.type.empty() && row.type != query.type) return false;
  if (query.folder && row.folder != *query.folder) return false;
  if (!query.q.empty() && to_ascii_lower(row.filename).find(query.q) == std::string::npos) return false;
  return true;
}

std::vector<MediaRow> select_media(std::vector<MediaRow> rows, const MediaQuery& query) {
  std::erase_if(rows, [&](const MediaRow& r) { return !matches(query, r); });
  // -1, 0, 1 by the sort key alone.
  auto compare = [&](const MediaRow& a, const MediaRow& b) -> int {
    switch (query.sort) {
      case MediaSort::created_at:
        return a.created_ms < b.created_ms ? -1 : a.created_ms > b.created_ms;
      case MediaSort::size:
        return a.size < b.size ? -1 : a.size > b.size;
      case MediaSort::position:
        return a.position < b.position ? -1 : a.position > b.position;
      case MediaSort::filename: {
        std::string la = to_ascii_lower(a.filename), lb = to_ascii_lower(b.filename);
        return la < lb ? -1 : la > lb;
      }
    }
    return 0;
  };
  std::sort(rows.begin(), rows.end(), [&](const MediaRow& a, const MediaRow& b) {
    int c = compare(a, b);
    if (c != 0) return query.descending ? c > 0 : c < 0;
    return a.id < b.id;
  });
  return rows;
}

}  // namespace core::storage
