#pragma once
// The public CDN's routes, `GET {cdn_url}/f/<media_id>[/<quality>]` (spec document 2, "Public media";
// docs/storage-cdn.md): edge::cdn::cdn_response over the storage product's records. An item is served only
// while it is public (uploaded public, in a public bucket); the answer is decided on every request, so a
// bucket made private stops serving at once, variants already made included.

namespace edge {
struct App;
}

namespace edge::cdn {

void register_cdn_routes(App& app);

}  // namespace edge::cdn
