#pragma once
// Drives the OAuth provider the way a browser and a relying party do, over real HTTP: register a client
// through the API, sign in through the form, authorize, consent, exchange the code.

#include <map>
#include <string>

#include "test_edge.h"

namespace testing {

struct OAuthFlow {
  explicit OAuthFlow(TestEdge& edge) : edge(edge) {}

  // Registers a client for acme; returns its client id (and keeps its secret).
  std::string register_client(const std::string& extra_json = "", bool is_public = false);
  // Signs in as `email` and keeps the session cookie.
  void sign_in(const std::string& email = "owner@acme.test",
               const std::string& password = "correct horse battery");
  // GET /oauth/authorize with `query` (client_id, redirect_uri, response_type and scope filled in unless
  // given) and the session cookie.
  Reply authorize(std::map<std::string, std::string> query);
  // Posts the consent form found in `consent_page` with decision allow/deny.
  Reply decide(const Reply& consent_page, const std::string& decision);
  // The full happy path up to the code; returns the code from the redirect.
  std::string code_for(std::map<std::string, std::string> query = {});
  // POST /oauth/token with HTTP Basic for this client and the given form fields.
  Reply token(const std::map<std::string, std::string>& form, bool basic = true);
  // POST /oauth/token exchanging `code` for this client's redirect URI.
  Reply exchange_code(const std::string& code);
  Reply post_form(const std::string& path, const std::map<std::string, std::string>& form, bool basic = true);

  TestEdge& edge;
  std::string client_id, client_secret, cookie;
  std::string redirect_uri = "https://rp.example/callback";
};

// The string member `key` of a JSON reply; empty when absent or not a string.
std::string str_of(const Reply& r, const char* key);
// The query parameters of a Location header.
std::map<std::string, std::string> location_query(const Reply& r);
std::string form_encode(const std::map<std::string, std::string>& form);
// A hidden input's value in an HTML page.
std::string hidden_value(const std::string& html, const std::string& name);

}  // namespace testing
