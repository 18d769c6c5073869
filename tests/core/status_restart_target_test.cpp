#include "core/status/restart_target.h"

#include <doctest/doctest.h>

#include <string>

using namespace core::status;

namespace {

template <class Target>
std::string code_of(const Target& target) {
  core::Status status = [&] {
    if constexpr (std::is_same_v<Target, HttpRestartTarget>) return validate_http_restart_target(target);
    if constexpr (std::is_same_v<Target, SshRestartTarget>) return validate_ssh_restart_target(target);
    if constexpr (std::is_same_v<Target, DeployRestartTarget>) return validate_deploy_restart_target(target);
  }();
  return status.ok() ? "" : status.error().code;
}

HttpRestartTarget http_target() {
  HttpRestartTarget t;
  t.url = "https://ops.example.com/restart";
  return t;
}

const std::string kPem =
    "-----BEGIN OPENSSH PRIVATE KEY-----\n"
    "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
    "-----END OPENSSH PRIVATE KEY-----\n";
const std::string kFingerprint = "SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s";

SshRestartTarget ssh_target() {
  SshRestartTarget t;
  t.host = "app.example.com";
  t.user = "deploy";
  t.privateKeyPem = kPem;
  t.command = "systemctl restart app";
  t.hostKeyFingerprint = kFingerprint;
  return t;
}

DeployRestartTarget deploy_target() {
  DeployRestartTarget t;
  t.baseUrl = "https://coolify.example.com";
  t.uuid = "wg4kw0gws04sw8kw8s4scwg0";
  t.apiToken = "3|WaobqX9tJQshKPuQFHsyApxuOOggg4wOfvGc9xa2";
  return t;
}

}  // namespace

TEST_CASE("status: restart target type wire names") {
  CHECK(wire_name(RestartTargetType::http) == "http");
  CHECK(wire_name(RestartTargetType::ssh) == "ssh");
  CHECK(wire_name(RestartTargetType::deploy) == "deploy");
  CHECK(parse_restart_target_type("ssh").value() == RestartTargetType::ssh);
  CHECK(parse_restart_target_type("deploy").value() == RestartTargetType::deploy);
  CHECK(parse_restart_target_type("http").value() == RestartTargetType::http);
  CHECK(parse_restart_target_type("HTTP").error().code == "invalid_target_type");
  CHECK(parse_restart_target_type("coolify").error().code == "invalid_target_type");
  CHECK(parse_restart_target_type("").error().code == "invalid_target_type");
}

TEST_CASE("status: HTTP restart target defaults and valid settings") {
  HttpRestartTarget t = http_target();
  CHECK(t.method == "POST");
  CHECK(t.expectedStatusMin == 200);
  CHECK(t.expectedStatusMax == 299);
  CHECK(t.timeoutMs == 10000);
  CHECK(code_of(t) == "");
  t.method = "GET";
  t.url = "http://10.0.0.5:8080/admin/restart?now=1";
  CHECK(code_of(t) == "");
  t.url = "http://[::1]:9000/";
  CHECK(code_of(t) == "");
  t.url = "HTTPS://Example.COM";
  CHECK(code_of(t) == "");
}

TEST_CASE("status: HTTP restart target method and URL") {
  HttpRestartTarget t = http_target();
  for (const char* method : {"get", "HEAD", "PUT", "DELETE", ""}) {
    t.method = method;
    CHECK_MESSAGE(code_of(t) == "invalid_method", method);
  }
  t = http_target();
  for (const char* url : {"", "ftp://example.com/", "example.com/restart", "https://", "http:///path",
                          "https://user:pw@example.com/", "https://exa mple.com/", "https://example.com/\n",
                          "https://example.com:0/", "https://example.com:65536/", "https://example.com:x/",
                          "http://[::1/", "http://[]/", "https://ex\xc3\xa4mple.com/"}) {
    t.url = url;
    CHECK_MESSAGE(code_of(t) == "invalid_url", url);
  }
  t.url = "https://example.com/" + std::string(2048 - 20, 'a');
  CHECK(t.url.size() == 2048);
  CHECK(code_of(t) == "");
  t.url += "a";
  CHECK(code_of(t) == "invalid_url");
}

