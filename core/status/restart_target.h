#pragma once
// Restart target settings (spec document 3, "Restart targets"; docs/status-restart.md): what a dashboard
// user configures for each of the three kinds of target, and their validation. When a target fires is
// core/status/restart.h; executing it is native/restart/.
//
// Secrets (the HTTP auth header value, the SSH private key and passphrase, the deployment platform's API
// token) are plaintext in these structs: they are validated as entered, before the store seals them
// (core/sealed.h), and filled in again from the sealed form just before a firing.

#include <optional>
#include <string>
#include <string_view>

#include "core/result.h"

namespace core::status {

enum class RestartTargetType { http, ssh, deploy };

// `http`, `ssh`, `deploy`.
std::string_view wire_name(RestartTargetType type);
// Exact wire names only; `invalid_target_type` otherwise.
Result<RestartTargetType> parse_restart_target_type(std::string_view name);

// Bounds of ours: the spec names a timeout but no limits.
inline constexpr int kMinRestartTimeoutMs = 1;
inline constexpr int kMaxRestartTimeoutMs = 300'000;  // 5 minutes, for a slow remote restart command
inline constexpr int kDefaultRestartHttpTimeoutMs = 10'000;
inline constexpr int kDefaultRestartSshTimeoutMs = 60'000;
inline constexpr std::size_t kMaxRestartUrlBytes = 2048;
inline constexpr std::size_t kMaxRestartBodyBytes = 64 * 1024;
inline constexpr std::size_t kMaxRestartHeaderValueBytes = 8 * 1024;
inline constexpr std::size_t kMaxSshHostBytes = 253;  // a DNS name's limit (RFC 1035)
inline constexpr std::size_t kMaxSshUserBytes = 64;
inline constexpr std::size_t kMaxSshCommandBytes = 4096;
inline constexpr std::size_t kMaxPrivateKeyBytes = 16 * 1024;  // an RSA 8192 PEM is about 6.5 KiB
inline constexpr std::size_t kMaxPassphraseBytes = 1024;
inline constexpr std::size_t kMaxDeployUuidBytes = 128;

struct HttpRestartTarget {
  std::string method = "POST";  // `GET` or `POST`, upper case
  std::string url;              // absolute http:// or https:// URL
  // Sent as `<authHeaderName>: <authHeaderValue>` when the value is not empty. The value is a secret.
  std::string authHeaderName = "Authorization";
  std::string authHeaderValue;
  std::string body;                              // sent when not empty (POST only)
  std::string contentType = "application/json";  // the body's Content-Type
  int expectedStatusMin = 200;
  int expectedStatusMax = 299;
  int timeoutMs = kDefaultRestartHttpTimeoutMs;  // the whole exchange, connect included
};

struct SshRestartTarget {
  std::string host;  // a host name or an IP address
  int port = 22;
  std::string user;
  std::string privateKeyPem;  // secret: `-----BEGIN ... PRIVATE KEY-----` ... `-----END ... PRIVATE KEY-----`
  std::string passphrase;     // secret; empty when the key is not encrypted
  std::string command;        // one command line, run by the user's login shell; exit status 0 is success
  // The server's host key as `ssh-keygen -lf` prints it: `SHA256:` and 43 base64 characters. Empty only
  // with trustOnFirstUse, until the first connection reports the key to store.
  std::string hostKeyFingerprint;
  bool trustOnFirstUse = false;
  int timeoutMs = kDefaultRestartSshTimeoutMs;
};

// The deployment platform's deploy route (Coolify's API): GET <baseUrl>/api/v1/deploy?uuid=<uuid>&force=true
// with `Authorization: Bearer <apiToken>`.
struct DeployRestartTarget {
  std::string baseUrl;   // the platform's root, e.g. https://coolify.example.com, without query or fragment
  std::string uuid;      // the resource to redeploy
  std::string apiToken;  // secret
  int timeoutMs = kDefaultRestartHttpTimeoutMs;
};

// Each validator checks in the order listed and returns the first failure.
//
// HTTP: `invalid_method` (exactly GET or POST); `invalid_url` (not an absolute http/https URL with a host,
// user info, white space or control characters, longer than 2048 bytes); `invalid_auth_header` (a header
// name that is not an RFC 9110 token while a value is set, or a value with control characters or over
// 8 KiB); `invalid_body` (a body on GET, or over 64 KiB); `invalid_content_type` (empty with a body, or with
// control characters); `invalid_status_range` (100 <= min <= max <= 599); `invalid_timeout`
// (1..300000 ms).
Status validate_http_restart_target(const HttpRestartTarget& target);

// SSH: `invalid_ssh_host` (empty, over 253 bytes, white space, control characters or `@`, or starting
// with `-`); `invalid_ssh_port` (1..65535); `invalid_ssh_user` (empty, over 64 bytes, white space, control
// characters, `@` or `:`, or starting with `-`); `invalid_private_key` (not a PEM private key: first line
// `-----BEGIN <label>PRIVATE KEY-----`, a matching END line, over 16 KiB); `invalid_passphrase` (over
// 1 KiB, or a NUL byte); `invalid_ssh_command` (empty or blank, over 4096 bytes, or a NUL byte);
// `invalid_host_key` (a fingerprint not of the form `SHA256:` + 43 base64 characters, or none without
// trustOnFirstUse); `invalid_timeout` (1..300000 ms).
Status validate_ssh_restart_target(const SshRestartTarget& target);

// Deploy: `invalid_url` (as for HTTP, plus a query or fragment); `invalid_deploy_uuid` (empty, over 128
// bytes, or characters other than letters, digits, `-` and `_`); `invalid_api_token` (empty, over 8 KiB,
// or control characters); `invalid_timeout` (1..300000 ms).
Status validate_deploy_restart_target(const DeployRestartTarget& target);

}  // namespace core::status
