#include "native/restart/http_exchange.h"

#include <curl/curl.h>

#include <memory>

#include "core/ascii.h"
#include "native/os/curl_handles.h"

namespace native::restart {
namespace {

// libcurl answers "localhost" from its own table, so none of these can be pointed elsewhere by a resolver.
bool is_loopback_url(const std::string& url) {
  std::unique_ptr<CURLU, UrlCleanup> parsed(curl_url());
  if (parsed == nullptr || curl_url_set(parsed.get(), CURLUPART_URL, url.c_str(), 0) != CURLUE_OK)
    return false;
  char* raw = nullptr;
  if (curl_url_get(parsed.get(), CURLUPART_HOST, &raw, 0) != CURLUE_OK) return false;
  std::unique_ptr<char, CurlFree> host(raw);
  const std::string_view h(host.get());
  return h == "127.0.0.1" || h == "[::1]" || core::ascii_iequals(h, "localhost");
}

struct Body {
  std::string text;
  std::size_t limit = 0;
  bool capped = false;
};

size_t on_write(char* data, size_t size, size_t count, void* user) {
  auto* body = static_cast<Body*>(user);
  const std::size_t n = size * count;
  if (body->text.size() + n > body->limit) {
    body->text.append(data, body->limit - body->text.size());
    body->capped = true;
    return 0;  // stop reading: the status is known, the rest of a large body is of no use
  }
  body->text.append(data, n);
  return n;
}

HttpExchange failed(HttpExchange::End end, std::string reason) {
  HttpExchange out;
  out.end = end;
  out.error = std::move(reason);
  return out;
}

}  // namespace

HttpExchange http_exchange(const HttpRequest& request) {
  if (!curl_ready()) return failed(HttpExchange::End::error, "libcurl could not be initialised");
  std::unique_ptr<CURL, CurlCleanup> curl(curl_easy_init());
  if (curl == nullptr) return failed(HttpExchange::End::error, "libcurl could not make a handle");
  CURL* h = curl.get();

  // libcurl's own defaults are switched off: no `Expect: 100-continue` pause before a body, and no form
  // content type on a POST the target did not give one.
  std::unique_ptr<curl_slist, SlistFree> headers(curl_slist_append(nullptr, "Expect:"));
  if (headers == nullptr) return failed(HttpExchange::End::error, "out of memory");
  bool has_content_type = false;
  for (const auto& [name, value] : request.headers) {
    has_content_type = has_content_type || core::ascii_iequals(name, "Content-Type");
    // curl_slist_append copies the line; the list only grows at its tail, so the head stays valid.
    if (curl_slist_append(headers.get(), (name + ": " + value).c_str()) == nullptr)
      return failed(HttpExchange::End::error, "out of memory");
  }
  if (!has_content_type && curl_slist_append(headers.get(), "Content-Type:") == nullptr)
    return failed(HttpExchange::End::error, "out of memory");

  Body body;
  body.limit = request.max_body_bytes;
  char error_text[CURL_ERROR_SIZE] = {0};
  const long timeout_ms = static_cast<long>(request.timeout.count());
  curl_easy_setopt(h, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
  curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
  if (is_loopback_url(request.url)) curl_easy_setopt(h, CURLOPT_NOPROXY, "*");
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, timeout_ms);
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_write);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &body);
  curl_easy_setopt(h, CURLOPT_USERAGENT, "platform-restart-target");
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error_text);
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers.get());
  if (request.method == "POST") {
    curl_easy_setopt(h, CURLOPT_POST, 1L);
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, request.body.c_str());
    curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  } else {
    curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
  }

  const CURLcode result = curl_easy_perform(h);
  long status = 0;
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
  if (result == CURLE_OK || (body.capped && result == CURLE_WRITE_ERROR && status != 0)) {
    HttpExchange out;
    out.end = HttpExchange::End::response;
    out.status = static_cast<int>(status);
    out.body = std::move(body.text);
    return out;
  }
  const std::string reason = error_text[0] != '\0' ? error_text : curl_easy_strerror(result);
  return failed(result == CURLE_OPERATION_TIMEDOUT ? HttpExchange::End::timeout : HttpExchange::End::error,
                reason);
}

}  // namespace native::restart