TEST_CASE("status: HTTP restart target auth header, body and content type") {
  HttpRestartTarget t = http_target();
  t.authHeaderValue = "Bearer s3cret";
  CHECK(code_of(t) == "");
  t.authHeaderName = "X-Restart-Key";
  CHECK(code_of(t) == "");
  t.authHeaderName = "";
  CHECK(code_of(t) == "invalid_auth_header");
  t.authHeaderName = "Bad Name";
  CHECK(code_of(t) == "invalid_auth_header");
  t.authHeaderName = "Authorization:";
  CHECK(code_of(t) == "invalid_auth_header");
  t.authHeaderName = "Authorization";
  t.authHeaderValue = "Bearer x\r\nX-Injected: 1";
  CHECK(code_of(t) == "invalid_auth_header");
  t.authHeaderValue = std::string(8 * 1024, 'k');
  CHECK(code_of(t) == "");
  t.authHeaderValue += "k";
  CHECK(code_of(t) == "invalid_auth_header");
  // No value: no header is sent, so the name does not matter.
  t.authHeaderValue = "";
  t.authHeaderName = "";
  CHECK(code_of(t) == "");

  t = http_target();
  t.body = R"({"action":"restart"})";
  CHECK(code_of(t) == "");
  t.body = std::string(64 * 1024, 'b');
  CHECK(code_of(t) == "");
  t.body += "b";
  CHECK(code_of(t) == "invalid_body");
  t.body = "x";
  t.method = "GET";
  CHECK(code_of(t) == "invalid_body");
  t.method = "POST";
  t.contentType = "";
  CHECK(code_of(t) == "invalid_content_type");
  t.contentType = "text/plain\r\nX-Injected: 1";
  CHECK(code_of(t) == "invalid_content_type");
  t.body = "";  // no body: the content type is not sent
  CHECK(code_of(t) == "");
}

TEST_CASE("status: HTTP restart target status range and timeout") {
  HttpRestartTarget t = http_target();
  t.expectedStatusMin = 100;
  t.expectedStatusMax = 599;
  CHECK(code_of(t) == "");
  t.expectedStatusMin = 204;
  t.expectedStatusMax = 204;
  CHECK(code_of(t) == "");
  t.expectedStatusMin = 99;
  CHECK(code_of(t) == "invalid_status_range");
  t.expectedStatusMin = 300;
  t.expectedStatusMax = 299;
  CHECK(code_of(t) == "invalid_status_range");
  t.expectedStatusMin = 200;
  t.expectedStatusMax = 600;
  CHECK(code_of(t) == "invalid_status_range");

  t = http_target();
  t.timeoutMs = 1;
  CHECK(code_of(t) == "");
  t.timeoutMs = 300000;
  CHECK(code_of(t) == "");
  t.timeoutMs = 0;
  CHECK(code_of(t) == "invalid_timeout");
  t.timeoutMs = 300001;
  CHECK(code_of(t) == "invalid_timeout");
}

TEST_CASE("status: HTTP restart target errors come in the documented order") {
  HttpRestartTarget t;
  t.method = "PUT";
  t.url = "";
  t.timeoutMs = 0;
  CHECK(code_of(t) == "invalid_method");
  t.method = "GET";
  CHECK(code_of(t) == "invalid_url");
  t.url = "https://example.com";
  t.body = "x";
  CHECK(code_of(t) == "invalid_body");
  t.body = "";
  t.expectedStatusMin = 0;
  CHECK(code_of(t) == "invalid_status_range");
  t.expectedStatusMin = 200;
  CHECK(code_of(t) == "invalid_timeout");
}

TEST_CASE("status: SSH restart target host, port, user and command") {
  SshRestartTarget t = ssh_target();
  CHECK(t.port == 22);
  CHECK(t.timeoutMs == 60000);
  CHECK_FALSE(t.trustOnFirstUse);
  CHECK(code_of(t) == "");
  t.host = "192.0.2.7";
  CHECK(code_of(t) == "");
  t.host = "::1";
  CHECK(code_of(t) == "");
  for (const std::string& host : {std::string(), std::string("a b"), std::string("-oProxyCommand=x"),
                                  std::string("host\n"), std::string("root@host"), std::string(254, 'h')}) {
    t.host = host;
    CHECK(code_of(t) == "invalid_ssh_host");
  }
  t = ssh_target();
  t.port = 0;
  CHECK(code_of(t) == "invalid_ssh_port");
  t.port = 65536;
  CHECK(code_of(t) == "invalid_ssh_port");
  t.port = 65535;
  CHECK(code_of(t) == "");

  t = ssh_target();
  t.user = std::string(64, 'u');
  CHECK(code_of(t) == "");
  for (const std::string& user : {std::string(), std::string(65, 'u'), std::string("de ploy"),
                                  std::string("root@host"), std::string("a:b"), std::string("-l")}) {
    t.user = user;
    CHECK(code_of(t) == "invalid_ssh_user");
  }

  t = ssh_target();
  t.command = "cd /srv/app && docker compose restart\nexit 0";  // a script is fine: one command line string
  CHECK(code_of(t) == "");
  t.command = std::string(4096, 'c');
  CHECK(code_of(t) == "");
  for (const std::string& command :
       {std::string(), std::string(" \t\n"), std::string(4097, 'c'), std::string("true\0false", 10)}) {
    t.command = command;
    CHECK(code_of(t) == "invalid_ssh_command");
  }
}

