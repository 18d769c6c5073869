// The router (edge/http/router.h): literal and captured segments, the rest capture, HEAD by GET, 405 with
// Allow, and the first route added winning when several match, whichever first-segment list it is in.

#include <doctest/doctest.h>

#include <string>

#include "edge/http/router.h"

namespace {

// A handler that answers its own name.
edge::Handler named(std::string name) {
  return [name](edge::Request&) {
    edge::Response r;
    r.body = name;
    return r;
  };
}

struct Routed {
  edge::Router::Match::Kind kind;
  std::string handler;  // the matched handler's name
  std::string allow;
};

Routed route(const edge::Router& router, std::string method, std::string path, edge::Request* out = nullptr) {
  edge::Request req;
  req.method = std::move(method);
  req.path = std::move(path);
  edge::Router::Match m = router.match(req);
  Routed r{m.kind, {}, m.allow};
  if (m.handler) r.handler = (*m.handler)(req).body;
  if (out) *out = req;
  return r;
}

}  // namespace

TEST_CASE("routes match by literal and captured segments, the first added winning") {
  edge::Router router;
  router.add("GET", "/", named("root"));
  router.add("GET", "/api/companies/{slug}", named("company"));
  router.add("GET", "/api/companies/mine", named("never: the capture above came first"));
  router.add("POST", "/api/companies/{slug}", named("company update"));
  router.add("GET", "/{page}", named("page"));
  router.add("GET", "/f/{id}", named("cdn"));
  router.add("GET", "/f/{id}/{quality}", named("cdn quality"));
  router.add("GET", "/web/{path*}", named("static"));
  router.add("GET", "/{a}/{b}/{c}", named("three"));
  router.add("DELETE", "/f/{id}", named("never: GET /f/{id} has the path, DELETE only adds to Allow"));

  CHECK(route(router, "GET", "/").handler == "root");
  CHECK(route(router, "GET", "").handler == "root");
  edge::Request req;
  CHECK(route(router, "GET", "/api/companies/acme", &req).handler == "company");
  CHECK(req.param("slug") == "acme");
  CHECK(route(router, "GET", "/api/companies/mine").handler == "company");
  CHECK(route(router, "POST", "/api/companies/acme").handler == "company update");
  CHECK(route(router, "HEAD", "/api/companies/acme").handler == "company");
  // An open route (first segment captured) added before a literal one still comes first for its paths...
  CHECK(route(router, "GET", "/f").handler == "page");
  CHECK(route(router, "GET", "/pricing").handler == "page");
  // ...and one added after the literal ones still matches what they do not.
  CHECK(route(router, "GET", "/f/med_1", &req).handler == "cdn");
  CHECK(req.param("id") == "med_1");
  CHECK(route(router, "GET", "/f/med_1/thumb", &req).handler == "cdn quality");
  CHECK(req.param("quality") == "thumb");
  CHECK(route(router, "GET", "/api/x/y").handler == "three");
  CHECK(route(router, "GET", "/x/y/z").handler == "three");
  CHECK(route(router, "GET", "/web/css/site.css", &req).handler == "static");
  CHECK(req.param("path") == "css/site.css");
  // Empty segments are not captured.
  CHECK(route(router, "GET", "/f//thumb").kind == edge::Router::Match::not_found);
  CHECK(route(router, "GET", "/a/b/c/d").kind == edge::Router::Match::not_found);

  Routed refused = route(router, "PUT", "/f/med_1");
  CHECK(refused.kind == edge::Router::Match::method_not_allowed);
  CHECK(refused.allow == "GET, DELETE");
  Routed update_only = route(router, "DELETE", "/api/companies/acme");
  CHECK(update_only.kind == edge::Router::Match::method_not_allowed);
  CHECK(update_only.allow == "GET, POST");
}
