#include "oauth_flow.h"

#include <doctest/doctest.h>

#include "core/bytes.h"
#include "edge/http/message.h"

namespace testing {

std::string form_encode(const std::map<std::string, std::string>& form) {
  std::string out;
  for (auto& [k, v] : form) out += (out.empty() ? "" : "&") + edge::url_encode(k) + "=" + edge::url_encode(v);
  return out;
}

std::map<std::string, std::string> location_query(const Reply& r) {
  std::string loc = r.header("Location");
  auto q = loc.find('?');
  std::map<std::string, std::string> out;
  if (q == std::string::npos) return out;
  for (auto& [k, v] : edge::parse_url_encoded(loc.substr(q + 1))) out.emplace(k, v);
  return out;
}

std::string hidden_value(const std::string& html, const std::string& name) {
  std::string marker = "name=\"" + name + "\" value=\"";
  auto at = html.find(marker);
  if (at == std::string::npos) return {};
  at += marker.size();
  return html.substr(at, html.find('"', at) - at);
}

std::string OAuthFlow::register_client(const std::string& extra_json, bool is_public) {
  std::string body =
      R"({"name":"Recipe Box","homepageUrl":"https://rp.example","redirectUris":[")" + redirect_uri +
      R"("],"postLogoutRedirectUris":["https://rp.example/bye"],"scopes":["openid","profile","email","offline_access"])" +
      (is_public ? R"(,"public":true)" : "") + extra_json + "}";
  auto r = edge.post("/api/companies/acme/oauth-clients", body, edge.acme_token);
  REQUIRE_MESSAGE(r.status == 201, r.body);
  client_id = std::string(r.data().at("clientId").as_string());
  if (!is_public) client_secret = std::string(r.data().at("clientSecret").as_string());
  return client_id;
}

void OAuthFlow::sign_in(const std::string& email, const std::string& password) {
  auto page = edge.get("/login");
  std::string csrf = hidden_value(page.body, "csrf");
  auto r =
      edge.send("POST", "/login", form_encode({{"email", email}, {"password", password}, {"csrf", csrf}}),
                {{"Cookie", "login_csrf=" + csrf}}, "application/x-www-form-urlencoded");
  REQUIRE(r.status == 303);
  auto range = r.headers.equal_range("Set-Cookie");
  for (auto it = range.first; it != range.second; ++it)
    if (it->second.rfind("platform_session=", 0) == 0) cookie = it->second.substr(0, it->second.find(';'));
  REQUIRE_FALSE(cookie.empty());
}

Reply OAuthFlow::authorize(std::map<std::string, std::string> query) {
  query.try_emplace("client_id", client_id);
  query.try_emplace("redirect_uri", redirect_uri);
  query.try_emplace("response_type", "code");
  query.try_emplace("scope", "openid profile email");
  httplib::Headers headers;
  if (!cookie.empty()) headers.emplace("Cookie", cookie);
  return edge.send("GET", "/oauth/authorize?" + form_encode(query), "", headers);
}

Reply OAuthFlow::decide(const Reply& consent_page, const std::string& decision) {
  std::map<std::string, std::string> form;
  for (const char* name :
       {"csrf", "response_type", "client_id", "redirect_uri", "scope", "state", "nonce", "code_challenge",
        "code_challenge_method", "prompt", "ui_locales", "login_request"}) {
    std::string v = hidden_value(consent_page.body, name);
    if (!v.empty() || consent_page.body.find("name=\"" + std::string(name) + "\"") != std::string::npos)
      form[name] = v;
  }
  // Hidden values are HTML-escaped in the page.
  for (auto& [k, v] : form) {
    std::string out;
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (v.compare(i, 5, "&amp;") == 0) {
        out += '&';
        i += 4;
      } else if (v.compare(i, 6, "&quot;") == 0) {
        out += '"';
        i += 5;
      } else if (v.compare(i, 5, "&#39;") == 0) {
        out += '\'';
        i += 4;
      } else if (v.compare(i, 4, "&lt;") == 0) {
        out += '<';
        i += 3;
      } else if (v.compare(i, 4, "&gt;") == 0) {
        out += '>';
        i += 3;
      } else
        out += v[i];
    }
    v = out;
  }
  form["decision"] = decision;
  return edge.send("POST", "/oauth/authorize", form_encode(form), {{"Cookie", cookie}},
                   "application/x-www-form-urlencoded");
}

std::string OAuthFlow::code_for(std::map<std::string, std::string> query) {
  if (cookie.empty()) sign_in();
  auto r = authorize(query);
  if (r.status == 200) r = decide(r, "allow");
  REQUIRE_MESSAGE(r.status == 302, r.body);
  auto q = location_query(r);
  REQUIRE_MESSAGE(q.count("code"), r.header("Location"));
  return q["code"];
}

Reply OAuthFlow::post_form(const std::string& path, const std::map<std::string, std::string>& form,
                           bool basic) {
  httplib::Headers headers;
  std::map<std::string, std::string> body = form;
  if (basic) {
    std::string creds = edge::url_encode(client_id) + ":" + edge::url_encode(client_secret);
    static constexpr char kB64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string b64;
    std::size_t i = 0;
    for (; i + 2 < creds.size(); i += 3) {
      unsigned n =
          (unsigned char)creds[i] << 16 | (unsigned char)creds[i + 1] << 8 | (unsigned char)creds[i + 2];
      b64 += {kB64[n >> 18 & 63], kB64[n >> 12 & 63], kB64[n >> 6 & 63], kB64[n & 63]};
    }
    if (creds.size() - i == 1) {
      unsigned n = (unsigned char)creds[i] << 16;
      b64 += {kB64[n >> 18 & 63], kB64[n >> 12 & 63], '=', '='};
    } else if (creds.size() - i == 2) {
      unsigned n = (unsigned char)creds[i] << 16 | (unsigned char)creds[i + 1] << 8;
      b64 += {kB64[n >> 18 & 63], kB64[n >> 12 & 63], kB64[n >> 6 & 63], '='};
    }
    headers.emplace("Authorization", "Basic " + b64);
  }
  return edge.send("POST", path, form_encode(body), headers, "application/x-www-form-urlencoded");
}

Reply OAuthFlow::token(const std::map<std::string, std::string>& form, bool basic) {
  return post_form("/oauth/token", form, basic);
}

Reply OAuthFlow::exchange_code(const std::string& code) {
  return token({{"grant_type", "authorization_code"}, {"code", code}, {"redirect_uri", redirect_uri}});
}

std::string str_of(const Reply& r, const char* key) {
  auto* v = r.json.is_object() ? r.json.get_object().if_contains(key) : nullptr;
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

}  // namespace testing