TEST_CASE("status: SSH restart target private key shape and passphrase") {
  SshRestartTarget t = ssh_target();
  t.privateKeyPem = "-----BEGIN RSA PRIVATE KEY-----\r\nMIIEow==\r\n-----END RSA PRIVATE KEY-----\r\n";
  CHECK(code_of(t) == "");
  t.privateKeyPem = "\n-----BEGIN PRIVATE KEY-----\nMC4CAQA=\n-----END PRIVATE KEY-----";
  CHECK(code_of(t) == "");
  t.privateKeyPem = "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIF=\n-----END ENCRYPTED PRIVATE KEY-----\n";
  CHECK(code_of(t) == "");
  for (const std::string& pem : {
           std::string(),
           std::string("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG user@host"),  // a public key
           std::string("-----BEGIN PUBLIC KEY-----\nMCow=\n-----END PUBLIC KEY-----\n"),
           std::string("-----BEGIN CERTIFICATE-----\nMII=\n-----END CERTIFICATE-----\n"),
           std::string("-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbg==\n"),  // truncated
           std::string("-----BEGIN RSA PRIVATE KEY-----\nMII=\n-----END EC PRIVATE KEY-----\n"),
           std::string("-----BEGIN OPENSSH PRIVATE KEY-----"),
           std::string("-----BEGIN OPENSSH PRIVATE KEY-----\n") + std::string(16 * 1024, 'A') +
               "\n-----END OPENSSH PRIVATE KEY-----\n",
       }) {
    t.privateKeyPem = pem;
    CHECK_MESSAGE(code_of(t) == "invalid_private_key", pem.substr(0, 60));
  }
  t = ssh_target();
  t.passphrase = std::string(1024, 'p');
  CHECK(code_of(t) == "");
  t.passphrase += "p";
  CHECK(code_of(t) == "invalid_passphrase");
  t.passphrase = std::string("a\0b", 3);
  CHECK(code_of(t) == "invalid_passphrase");
}

TEST_CASE("status: SSH restart target host key pin and trust on first use") {
  SshRestartTarget t = ssh_target();
  t.hostKeyFingerprint = "";
  CHECK(code_of(t) == "invalid_host_key");  // nothing pinned and nothing may be learned: never connects
  t.trustOnFirstUse = true;
  CHECK(code_of(t) == "");
  t.hostKeyFingerprint = kFingerprint;
  CHECK(code_of(t) == "");  // a pin wins over trust on first use
  for (const std::string& fp :
       {kFingerprint.substr(7), "sha256:" + kFingerprint.substr(7), kFingerprint + "=",
        kFingerprint.substr(0, 49), std::string("MD5:16:27:ac:a5:76:28:2d:36:63:1b:56:4d:eb:df:a6:48"),
        "SHA256:" + std::string(42, 'A') + "-"}) {
    t.hostKeyFingerprint = fp;
    CHECK_MESSAGE(code_of(t) == "invalid_host_key", fp);
  }
  t = ssh_target();
  t.timeoutMs = 0;
  CHECK(code_of(t) == "invalid_timeout");
  t.timeoutMs = 300000;
  CHECK(code_of(t) == "");
}

TEST_CASE("status: deploy restart target") {
  DeployRestartTarget t = deploy_target();
  CHECK(t.timeoutMs == 10000);
  CHECK(code_of(t) == "");
  t.baseUrl = "http://127.0.0.1:8000/";
  CHECK(code_of(t) == "");
  for (const char* url : {"", "coolify.example.com", "https://coolify.example.com/?x=1",
                          "https://coolify.example.com/#top", "https://u:p@coolify.example.com"}) {
    t.baseUrl = url;
    CHECK_MESSAGE(code_of(t) == "invalid_url", url);
  }
  t = deploy_target();
  t.uuid = "a1-B2_c3";
  CHECK(code_of(t) == "");
  for (const std::string& uuid : {std::string(), std::string("a b"), std::string("a&force=false"),
                                  std::string("../x"), std::string(129, 'u')}) {
    t.uuid = uuid;
    CHECK(code_of(t) == "invalid_deploy_uuid");
  }
  t = deploy_target();
  t.apiToken = "";
  CHECK(code_of(t) == "invalid_api_token");
  t.apiToken = "tok\r\nX-Injected: 1";
  CHECK(code_of(t) == "invalid_api_token");
  t = deploy_target();
  t.timeoutMs = 300001;
  CHECK(code_of(t) == "invalid_timeout");
}
