#include "native/probe/http_probe.h"

#include <curl/curl.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <algorithm>
#include <chrono>
#include <memory>

#include "core/ascii.h"
#include "native/os/curl_handles.h"
#include "native/probe/ca_store.h"

// libcurl rather than cpp-httplib (docs/status-probes.md, "Why libcurl and not cpp-httplib"): cpp-httplib
// 0.11.4 bounds each connect and each read separately, so a server trickling one byte per second keeps a
// request alive far past timeoutMs, and its name resolution has no bound at all. libcurl's
// CURLOPT_TIMEOUT_MS is one deadline over the whole exchange, resolution included (Debian's build resolves
// on a thread: AsynchDNS).

namespace native::probe {
namespace {

using core::status::ProbeTransport;

struct StoreFree {
  void operator()(X509_STORE* store) const { X509_STORE_free(store); }
};
using UrlHandle = std::unique_ptr<CURLU, UrlCleanup>;

core::Error error(std::string code, std::string message) {
  return core::make_error(std::move(code), std::move(message));
}

// One part of a parsed URL; `present` is false when the URL has no such part.
struct Part {
  bool present = false;
  std::string text;
};

Part get_part(CURLU* url, CURLUPart which, unsigned int flags = 0) {
  char* raw = nullptr;
  Part part;
  if (curl_url_get(url, which, &raw, flags) == CURLUE_OK && raw != nullptr) {
    std::unique_ptr<char, CurlFree> owned(raw);
    part.present = true;
    part.text = owned.get();
  }
  return part;
}

struct ParsedUrl {
  UrlHandle handle;
  ProbeUrl parts;
};

// The scheme is checked on the text first so that `ftp://host/` gets the clear "unsupported scheme" error
// rather than whatever libcurl's parser says about it. The same parsed handle is then given to libcurl, so
// the request goes exactly where this function says.
core::Result<ParsedUrl> parse(std::string_view url) {
  const std::size_t sep = url.find("://");
  if (sep == std::string_view::npos || sep == 0)
    return error("probe_invalid_url", "not an absolute http(s) URL: " + std::string(url));
  const std::string scheme = core::to_ascii_lower(url.substr(0, sep));
  if (scheme != "http" && scheme != "https")
    return error("probe_unsupported_scheme",
                 "probes speak http and https only, not " + scheme + ": " + std::string(url));

  UrlHandle handle(curl_url());
  if (handle == nullptr) return error("probe_invalid_url", "out of memory");
  const std::string text(url);
  if (curl_url_set(handle.get(), CURLUPART_URL, text.c_str(), 0) != CURLUE_OK)
    return error("probe_invalid_url", "not a valid URL: " + text);
  // Not echoed: user info may hold a password, and the history is shown on a dashboard.
  if (get_part(handle.get(), CURLUPART_USER).present || get_part(handle.get(), CURLUPART_PASSWORD).present)
    return error("probe_invalid_url", "user info in a probe URL is not supported");
  const Part host = get_part(handle.get(), CURLUPART_HOST);
  if (!host.present || host.text.empty()) return error("probe_invalid_url", "URL without a host: " + text);
  const Part port = get_part(handle.get(), CURLUPART_PORT, CURLU_DEFAULT_PORT);
  if (!port.present) return error("probe_invalid_url", "URL with a bad port: " + text);

  ParsedUrl parsed;
  parsed.parts.scheme = scheme;
  parsed.parts.host = host.text;
  if (parsed.parts.host.size() > 2 && parsed.parts.host.front() == '[') {
    parsed.parts.host = parsed.parts.host.substr(1, parsed.parts.host.size() - 2);
  }
  parsed.parts.port = std::stoi(port.text);  // libcurl accepts only 1..65535 digits here
  const Part path = get_part(handle.get(), CURLUPART_PATH);
  parsed.parts.target = path.present && !path.text.empty() ? path.text : "/";
  const Part query = get_part(handle.get(), CURLUPART_QUERY);
  if (query.present) parsed.parts.target += "?" + query.text;
  // The fragment never leaves the client; drop it so libcurl does not see one either.
  curl_url_set(handle.get(), CURLUPART_FRAGMENT, nullptr, 0);
  parsed.handle = std::move(handle);
  return parsed;
}

struct Body {
  std::string text;
  std::size_t limit = 0;
  bool truncated = false;  // the bound was reached and the read stopped there
};

size_t on_write(char* data, size_t size, size_t count, void* user) {
  auto* body = static_cast<Body*>(user);
  const std::size_t n = size * count;
  const std::size_t room = body->limit - body->text.size();
  if (n > room) {
    body->text.append(data, room);
    body->truncated = true;
    return 0;  // libcurl ends the transfer with CURLE_WRITE_ERROR; the response counts as received
  }
  body->text.append(data, n);
  return n;
}

int on_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  const auto* cancel = static_cast<const std::atomic<bool>*>(user);
  return cancel != nullptr && cancel->load() ? 1 : 0;
}

// Installs the shared store in the connection's SSL_CTX; libcurl itself was told to load no CA file.
CURLcode use_store(CURL*, void* ssl_ctx, void* store) {
  SSL_CTX_set1_cert_store(static_cast<SSL_CTX*>(ssl_ctx), static_cast<X509_STORE*>(store));
  return CURLE_OK;
}

void configure(CURL* h, const ProbeRequest& request, X509_STORE* trusted, CURLU* url, Body* body,
               char* error_text, const std::atomic<bool>* cancel) {
  const auto& settings = request.settings;
  curl_easy_setopt(h, CURLOPT_CURLU, url);
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
  // The probe measures the direct path to the service; an http_proxy in the worker's environment would
  // measure the proxy instead (and send loopback checks away).
  curl_easy_setopt(h, CURLOPT_NOPROXY, "*");
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(settings.timeoutMs));
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(settings.timeoutMs));
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_USERAGENT, std::string(kUserAgent).c_str());
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error_text);
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_write);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, body);
  curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, on_progress);
  curl_easy_setopt(h, CURLOPT_XFERINFODATA, cancel);
  if (request.insecure_skip_tls_verify) {
    curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 0L);
    curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 0L);
  } else {
    curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
    if (trusted != nullptr) {
      curl_easy_setopt(h, CURLOPT_CAINFO, nullptr);
      curl_easy_setopt(h, CURLOPT_CAPATH, nullptr);
      curl_easy_setopt(h, CURLOPT_SSL_CTX_FUNCTION, use_store);
      curl_easy_setopt(h, CURLOPT_SSL_CTX_DATA, trusted);
    }
  }
  if (settings.method == "HEAD") {
    curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
  } else if (settings.method == "POST") {
    // A check has no request body: an empty POST, with Content-Length: 0.
    curl_easy_setopt(h, CURLOPT_POST, 1L);
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, "");
    curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, 0L);
  }
}

}  // namespace

