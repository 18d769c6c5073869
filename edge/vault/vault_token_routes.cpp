// The env vault's token API (spec document 2, "Env vault"; spec/DECISIONS.md; docs/env-vault.md, "Token
// API"): `Authorization: Bearer stk_env_...`, no company in the path, answers in the platform envelope.
//   POST /api/env-vault/push      {variables: {KEY: {value, public?}}, prune?, baseVersion?} -> new version
//   POST /api/env-vault/fetch     -> {version, variables: {KEY: {value, public}}}
//   GET  /api/env-vault/public    -> the same with the public keys only; CORS open (and OPTIONS)
//   GET  /api/env-vault/changes?since=N[&wait=S]   the change log after version N, as JSON (long poll with
//        wait) or, with `Accept: text/event-stream`, as Server-Sent Events
// Order of checks: 401 (missing, malformed, unknown or revoked token), 429 (the platform rate limit per
// token), 403 (the token's access does not cover the route), then the request itself.

#include <chrono>

#include "core/token.h"
#include "core/vault/variables.h"
#include "edge/app.h"
#include "edge/platform/envelope.h"
#include "edge/platform/server_failure.h"
#include "edge/vault/vault_routes.h"
#include "edge/vault/vault_runtime.h"
#include "edge/vault/vault_store.h"

