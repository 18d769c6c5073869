#pragma once
// A real edge server for API tests: in-process on a free loopback port, LMDB in a fresh temporary
// directory, a manual clock, and two seeded companies (acme, globex) each with an owner and an access
// token holding every permission.

#include <httplib.h>

#include <memory>
#include <string>

#include "core/clock.h"
#include "core/json.h"
#include "edge/server.h"
#include "native/os/system_random.h"

namespace testing {

// A temporary directory removed with everything in it when the object goes.
struct TempDir {
  TempDir();
  ~TempDir();
  std::string path;
};

struct Reply {
  int status = 0;
  std::string body;
  httplib::Headers headers;
  core::json::value json;  // null unless the body parsed as JSON

  std::string header(const std::string& name) const;
  // The `error` member of an envelope, or "" when it is null/absent.
  std::string error() const;
  const core::json::value& data() const;
};

struct TestEdge {
  static constexpr std::int64_t kStart = 1'795'000'000'000;  // 2026-11-18T11:06:40.000Z

  explicit TestEdge(edge::Config config = {});
  ~TestEdge();

  Reply get(const std::string& path, const std::string& token = "");
  Reply del(const std::string& path, const std::string& token = "");
  Reply post(const std::string& path, const std::string& body, const std::string& token = "",
             const std::string& content_type = "application/json");
  Reply patch(const std::string& path, const std::string& body, const std::string& token = "");
  Reply send(const std::string& method, const std::string& path, const std::string& body,
             const httplib::Headers& headers, const std::string& content_type = "application/json");

  // A fresh access token of company `slug` holding exactly `permissions`.
  std::string token_with(const std::string& slug, const std::vector<std::string>& permissions);

  std::string url() const { return "http://127.0.0.1:" + std::to_string(server->port()); }

  TempDir dir;
  core::ManualClock clock{kStart};
  native::SystemRandom random;
  std::unique_ptr<edge::EdgeServer> server;
  std::unique_ptr<httplib::Client> client;
  std::string acme_token, globex_token, acme_owner_id;
};

}  // namespace testing
