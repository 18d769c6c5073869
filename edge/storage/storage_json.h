#pragma once
// The API shapes of buckets and media (document 2, "Resources"; docs/storage-api.md).

#include "core/json.h"
#include "edge/accounts/accounts.h"

namespace edge {
struct App;
}

namespace edge::storage {

namespace json = core::json;

// {id, slug, name, visibility, createdAt, updatedAt}.
json::object bucket_json(const json::object& bucket);

// {id, bucket (slug), url, size, filename, contentType, isPublic, folder, type, position, createdAt, and
// width/height for images}. isPublic is what the CDN does: uploaded public and in a public bucket. url:
// `{cdn_url}/f/<id>` when public, else the authenticated download route of the storage API.
json::object media_json(App& app, const Company& company, const json::object& bucket,
                        const json::object& media);

}  // namespace edge::storage
