#include "core/status/restart_target.h"

#include <algorithm>

#include "core/ascii.h"
#include "core/status/probe.h"

namespace core::status {
namespace {

bool is_control(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u < 0x20 || u == 0x7f;
}
bool has_control(std::string_view text) {
  return std::any_of(text.begin(), text.end(), is_control);
}
bool has_space_or_control(std::string_view text) {
  return std::any_of(text.begin(), text.end(), [](char c) { return c == ' ' || is_control(c); });
}

// RFC 9110 §5.6.2 tchar.
bool is_token(std::string_view text) {
  if (text.empty()) return false;
  constexpr std::string_view kExtra = "!#$%&'*+-.^_`|~";
  return std::all_of(text.begin(), text.end(),
                     [&](char c) { return is_ascii_alnum(c) || kExtra.find(c) != std::string_view::npos; });
}

bool valid_port_text(std::string_view digits) {
  if (digits.empty() || digits.size() > 5) return false;
  int value = 0;
  for (char c : digits) {
    if (!is_ascii_digit(c)) return false;
    value = value * 10 + (c - '0');
  }
  return value >= 1 && value <= 65535;
}

// An absolute http(s) URL: printable ASCII, a host, an optional port, no user info. Deliberately simple:
// the HTTP client parses it again and refuses what it cannot use.
bool valid_url(std::string_view url, bool allow_query) {
  if (url.empty() || url.size() > kMaxRestartUrlBytes) return false;
  if (std::any_of(url.begin(), url.end(), [](char c) { return static_cast<unsigned char>(c) > 0x7e; }))
    return false;
  if (has_space_or_control(url)) return false;
  std::string_view rest;
  if (url.size() > 7 && ascii_iequals(url.substr(0, 7), "http://")) {
    rest = url.substr(7);
  } else if (url.size() > 8 && ascii_iequals(url.substr(0, 8), "https://")) {
    rest = url.substr(8);
  } else {
    return false;
  }
  if (!allow_query && rest.find_first_of("?#") != std::string_view::npos) return false;
  const std::string_view authority = rest.substr(0, rest.find_first_of("/?#"));
  if (authority.empty() || authority.find('@') != std::string_view::npos) return false;
  std::string_view host = authority;
  std::string_view port;
  if (authority.front() == '[') {  // an IPv6 literal
    const auto close = authority.find(']');
    if (close == std::string_view::npos || close == 1) return false;
    host = authority.substr(0, close + 1);
    const std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return false;
      port = after.substr(1);
      if (!valid_port_text(port)) return false;
    }
  } else {
    const auto colon = authority.find(':');
    if (colon != std::string_view::npos) {
      host = authority.substr(0, colon);
      if (!valid_port_text(authority.substr(colon + 1))) return false;
    }
  }
  return !host.empty();
}

bool valid_timeout(int timeout_ms) {
  return timeout_ms >= kMinRestartTimeoutMs && timeout_ms <= kMaxRestartTimeoutMs;
}

Error timeout_error() {
  return make_error("invalid_timeout", "timeoutMs must be between 1 and 300000");
}

std::string_view first_line(std::string_view text) {
  std::string_view line = text.substr(0, text.find('\n'));
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

// `-----BEGIN <label>PRIVATE KEY-----` on the first line and the matching END line after it: the shape of
// PKCS#8, traditional (RSA, EC, DSA) and OpenSSH private keys. Whether the content parses is the SSH
// library's call when the key is used.
bool looks_like_pem_private_key(std::string_view pem) {
  constexpr std::string_view kBegin = "-----BEGIN ";
  constexpr std::string_view kTail = "PRIVATE KEY-----";
  const std::string_view text = trim_ascii_space(pem);
  const std::string_view line = first_line(text);
  if (line.size() < kBegin.size() + kTail.size() || !line.starts_with(kBegin) || !line.ends_with(kTail))
    return false;
  const std::string_view label = line.substr(kBegin.size(), line.size() - kBegin.size() - 5);
  const std::string end_line = "-----END " + std::string(label) + "-----";
  return text.size() > line.size() && text.ends_with(end_line);
}

bool is_base64_char(char c) {
  return is_ascii_alnum(c) || c == '+' || c == '/';
}

// `SHA256:` and the unpadded base64 of 32 bytes, as `ssh-keygen -lf` prints a host key.
bool valid_fingerprint(std::string_view fp) {
  constexpr std::string_view kPrefix = "SHA256:";
  if (fp.size() != kPrefix.size() + 43 || !fp.starts_with(kPrefix)) return false;
  const std::string_view b64 = fp.substr(kPrefix.size());
  return std::all_of(b64.begin(), b64.end(), is_base64_char);
}

bool valid_ssh_name(std::string_view name, std::size_t max_bytes) {
  return !name.empty() && name.size() <= max_bytes && !has_space_or_control(name) && name.front() != '-';
}

}  // namespace

std::string_view wire_name(RestartTargetType type) {
  switch (type) {
    case RestartTargetType::http:
      return "http";
    case RestartTargetType::ssh:
      return "ssh";
    case RestartTargetType::deploy:
      break;
  }
  return "deploy";
}

Result<RestartTargetType> parse_restart_target_type(std::string_view name) {
  if (name == "http") return RestartTargetType::http;
  if (name == "ssh") return RestartTargetType::ssh;
  if (name == "deploy") return RestartTargetType::deploy;
  return make_error("invalid_target_type", "type must be http, ssh or deploy");
}

Status validate_http_restart_target(const HttpRestartTarget& t) {
  if (t.method != "GET" && t.method != "POST")
    return make_error("invalid_method", "method must be GET or POST");
  if (!valid_url(t.url, true))
    return make_error("invalid_url", "url must be an absolute http or https URL without user info");
  if (!t.authHeaderValue.empty() && (!is_token(t.authHeaderName) || has_control(t.authHeaderValue) ||
                                     t.authHeaderValue.size() > kMaxRestartHeaderValueBytes))
    return make_error("invalid_auth_header",
                      "the auth header needs a header name and a value without control characters");
  if (!t.body.empty() && (t.method == "GET" || t.body.size() > kMaxRestartBodyBytes))
    return make_error("invalid_body", "a body is sent with POST only, up to 64 KiB");
  if (!t.body.empty() && (t.contentType.empty() || has_control(t.contentType)))
    return make_error("invalid_content_type", "a body needs a content type without control characters");
  if (t.expectedStatusMin < kMinHttpStatus || t.expectedStatusMax > kMaxHttpStatus ||
      t.expectedStatusMin > t.expectedStatusMax)
    return make_error("invalid_status_range",
                      "expectedStatusMin and expectedStatusMax must satisfy 100 <= min <= max <= 599");
  if (!valid_timeout(t.timeoutMs)) return timeout_error();
  return {};
}

Status validate_ssh_restart_target(const SshRestartTarget& t) {
  // `@` would make libssh read a user out of the host.
  if (!valid_ssh_name(t.host, kMaxSshHostBytes) || t.host.find('@') != std::string::npos)
    return make_error("invalid_ssh_host", "host must be a host name or an IP address");
  if (t.port < 1 || t.port > 65535) return make_error("invalid_ssh_port", "port must be between 1 and 65535");
  if (!valid_ssh_name(t.user, kMaxSshUserBytes) || t.user.find_first_of("@:") != std::string::npos)
    return make_error("invalid_ssh_user", "user must be a user name of at most 64 bytes");
  if (t.privateKeyPem.size() > kMaxPrivateKeyBytes || !looks_like_pem_private_key(t.privateKeyPem))
    return make_error("invalid_private_key", "privateKeyPem must be a PEM private key");
  if (t.passphrase.size() > kMaxPassphraseBytes || t.passphrase.find('\0') != std::string::npos)
    return make_error("invalid_passphrase", "passphrase must be at most 1024 bytes");
  if (trim_ascii_space(t.command).empty() || t.command.size() > kMaxSshCommandBytes ||
      t.command.find('\0') != std::string::npos)
    return make_error("invalid_ssh_command", "command must be one non-empty command of at most 4096 bytes");
  if (t.hostKeyFingerprint.empty() ? !t.trustOnFirstUse : !valid_fingerprint(t.hostKeyFingerprint))
    return make_error(
        "invalid_host_key",
        "hostKeyFingerprint must be SHA256:<43 base64 characters>, or empty with trustOnFirstUse");
  if (!valid_timeout(t.timeoutMs)) return timeout_error();
  return {};
}

Status validate_deploy_restart_target(const DeployRestartTarget& t) {
  if (!valid_url(t.baseUrl, false))
    return make_error("invalid_url", "baseUrl must be an absolute http or https URL without query");
  if (t.uuid.empty() || t.uuid.size() > kMaxDeployUuidBytes ||
      !std::all_of(t.uuid.begin(), t.uuid.end(),
                   [](char c) { return is_ascii_alnum(c) || c == '-' || c == '_'; }))
    return make_error("invalid_deploy_uuid", "uuid must be letters, digits, - and _, at most 128");
  if (t.apiToken.empty() || t.apiToken.size() > kMaxRestartHeaderValueBytes || has_control(t.apiToken))
    return make_error("invalid_api_token", "apiToken must be a non-empty token without control characters");
  if (!valid_timeout(t.timeoutMs)) return timeout_error();
  return {};
}

}  // namespace core::status
