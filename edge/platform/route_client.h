#pragma once
// Calls a route of the edge as an HTTP request from 127.0.0.1 would, without the network or the request
// log: demo data (`--demo`) is written through the public API, so it is exactly what a client could
// create, validated by the same code.

#include <string>

#include "core/json.h"
#include "core/result.h"

namespace edge {

struct App;

// The answer's JSON object, or `internal` naming the route, status and body when the route is missing, the
// answer is not a 2xx or its body is not a JSON object.
core::Result<core::json::object> call_route(App& app, const std::string& method, const std::string& path,
                                            const core::json::object& body, const std::string& bearer_token);

}  // namespace edge
