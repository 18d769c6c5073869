#pragma once
// Shared pieces of the auth-project tests: a project made through the dashboard API with a key, and the
// end-user calls made with that key.

#include <doctest/doctest.h>

#include <string>

#include "core/json.h"
#include "test_edge.h"

namespace auth_test {

namespace json = core::json;

inline std::string str(const json::value& v, std::string_view key) {
  auto* m = v.is_object() ? v.get_object().if_contains(key) : nullptr;
  return m && m->is_string() ? std::string(m->get_string()) : std::string();
}

// An access token of company `slug` holding auth-projects.manage (what the dashboard's session has).
inline std::string manager_token(testing::TestEdge& edge, const std::string& slug = "acme") {
  return edge.token_with(slug, {"auth-projects.manage"});
}

struct TestProject {
  std::string id, slug, key;
  std::string manager;  // acme's auth-projects.manage token
  std::string base;     // /api/v1/auth/<slug>
};

// Creates project `slug` for acme with `settings_json` members added to {name, slug}, and one key.
inline TestProject make_project(testing::TestEdge& edge, const std::string& slug,
                                const std::string& settings_json = "") {
  TestProject p;
  p.slug = slug;
  p.base = "/api/v1/auth/" + slug;
  p.manager = manager_token(edge);
  std::string body = R"({"name":"App )" + slug + R"(","slug":")" + slug + "\"" +
                     (settings_json.empty() ? "" : "," + settings_json) + "}";
  auto created = edge.post("/api/companies/acme/auth-projects", body, p.manager);
  REQUIRE_MESSAGE(created.status == 201, created.body);
  p.id = str(created.data(), "id");
  auto key =
      edge.post("/api/companies/acme/auth-projects/" + p.id + "/keys", R"({"name":"server"})", p.manager);
  REQUIRE_MESSAGE(key.status == 201, key.body);
  p.key = str(key.data(), "key");
  return p;
}

// POST <project>/<path> with the project key.
inline testing::Reply call(testing::TestEdge& edge, const TestProject& p, const std::string& path,
                           const std::string& body) {
  return edge.post(p.base + path, body, p.key);
}

// Signs a user up and returns the reply (201 with user, accessToken, refreshToken).
inline testing::Reply signup(testing::TestEdge& edge, const TestProject& p, const std::string& email,
                             const std::string& password = "correct horse battery") {
  return call(edge, p, "/signup",
              R"({"email":")" + email + R"(","password":")" + password + R"(","name":"Test User"})");
}

}  // namespace auth_test