core::Result<ProbeUrl> parse_probe_url(std::string_view url) {
  auto parsed = parse(url);
  if (!parsed) return parsed.error();
  return std::move(parsed->parts);
}

core::Result<ProbeResult> http_probe(const ProbeRequest& request, const ProbeOptions& options) {
  auto parsed = parse(request.url);
  if (!parsed) return parsed.error();
  if (!curl_ready()) return error("probe_unavailable", "libcurl could not be initialised");
  std::unique_ptr<CURL, CurlCleanup> handle(curl_easy_init());
  if (handle == nullptr) return error("probe_unavailable", "libcurl could not make a handle");
  CURL* const curl = handle.get();
  // Verification uses a shared, already parsed CA store (ca_store.h); released when the probe ends.
  std::unique_ptr<X509_STORE, StoreFree> trusted;
  if (parsed->parts.scheme == "https" && !request.insecure_skip_tls_verify) {
    trusted.reset(shared_ca_store(options.ca_file));
    if (trusted == nullptr) {
      ProbeResult result;
      result.outcome.transport = ProbeTransport::error;
      result.error = "cannot read the trusted CA bundle " +
                     (options.ca_file.empty() ? std::string("(system default)") : options.ca_file);
      return result;
    }
  }

  Body body;
  body.limit = options.max_body_bytes;
  body.text.reserve(std::min<std::size_t>(body.limit, 16 * 1024));
  char error_text[CURL_ERROR_SIZE] = {0};
  configure(curl, request, trusted.get(), parsed->handle.get(), &body, error_text, options.cancel);

  const auto start = std::chrono::steady_clock::now();
  const CURLcode code = curl_easy_perform(curl);
  const auto elapsed = std::chrono::steady_clock::now() - start;

  if (code == CURLE_ABORTED_BY_CALLBACK)
    return error("probe_cancelled", "the probe was cancelled before it completed");
  ProbeResult result;
  result.outcome.latencyMs = std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count();
  if (code == CURLE_OK || (code == CURLE_WRITE_ERROR && body.truncated)) {
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    result.outcome.transport = ProbeTransport::response;
    result.outcome.httpStatus = static_cast<int>(status);
    const auto& expected = request.settings.expectedBodyContains;
    result.outcome.bodyContainsExpected =
        expected.has_value() && body.text.find(*expected) != std::string::npos;
    return result;
  }
  // libcurl's text names the host and what failed (refused, certificate problem, timed out after N ms).
  const std::string reason = error_text[0] != '\0' ? error_text : curl_easy_strerror(code);
  if (code == CURLE_OPERATION_TIMEDOUT) {
    result.outcome.transport = ProbeTransport::timeout;
    result.error =
        "no complete response within " + std::to_string(request.settings.timeoutMs) + " ms (" + reason + ")";
  } else {
    result.outcome.transport = ProbeTransport::error;
    result.error = reason;
  }
  return result;
}

}  // namespace native::probe
