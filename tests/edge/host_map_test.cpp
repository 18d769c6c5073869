// Host-to-product mapping: a product on its own host serves only its own paths.

#include <doctest/doctest.h>

#include "edge/platform/host_map.h"
#include "test_edge.h"

using testing::TestEdge;

TEST_CASE("host_of_url takes the lower-case host without scheme, credentials, port or path") {
  CHECK(edge::host_of_url("https://Auth.Example.com:8443/x?y") == "auth.example.com");
  CHECK(edge::host_of_url("http://127.0.0.1:8080") == "127.0.0.1");
  CHECK(edge::host_of_url("http://[::1]:8080/") == "[::1]");
  CHECK(edge::host_of_url("https://user:pw@status.example.com") == "status.example.com");
}

TEST_CASE("with one host per product, each host answers only its product's paths") {
  edge::Config config;
  config.base_url = "https://platform.test";
  config.auth_url = "https://auth.test";
  config.site_url = "https://www.test";
  config.mail_url = "https://mail.test";
  TestEdge edge(config);
  auto on = [&](const std::string& host, const std::string& path) {
    return edge.send("GET", path, "", {{"Host", host}, {"Authorization", "Bearer " + edge.acme_token}})
        .status;
  };
  CHECK(on("platform.test", "/api/companies/acme") == 200);
  CHECK(on("auth.test", "/api/companies/acme") == 404);
  CHECK(on("auth.test", "/.well-known/openid-configuration") == 200);
  CHECK(on("platform.test", "/.well-known/openid-configuration") == 404);
  CHECK(on("mail.test", "/api/companies/acme") == 404);
  // Shared paths answer everywhere; a host no product URL names reaches everything (127.0.0.1 is named
  // here: the unset storage, cdn and status URLs default to the listen address).
  CHECK(on("auth.test", "/healthz") == 200);
  CHECK(on("auth.test", "/login") == 200);
  CHECK(on("unnamed.test", "/api/companies/acme") == 200);
  CHECK(on("unnamed.test", "/.well-known/openid-configuration") == 200);
}

TEST_CASE("in development every product shares the listen address and every path answers") {
  TestEdge edge;
  CHECK(edge.get("/api/companies/acme", edge.acme_token).status == 200);
  CHECK(edge.get("/.well-known/openid-configuration").status == 200);
}

TEST_CASE("a status host of its own sends /d to the platform host's dashboard") {
  edge::Config config;
  config.base_url = "https://platform.test";
  config.status_url = "https://status.test";
  TestEdge edge(config);
  auto location = [&](const std::string& path) {
    auto r = edge.send("GET", path, "", {{"Host", "status.test"}});
    CHECK(r.status == 303);
    return r.header("Location");
  };
  CHECK(location("/d") == "https://platform.test/dashboard");
  CHECK(location("/d/acme") == "https://platform.test/dashboard/acme/status/pages");
  CHECK(location("/d/acme/pages/pg_1") == "https://platform.test/dashboard/acme/status/pages/pg_1");
  // The platform host serves the dashboard itself and answers no status path.
  CHECK(edge.send("GET", "/dashboard", "", {{"Host", "platform.test"}}).status != 404);
  CHECK(edge.send("GET", "/d", "", {{"Host", "platform.test"}}).status == 404);
}