namespace edge::vault {
namespace {

constexpr std::size_t kMaxPushBody = 1 << 20;
constexpr std::int64_t kMaxWaitSeconds = 30;
constexpr std::size_t kChangesPerAnswer = 100;

using TokenHandler = std::function<Response(Request&, const Binding&)>;

bool allowed(Access have, Access need) {
  if (have == Access::full) return true;
  if (have == Access::read) return need != Access::full;
  return need == Access::public_only;
}

std::string_view action_of(Access need) {
  switch (need) {
    case Access::full:
      return "push";
    case Access::read:
      return "read variables";
    case Access::public_only:
      return "read public variables";
  }
  return "";
}

Handler token_route(App& app, Access need, TokenHandler handler) {
  return [&app, need, handler = std::move(handler)](Request& req) -> Response {
    std::string_view auth = req.header("authorization");
    if (auth.empty())
      return envelope_unauthorized("missing env vault token (Authorization: Bearer stk_env_...)");
    constexpr std::string_view kBearer = "Bearer ";
    if (!auth.starts_with(kBearer))
      return envelope_unauthorized("malformed Authorization header; expected 'Bearer stk_env_...'");
    std::string_view plaintext = auth.substr(kBearer.size());
    if (!core::has_token_shape(core::TokenKind::env_vault_token, plaintext))
      return envelope_unauthorized("malformed env vault token");
    auto who = authenticate_env_token(app, plaintext);
    if (!who) {
      if (who.error().code == "storage_error")
        return envelope_error(500, server_failure_message(who.error()));
      return envelope_unauthorized(who.error().message);
    }
    auto decision = app.api_limiter.take(who->token_id, app.clock.now_ms());
    if (!decision.allowed) return envelope_rate_limited(decision.retry_after_seconds);
    if (!allowed(who->access, need))
      return envelope_error(403, "this env vault token has access '" + std::string(access_name(who->access)) +
                                     "' and cannot " + std::string(action_of(need)));
    return handler(req, *who);
  };
}

json::object variables_to_api(const Variables& vars) {
  json::object out;
  for (const auto& [k, v] : vars) out[k] = json::object{{"value", v.value}, {"public", v.is_public}};
  return out;
}

Response push_route(App& app, Request& req, const Binding& who) {
  auto body = core::parse_json_object(req.body);
  if (!body) return envelope_error(body.error());
  auto request = core::vault::parse_push(*body);
  if (!request) return envelope_error(request.error());
  std::int64_t current = 0;
  auto done = push(app, who, *request, &current);
  if (!done) {
    if (done.error().code == "version_conflict") {
      Response r = envelope_error(409, done.error().message);
      r.set_header("X-Vault-Version", std::to_string(current));
      return r;
    }
    return envelope_error(done.error());
  }
  Response r = envelope_ok(json::object{{"version", done->version},
                                        {"keys", done->keys},
                                        {"added", static_cast<std::int64_t>(done->diff.added.size())},
                                        {"changed", static_cast<std::int64_t>(done->diff.changed.size())},
                                        {"removed", static_cast<std::int64_t>(done->diff.removed.size())}});
  r.set_header("X-Vault-Version", std::to_string(done->version));
  return r;
}

Response snapshot_answer(App& app, const Binding& who, bool only_public) {
  auto snap = fetch(app, who, only_public);
  if (!snap) return envelope_error(snap.error());
  Response r =
      envelope_ok(json::object{{"version", snap->version}, {"variables", variables_to_api(snap->variables)}});
  r.set_header("X-Vault-Version", std::to_string(snap->version));
  r.set_header("Cache-Control", "no-store");
  return r;
}

// Headers of every /public answer, errors included, so a browser script can read them.
Response cors(Response r) {
  r.set_header("Access-Control-Allow-Origin", "*");
  r.set_header("Access-Control-Expose-Headers", "X-Vault-Version");
  return r;
}

Response changes_route(App& app, Request& req, const Binding& who) {
  std::int64_t since = 0;
  if (auto s = req.query_param("since")) {
    char* end = nullptr;
    const long long v = std::strtoll(s->c_str(), &end, 10);
    if (s->empty() || *end != '\0' || v < 0) return envelope_error(400, "'since' must be a version number");
    since = v;
  }
  std::int64_t wait = 0;
  if (auto w = req.query_param("wait")) {
    char* end = nullptr;
    const long long v = std::strtoll(w->c_str(), &end, 10);
    if (w->empty() || *end != '\0' || v < 0 || v > kMaxWaitSeconds)
      return envelope_error(
          400, "'wait' must be a number of seconds from 0 to " + std::to_string(kMaxWaitSeconds));
    wait = v;
  }
  if (req.header("accept").find("text/event-stream") != std::string_view::npos) {
    Response r;
    r.events =
        app.events.subscribe(VaultRuntime::topic(who.project_id, who.environment), [&](EventStream& stream) {
          auto changes = changes_since(app, who.project_id, who.environment, since, 1000);
          if (!changes) {
            stream.send(core::to_json(json::object{{"error", changes.error().message}}), "error");
            stream.close();
            return;
          }
          for (const auto& c : changes->entries) stream.send(core::to_json(c), "change");
          stream.send(core::to_json(json::object{{"version", changes->version}}), "ready");
        });
    return r;
  }
  auto read = [&] { return changes_since(app, who.project_id, who.environment, since, kChangesPerAnswer); };
  auto changes = read();
  if (!changes) return envelope_error(changes.error());
  if (changes->entries.empty() && wait > 0 && app.vault) {
    app.vault->wait_for_change(who.project_id, who.environment, since, std::chrono::seconds(wait));
    changes = read();
    if (!changes) return envelope_error(changes.error());
  }
  json::array list;
  for (auto& c : changes->entries) list.emplace_back(std::move(c));
  Response r = envelope_ok(json::object{{"version", changes->version}, {"changes", std::move(list)}});
  r.set_header("X-Vault-Version", std::to_string(changes->version));
  r.set_header("Cache-Control", "no-store");
  return r;
}

}  // namespace

void register_token_routes(App& app) {
  app.router.add("POST", "/api/env-vault/push",
                 token_route(app, Access::full,
                             [&app](Request& req, const Binding& who) { return push_route(app, req, who); }),
                 {.max_body = kMaxPushBody});
  app.router.add("POST", "/api/env-vault/fetch",
                 token_route(app, Access::read, [&app](Request&, const Binding& who) {
                   return snapshot_answer(app, who, false);
                 }));
  Handler public_read = token_route(app, Access::public_only, [&app](Request&, const Binding& who) {
    return snapshot_answer(app, who, true);
  });
  app.router.add("GET", "/api/env-vault/public",
                 [public_read](Request& req) { return cors(public_read(req)); });
  app.router.add("OPTIONS", "/api/env-vault/public", [](Request&) {
    Response r;
    r.status = 204;
    r.set_header("Access-Control-Allow-Origin", "*");
    r.set_header("Access-Control-Allow-Methods", "GET, OPTIONS");
    r.set_header("Access-Control-Allow-Headers", "Authorization");
    r.set_header("Access-Control-Max-Age", "86400");
    return r;
  });
  app.router.add("GET", "/api/env-vault/changes",
                 token_route(app, Access::read, [&app](Request& req, const Binding& who) {
                   return changes_route(app, req, who);
                 }));
}

}  // namespace edge::vault
