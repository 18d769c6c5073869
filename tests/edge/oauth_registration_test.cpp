// Redirect URI registration (RFC 9700 §2.1): plain http only for loopback hosts.

#include <doctest/doctest.h>

#include "test_edge.h"

using testing::TestEdge;

TEST_CASE("registration refuses plain-http redirect and post-logout URIs except on loopback hosts") {
  TestEdge edge;
  auto create = [&](const std::string& field, const std::string& uri) {
    std::string body =
        R"({"name":"App","redirectUris":[)" +
        std::string(field == "redirectUris" ? "\"" + uri + "\"" : "\"https://a.example/cb\"") + "]" +
        (field == "postLogoutRedirectUris" ? R"(,"postLogoutRedirectUris":[")" + uri + "\"]" : "") + "}";
    return edge.post("/api/companies/acme/oauth-clients", body, edge.acme_token);
  };
  auto remote = create("redirectUris", "http://app.example/cb");
  CHECK(remote.status == 400);
  CHECK(remote.error() ==
        "field 'redirectUris' holds an invalid URI (http://app.example/cb): must use https; plain http is "
        "allowed only for 127.0.0.1, [::1] and localhost");
  CHECK(create("postLogoutRedirectUris", "http://app.example/bye").status == 400);
  for (const char* loopback : {"http://127.0.0.1:8080/cb", "http://[::1]/cb", "http://localhost:3000/cb"}) {
    CHECK_MESSAGE(create("redirectUris", loopback).status == 201, loopback);
    CHECK_MESSAGE(create("postLogoutRedirectUris", loopback).status == 201, loopback);
  }
  // Updates follow the same rule.
  auto created = create("redirectUris", "https://a.example/cb");
  std::string id(created.data().at("clientId").as_string());
  auto patched = edge.patch("/api/companies/acme/oauth-clients/" + id,
                            R"({"redirectUris":["http://a.example/cb"]})", edge.acme_token);
  CHECK(patched.status == 400);
}
