#pragma once
// Shared pieces of the env vault tests (docs/env-vault.md): an unthrottled edge, a project made through the
// management API and env tokens for it.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/json.h"
#include "test_edge.h"

namespace vault_test {

namespace json = core::json;

inline const std::string kProjects = "/api/companies/acme/env-vault/projects";

inline std::string str(const json::value& v, std::string_view key) {
  auto* m = v.is_object() ? v.get_object().if_contains(key) : nullptr;
  return m && m->is_string() ? std::string(m->get_string()) : std::string();
}

inline std::int64_t num(const json::value& v, std::string_view key) {
  auto* m = v.is_object() ? v.get_object().if_contains(key) : nullptr;
  return m && m->is_int64() ? m->get_int64() : -1;
}

inline edge::Config unthrottled() {
  edge::Config c;
  c.rate_limit = {1'000'000, 1000};
  return c;
}

struct VaultEdge {
  testing::TestEdge edge;
  std::string project;  // id of project "api" of acme with the default environments

  explicit VaultEdge(edge::Config c = unthrottled()) : edge(std::move(c)) {
    auto r = edge.post(kProjects, R"({"name":"api"})", edge.acme_token);
    REQUIRE(r.status == 201);
    project = str(r.data(), "id");
  }

  std::string project_path() const { return kProjects + "/" + project; }

  // A fresh env token of the project for `env` with `access` (full, read, public).
  std::string token(const std::string& env = "production", const std::string& access = "full") {
    auto r = edge.post(project_path() + "/tokens",
                       R"({"name":"ci","environment":")" + env + R"(","access":")" + access + R"("})",
                       edge.acme_token);
    REQUIRE(r.status == 201);
    return str(r.data(), "token");
  }

  testing::Reply push(const std::string& token, const std::string& body) {
    return edge.post("/api/env-vault/push", body, token);
  }
  testing::Reply fetch(const std::string& token) { return edge.post("/api/env-vault/fetch", "", token); }
};

}  // namespace vault_test
