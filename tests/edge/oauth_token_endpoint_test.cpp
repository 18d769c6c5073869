// The token, revoke and introspect endpoints against abuse: repeated parameters (RFC 6749 §3.2) and the
// rate limit of public clients, which anyone can name.

#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "oauth_flow.h"

using testing::location_query;
using testing::OAuthFlow;
using testing::Reply;
using testing::str_of;
using testing::TestEdge;

namespace {

const std::string kVerifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const std::string kChallenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

// POSTs a form to the edge from the loopback address `source` (127.0.0.0/8 is all loopback on Linux) and
// returns the status code, or 0 when the exchange failed.
int post_from(const std::string& source, int port, const std::string& path, const std::string& body) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return 0;
  sockaddr_in from{}, to{};
  from.sin_family = to.sin_family = AF_INET;
  ::inet_pton(AF_INET, source.c_str(), &from.sin_addr);
  ::inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
  to.sin_port = htons(static_cast<std::uint16_t>(port));
  int status = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&from), sizeof from) == 0 &&
      ::connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof to) == 0) {
    std::string req = "POST " + path +
                      " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: "
                      "application/x-www-form-urlencoded\r\nContent-Length: " +
                      std::to_string(body.size()) + "\r\n\r\n" + body;
    if (::send(fd, req.data(), req.size(), 0) == static_cast<ssize_t>(req.size())) {
      std::string in;
      char buf[4096];
      for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;) in.append(buf, static_cast<std::size_t>(n));
      if (in.rfind("HTTP/1.1 ", 0) == 0) status = std::stoi(in.substr(9, 3));
    }
  }
  ::close(fd);
  return status;
}

}  // namespace

TEST_CASE(
    "a public client's token limit counts failures per client address: an attacker cannot lock out users") {
  edge::Config config;
  config.oauth_token_rate_limit = {2, 1000};
  TestEdge edge(config);
  OAuthFlow rp(edge);
  rp.register_client("", true);
  std::string junk = testing::form_encode(
      {{"client_id", rp.client_id}, {"grant_type", "refresh_token"}, {"refresh_token", "ort_x"}});
  // The attacker, from another address, spends its budget with failing requests and is then refused.
  CHECK(post_from("127.0.0.2", edge.server->port(), "/oauth/token", junk) == 400);
  CHECK(post_from("127.0.0.2", edge.server->port(), "/oauth/token", junk) == 400);
  CHECK(post_from("127.0.0.2", edge.server->port(), "/oauth/token", junk) == 429);
  // The user's exchange and three refreshes (more than the limit of 2, all successful) still go through.
  auto t = rp.token({{"grant_type", "authorization_code"},
                     {"client_id", rp.client_id},
                     {"code", rp.code_for({{"scope", "openid offline_access"},
                                           {"prompt", "consent"},
                                           {"code_challenge", kChallenge},
                                           {"code_challenge_method", "S256"}})},
                     {"redirect_uri", rp.redirect_uri},
                     {"code_verifier", kVerifier}},
                    false);
  REQUIRE_MESSAGE(t.status == 200, t.body);
  std::string refresh = str_of(t, "refresh_token");
  for (int i = 0; i < 3; ++i) {
    auto r = rp.token(
        {{"grant_type", "refresh_token"}, {"client_id", rp.client_id}, {"refresh_token", refresh}}, false);
    REQUIRE_MESSAGE(r.status == 200, r.body);
    refresh = str_of(r, "refresh_token");
  }
  // The user's own failures count against the user's address only.
  auto bad = [&] {
    return rp.token(
        {{"grant_type", "refresh_token"}, {"client_id", rp.client_id}, {"refresh_token", "ort_x"}}, false);
  };
  CHECK(bad().status == 400);
  CHECK(bad().status == 400);
  auto limited = bad();
  CHECK(limited.status == 429);
  CHECK(str_of(limited, "error") == "slow_down");
  CHECK(limited.header("Retry-After") == "1");
}

TEST_CASE("token, revoke and introspect refuse a repeated parameter with invalid_request (RFC 6749 §3.2)") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client();
  std::string code = rp.code_for();
  std::string creds = "client_id=" + rp.client_id + "&client_secret=" + rp.client_secret;
  auto post = [&](const std::string& path, const std::string& rest) {
    return edge.send("POST", path, creds + "&" + rest, {}, "application/x-www-form-urlencoded");
  };
  auto twice = post("/oauth/token", "grant_type=authorization_code&code=" + code + "&code=" + code +
                                        "&redirect_uri=https%3A%2F%2Frp.example%2Fcallback");
  CHECK(twice.status == 400);
  CHECK(str_of(twice, "error") == "invalid_request");
  CHECK(str_of(twice, "error_description") == "parameter 'code' was given more than once");
  auto two_grants =
      post("/oauth/token", "grant_type=refresh_token&grant_type=authorization_code&code=" + code +
                               "&redirect_uri=https%3A%2F%2Frp.example%2Fcallback");
  CHECK(str_of(two_grants, "error") == "invalid_request");
  auto two_ids = edge.send("POST", "/oauth/token",
                           creds + "&client_id=cli_other&grant_type=authorization_code&code=" + code +
                               "&redirect_uri=https%3A%2F%2Frp.example%2Fcallback",
                           {}, "application/x-www-form-urlencoded");
  CHECK(str_of(two_ids, "error") == "invalid_request");
  // The code was not consumed by any of them.
  auto once = post("/oauth/token", "grant_type=authorization_code&code=" + code +
                                       "&redirect_uri=https%3A%2F%2Frp.example%2Fcallback");
  REQUIRE(once.status == 200);
  std::string access = str_of(once, "access_token");
  auto revoke = post("/oauth/revoke", "token=" + access + "&token=oat_x");
  CHECK(revoke.status == 400);
  CHECK(str_of(revoke, "error") == "invalid_request");
  auto introspect = post("/oauth/introspect", "token=" + access + "&token_type_hint=a&token_type_hint=b");
  CHECK(introspect.status == 400);
  CHECK(str_of(introspect, "error") == "invalid_request");
  CHECK(post("/oauth/introspect", "token=" + access).json.at("active").as_bool());
}

TEST_CASE("authorize refuses any repeated parameter, not only the ones it reads") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client();
  rp.sign_in();
  auto r =
      edge.send("GET",
                "/oauth/authorize?response_type=code&client_id=" + rp.client_id +
                    "&redirect_uri=https%3A%2F%2Frp.example%2Fcallback&scope=openid&state=s&ui_locales=en&"
                    "ui_locales=tr",
                "", {{"Cookie", rp.cookie}});
  REQUIRE(r.status == 302);
  CHECK(location_query(r)["error"] == "invalid_request");
  CHECK(location_query(r)["error_description"] == "a parameter was given more than once");
  CHECK(location_query(r)["state"] == "s");
}
