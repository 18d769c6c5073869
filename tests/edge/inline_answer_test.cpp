// The edge's dispatch of RouteOptions::inline_answer (edge/app.h): the plan asks for the first try, a
// declined request runs the handler, and a first try that throws answers 500 in the path's error format,
// like a handler that throws.

#include <doctest/doctest.h>

#include <stdexcept>

#include "core/clock.h"
#include "edge/app.h"
#include "native/os/system_random.h"
#include "test_edge.h"

namespace {

edge::Response text(std::string body) {
  edge::Response r;
  r.content_type = "text/plain";
  r.body = std::move(body);
  return r;
}

struct Planned {
  edge::Request req;
  edge::RequestPlan plan;
};

Planned plan(edge::App& app, std::string path) {
  Planned p;
  p.req.method = "GET";
  p.req.path = std::move(path);
  p.plan = edge::plan_request(app, p.req);
  return p;
}

}  // namespace

TEST_CASE("inline answers: planned, declined to the handler, and a throw is a 500 in the path's format") {
  testing::TempDir dir;
  edge::Config config;
  config.data_dir = dir.path;
  core::ManualClock clock{1'790'000'000'000};
  native::SystemRandom random;
  auto opened = edge::open_app(config, clock, random);
  REQUIRE(opened);
  edge::App& app = **opened;

  edge::RouteOptions first_try{.inline_answer = [](edge::Request& req) -> std::optional<edge::Response> {
    if (req.param("what") == "quick") return text("answered inline");
    if (req.param("what") == "throw") throw std::runtime_error("broken first try");
    return std::nullopt;
  }};
  const edge::Handler handler = [](edge::Request&) { return text("handler"); };
  app.router.add("GET", "/api/inline-test/{what}", handler, first_try);
  app.router.add("GET", "/api/restaurant/inline-test/{what}", handler, first_try);
  app.router.add("GET", "/api/plain-test", handler);

  Planned quick = plan(app, "/api/inline-test/quick");
  CHECK(quick.plan.try_inline);
  CHECK_FALSE(quick.plan.run_inline);
  std::optional<edge::Response> answered = edge::answer_inline(quick.req, quick.plan);
  REQUIRE(answered.has_value());
  CHECK(answered->body == "answered inline");

  Planned declined = plan(app, "/api/inline-test/other");
  CHECK_FALSE(edge::answer_inline(declined.req, declined.plan).has_value());
  CHECK(edge::run_request(declined.req, declined.plan).body == "handler");

  Planned thrown = plan(app, "/api/inline-test/throw");
  std::optional<edge::Response> failed = edge::answer_inline(thrown.req, thrown.plan);
  REQUIRE(failed.has_value());
  CHECK(failed->status == 500);
  CHECK(failed->body == R"({"data":null,"error":"internal error"})");

  Planned restaurant = plan(app, "/api/restaurant/inline-test/throw");
  std::optional<edge::Response> failed_there = edge::answer_inline(restaurant.req, restaurant.plan);
  REQUIRE(failed_there.has_value());
  CHECK(failed_there->status == 500);
  CHECK(failed_there->body == R"({"error":"internal","message":"internal error"})");

  // A route without a first try is planned as before.
  Planned plain = plan(app, "/api/plain-test");
  CHECK_FALSE(plain.plan.try_inline);
  CHECK(plain.plan.inline_answer == nullptr);
}
