#pragma once
// Firing a deployment-platform restart target (docs/status-restart.md, "Deployment platform"): Coolify's
// deploy route, `GET <baseUrl>/api/v1/deploy?uuid=<uuid>&force=true` with `Authorization: Bearer
// <apiToken>`. Any 2xx is success: the platform has queued the (forced) redeploy.

#include <string>
#include <string_view>

#include "core/status/restart_target.h"
#include "native/restart/restart_outcome.h"

namespace native::restart {

// The route's URL for a validated target (a trailing `/` of baseUrl is dropped).
std::string deploy_url(const core::status::DeployRestartTarget& target);

// The platform's message from a JSON response body: the top-level `message` (errors, e.g. 401
// `Unauthenticated.`), else the `message` of each entry of `deployments` joined by `; ` (success:
// `Application x deployment queued.`); empty when there is none or the body is not JSON.
std::string deploy_message(std::string_view body);

// As fire_http, with the API token in plaintext. Detail: `HTTP <status>` and `: <message>` when the
// platform sent one, `timed out after <n> ms`, `request failed: <reason>`, or `invalid target: <code>`;
// the token is redacted even if the platform echoes it.
RestartOutcome fire_deploy(const core::status::DeployRestartTarget& target);

}  // namespace native::restart
