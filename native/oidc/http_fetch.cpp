#include "native/oidc/http_fetch.h"

#include <curl/curl.h>

#include <memory>

#include "core/ascii.h"
#include "native/os/curl_handles.h"

namespace native::oidc {
namespace {

core::Error error(std::string code, std::string message) {
  return core::make_error(std::move(code), std::move(message));
}

// Whether the URL's host is a loopback name. libcurl answers "localhost" from its own table (never DNS),
// so none of the three can be pointed elsewhere by a resolver.
bool is_loopback_host(std::string_view host) {
  return host == "127.0.0.1" || host == "[::1]" || host == "::1" || core::ascii_iequals(host, "localhost");
}

struct CheckedUrl {
  bool https = false;
  bool loopback = false;
};

core::Result<CheckedUrl> check_url(std::string_view url) {
  std::unique_ptr<CURLU, UrlCleanup> parsed(curl_url());
  if (parsed == nullptr) return error("oidc_invalid_url", "out of memory");
  const std::string text(url);
  // No default scheme and no guessing: the URL must say https or http itself.
  if (curl_url_set(parsed.get(), CURLUPART_URL, text.c_str(), CURLU_DISALLOW_USER) != CURLUE_OK)
    // Not echoed: user info may hold a password.
    return error("oidc_invalid_url", "not an absolute http(s) URL without user info");
  char* raw = nullptr;
  if (curl_url_get(parsed.get(), CURLUPART_SCHEME, &raw, 0) != CURLUE_OK)
    return error("oidc_invalid_url", "URL without a scheme: " + text);
  std::unique_ptr<char, CurlFree> scheme(raw);
  raw = nullptr;
  if (curl_url_get(parsed.get(), CURLUPART_HOST, &raw, 0) != CURLUE_OK)
    return error("oidc_invalid_url", "URL without a host: " + text);
  std::unique_ptr<char, CurlFree> host(raw);
  CheckedUrl checked;
  checked.https = core::ascii_iequals(scheme.get(), "https");
  checked.loopback = is_loopback_host(host.get());
  if (!checked.https && !core::ascii_iequals(scheme.get(), "http"))
    return error("oidc_invalid_url", "URL scheme must be https: " + text);
  if (!checked.https && !checked.loopback)
    return error("oidc_insecure_url",
                 "plain http is allowed only for 127.0.0.1, [::1] and localhost; use https: " + text);
  return checked;
}

struct Body {
  std::string text;
  std::size_t limit = 0;
  bool too_large = false;
};

size_t on_write(char* data, size_t size, size_t count, void* user) {
  auto* body = static_cast<Body*>(user);
  const std::size_t n = size * count;
  if (body->text.size() + n > body->limit) {
    body->too_large = true;
    return 0;  // libcurl stops the transfer with CURLE_WRITE_ERROR
  }
  body->text.append(data, n);
  return n;
}

core::Result<HttpResponse> perform(std::string_view url, const std::string* form_body,
                                   std::string_view authorization, const FetchOptions& options) {
  auto checked = check_url(url);
  if (!checked) return checked.error();
  if (!curl_ready()) return error("oidc_unreachable", "libcurl could not be initialised");
  std::unique_ptr<CURL, CurlCleanup> curl(curl_easy_init());
  if (curl == nullptr) return error("oidc_unreachable", "libcurl could not make a handle");
  CURL* h = curl.get();

  const std::string target(url);
  curl_slist* list = curl_slist_append(nullptr, "Accept: application/json");
  std::unique_ptr<curl_slist, SlistFree> headers(list);
  if (list != nullptr && !authorization.empty()) {
    // curl_slist_append copies; the copy lives (and dies) with `headers`.
    list = curl_slist_append(list, ("Authorization: " + std::string(authorization)).c_str());
  }
  if (list == nullptr) return error("oidc_unreachable", "out of memory");

  Body body;
  body.limit = options.max_body_bytes;
  char error_text[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(h, CURLOPT_URL, target.c_str());
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, checked->https ? "https" : "http");
  curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
  curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
  // A loopback provider is this machine: an http_proxy from the environment must not carry the request
  // away. Remote providers go through whatever proxy the environment configures.
  if (checked->loopback) curl_easy_setopt(h, CURLOPT_NOPROXY, "*");
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options.connect_timeout.count()));
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(options.total_timeout.count()));
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  // A declared Content-Length over the cap fails before the body is read; the write callback catches
  // bodies without one.
  curl_easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(options.max_body_bytes));
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_write);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &body);
  curl_easy_setopt(h, CURLOPT_USERAGENT, "platform-oidc-client");
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error_text);
  if (form_body != nullptr) {
    list = curl_slist_append(list, "Content-Type: application/x-www-form-urlencoded");
    if (list == nullptr) return error("oidc_unreachable", "out of memory");
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, form_body->c_str());
    curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(form_body->size()));
  }
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers.get());

  const CURLcode result = curl_easy_perform(h);
  if (body.too_large || result == CURLE_FILESIZE_EXCEEDED)
    return error("oidc_bad_response", "response from " + target + " is larger than " +
                                          std::to_string(options.max_body_bytes) + " bytes");
  if (result != CURLE_OK) {
    // libcurl's text names the host and the failure (refused, timed out, certificate problem); it never
    // holds request headers or the body.
    const std::string reason = error_text[0] != '\0' ? error_text : curl_easy_strerror(result);
    return error("oidc_unreachable", "cannot reach " + target + ": " + reason);
  }
  HttpResponse response;
  long status = 0;
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
  response.status = static_cast<int>(status);
  char* content_type = nullptr;
  if (curl_easy_getinfo(h, CURLINFO_CONTENT_TYPE, &content_type) == CURLE_OK && content_type != nullptr)
    response.content_type = content_type;
  response.body = std::move(body.text);
  return response;
}

}  // namespace

core::Status check_fetch_url(std::string_view url) {
  auto checked = check_url(url);
  if (!checked) return checked.error();
  return {};
}

core::Result<HttpResponse> http_get(std::string_view url, std::string_view authorization,
                                    const FetchOptions& options) {
  return perform(url, nullptr, authorization, options);
}

core::Result<HttpResponse> http_post_form(std::string_view url, std::string_view form_body,
                                          std::string_view authorization, const FetchOptions& options) {
  const std::string body(form_body);
  return perform(url, &body, authorization, options);
}

}  // namespace native::oidc
