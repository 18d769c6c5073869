#include "edge/storage/storage_json.h"

#include "edge/app.h"
#include "edge/platform/record_json.h"

namespace edge::storage {

json::object bucket_json(const json::object& b) {
  return json::object{{"id", record::str(b, "id")},
                      {"slug", record::str(b, "slug")},
                      {"name", record::str(b, "name")},
                      {"visibility", record::str(b, "visibility")},
                      {"createdAt", record::str(b, "createdAt")},
                      {"updatedAt", record::str(b, "updatedAt")}};
}

json::object media_json(App& app, const Company& company, const json::object& bucket, const json::object& m) {
  const std::string id = record::str(m, "id");
  const bool is_public = record::boolean(m, "isPublic") && record::str(bucket, "visibility") == "public";
  const std::string url = is_public
                              ? app.config.cdn_url + "/f/" + id
                              : app.config.storage_url + "/api/storage/companies/" + company.slug +
                                    "/buckets/" + record::str(bucket, "slug") + "/media/" + id + "/download";
  json::object out{{"id", id},
                   {"bucket", record::str(bucket, "slug")},
                   {"url", url},
                   {"size", record::num(m, "size")},
                   {"filename", record::str(m, "filename")},
                   {"contentType", record::str(m, "contentType")},
                   {"isPublic", is_public},
                   {"folder", record::str(m, "folder")},
                   {"type", record::str(m, "type")},
                   {"position", record::num(m, "position")},
                   {"createdAt", record::str(m, "createdAt")}};
  if (auto w = record::opt_num(m, "width")) out["width"] = *w;
  if (auto h = record::opt_num(m, "height")) out["height"] = *h;
  return out;
}

}  // namespace edge::storage
