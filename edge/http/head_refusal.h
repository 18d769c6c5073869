#pragma once
// What a body sink factory (RouteOptions::body_sink) answers to refuse a request from its head alone,
// before any body byte is read (a missing credential, a declared Content-Length past a limit or a quota):
// plan_request (edge/app.cpp) sends `answer` and the body is never read. The transport never writes to it.

#include "edge/http/body_sink.h"
#include "edge/http/message.h"

namespace edge {

class HeadRefusal : public BodySink {
 public:
  explicit HeadRefusal(Response r) : answer(std::move(r)) {}
  core::Status write(std::string_view) override {
    return core::make_error("storage_error", "a refused request has no body");
  }
  core::Status finish() override { return {}; }
  std::uint64_t size() const override { return 0; }

  Response answer;
};

}  // namespace edge
