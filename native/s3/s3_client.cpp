#include "native/s3/s3_client.h"

#include <curl/curl.h>
#include <sodium.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include <unistd.h>

#include "core/bytes.h"
#include "native/os/curl_handles.h"

namespace native::s3 {
namespace {

core::Error error(std::string code, std::string message) {
  return core::make_error(std::move(code), std::move(message));
}

struct FileClose {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileClose>;

// SHA-256 of the empty payload (GET, DELETE, list).
constexpr const char* kEmptySha256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

// Streams the file through SHA-256; also answers its size.
core::Result<std::pair<std::string, std::uint64_t>> file_sha256(const std::string& path) {
  File f(std::fopen(path.c_str(), "rb"));
  if (!f) return error("storage_error", "cannot read " + path);
  crypto_hash_sha256_state state;
  crypto_hash_sha256_init(&state);
  std::vector<unsigned char> buffer(1 << 16);
  std::uint64_t size = 0;
  for (;;) {
    const std::size_t n = std::fread(buffer.data(), 1, buffer.size(), f.get());
    if (n > 0) crypto_hash_sha256_update(&state, buffer.data(), n);
    size += n;
    if (n < buffer.size()) break;
  }
  if (std::ferror(f.get())) return error("storage_error", "cannot read " + path);
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256_final(&state, digest);
  return std::pair{core::hex_encode(std::span<const std::uint8_t>(digest, sizeof digest)), size};
}

// SigV4's canonical query string must equal what is sent: names sorted, RFC 3986 encoding with upper-case
// hex. libcurl 7.88 signs the query as it finds it in the URL, so the URL is built in canonical form.
std::string encode_query_part(std::string_view text) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
        c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::string canonical_query(const std::map<std::string, std::string>& query) {
  std::string out;
  for (const auto& [name, value] : query) {
    if (!out.empty()) out += '&';
    out += encode_query_part(name) + "=" + encode_query_part(value);
  }
  return out;
}

// The text of the first `<tag>...</tag>` at or after `from`, XML entities decoded; `from` moves past it.
std::optional<std::string> xml_element(std::string_view xml, std::string_view tag, std::size_t& from) {
  const std::string open = "<" + std::string(tag) + ">", close = "</" + std::string(tag) + ">";
  const auto start = xml.find(open, from);
  if (start == std::string_view::npos) return std::nullopt;
  const auto end = xml.find(close, start + open.size());
  if (end == std::string_view::npos) return std::nullopt;
  from = end + close.size();
  std::string_view raw = xml.substr(start + open.size(), end - start - open.size());
  std::string text;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != '&') {
      text += raw[i];
      continue;
    }
    static const std::pair<std::string_view, char> kEntities[] = {
        {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
    bool decoded = false;
    for (const auto& [entity, c] : kEntities) {
      if (raw.substr(i, entity.size()) == entity) {
        text += c;
        i += entity.size() - 1;
        decoded = true;
        break;
      }
    }
    if (!decoded) text += '&';
  }
  return text;
}

struct Exchange {
  CURL* handle = nullptr;
  std::FILE* sink = nullptr;  // the body of a 2xx answer goes here when set
  std::string body;           // otherwise (and for every error answer) here, capped
  bool sink_failed = false;
};

size_t on_write(char* data, size_t size, size_t count, void* user) {
  auto* ex = static_cast<Exchange*>(user);
  const std::size_t n = size * count;
  long status = 0;
  curl_easy_getinfo(ex->handle, CURLINFO_RESPONSE_CODE, &status);
  if (ex->sink != nullptr && status >= 200 && status < 300) {
    if (std::fwrite(data, 1, n, ex->sink) != n) {
      ex->sink_failed = true;
      return 0;
    }
    return n;
  }
  if (ex->body.size() < (1 << 20))
    ex->body.append(data, std::min<std::size_t>(n, (1 << 20) - ex->body.size()));
  return n;
}

struct Request {
  const char* method = "GET";
  std::string key;  // empty: the bucket itself (list)
  std::map<std::string, std::string> query;
  std::FILE* upload = nullptr;
  std::uint64_t upload_size = 0;
  std::string payload_sha256 = kEmptySha256;
  std::string content_type;
  std::FILE* download = nullptr;
};

struct Answer {
  int status = 0;
  std::string body;
};

}  // namespace

core::Status check_object_key(std::string_view key) {
  const bool shape_ok = !key.empty() && key.size() <= 1024 && key.front() != '/' &&
                        std::all_of(key.begin(), key.end(), [](unsigned char c) {
                          return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                                 c == '-' || c == '_' || c == '.' || c == '/';
                        });
  if (!shape_ok) return error("invalid_key", "object keys are 1-1024 characters of A-Z a-z 0-9 - _ . /");
  return {};
}

S3Client::S3Client(S3Options options) : options_(std::move(options)) {
  while (!options_.endpoint.empty() && options_.endpoint.back() == '/') options_.endpoint.pop_back();
}

namespace {

core::Result<Answer> perform(const S3Options& options, const Request& req) {
  if (!curl_ready()) return error("s3_unreachable", "libcurl could not be initialised");
  std::unique_ptr<CURL, CurlCleanup> curl(curl_easy_init());
  if (curl == nullptr) return error("s3_unreachable", "libcurl could not make a handle");
  CURL* h = curl.get();
  std::string url = options.endpoint + "/" + options.bucket;
  if (!req.key.empty()) url += "/" + req.key;
  if (!req.query.empty()) url += "?" + canonical_query(req.query);
  const std::string where = std::string(req.method) + " " + url;

  std::unique_ptr<curl_slist, SlistFree> headers;
  auto add_header = [&headers](const std::string& line) {
    curl_slist* grown = curl_slist_append(headers.get(), line.c_str());
    if (grown == nullptr) return false;
    headers.release();
    headers.reset(grown);
    return true;
  };
  // (No `Expect:` override: libcurl 7.88 would sign the removed header and the signature would not match.)
  bool ok = add_header("x-amz-content-sha256: " + req.payload_sha256);
  if (!req.content_type.empty()) ok = ok && add_header("Content-Type: " + req.content_type);
  if (!ok) return error("s3_unreachable", "out of memory");

  const std::string sigv4 = "aws:amz:" + options.region + ":s3";
  Exchange ex;
  ex.handle = h;
  ex.sink = req.download;
  char error_text[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(h, CURLOPT_URL, url.c_str());
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(h, CURLOPT_AWS_SIGV4, sigv4.c_str());
  curl_easy_setopt(h, CURLOPT_USERNAME, options.access_key.c_str());
  curl_easy_setopt(h, CURLOPT_PASSWORD, options.secret_key.c_str());
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options.connect_timeout.count()));
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(options.total_timeout.count()));
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_write);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &ex);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error_text);
  curl_easy_setopt(h, CURLOPT_USERAGENT, "platform-storage");
  if (req.upload != nullptr) {
    curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(h, CURLOPT_READDATA, req.upload);
    curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(req.upload_size));
  } else if (std::string_view(req.method) != "GET") {
    curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, req.method);
  }
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers.get());

  const CURLcode result = curl_easy_perform(h);
  if (ex.sink_failed) return error("storage_error", "cannot write the object of " + where + " to disk");
  if (result != CURLE_OK) {
    // libcurl's text names the host and what failed; it never holds the credentials.
    const std::string reason = error_text[0] != '\0' ? error_text : curl_easy_strerror(result);
    return error("s3_unreachable", "cannot reach " + where + ": " + reason);
  }
  long status = 0;
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
  return Answer{static_cast<int>(status), std::move(ex.body)};
}

// The service's refusal as an error: 404 is `not_found`, anything else `s3_error` with S3's `<Code>`.
core::Error refusal(const Answer& answer, std::string_view what) {
  std::size_t from = 0;
  const std::string code = xml_element(answer.body, "Code", from).value_or("no error code");
  if (answer.status == 404) return error("not_found", std::string(what) + ": no such object (" + code + ")");
  return error("s3_error",
               std::string(what) + ": the service answered " + std::to_string(answer.status) + " " + code);
}

}  // namespace

core::Status S3Client::put_file(std::string_view key, const std::string& path,
                                std::string_view content_type) const {
  if (auto checked = check_object_key(key); !checked.ok()) return checked;
  auto hashed = file_sha256(path);
  if (!hashed) return hashed.error();
  File f(std::fopen(path.c_str(), "rb"));
  if (!f) return error("storage_error", "cannot read " + path);
  Request req;
  req.method = "PUT";
  req.key = std::string(key);
  req.upload = f.get();
  req.upload_size = hashed->second;
  req.payload_sha256 = hashed->first;
  req.content_type = content_type.empty() ? "application/octet-stream" : std::string(content_type);
  auto answer = perform(options_, req);
  if (!answer) return answer.error();
  if (answer->status != 200) return refusal(*answer, "storing object " + req.key);
  return {};
}

core::Status S3Client::get_to_file(std::string_view key, const std::string& dest_path) const {
  if (auto checked = check_object_key(key); !checked.ok()) return checked;
  File f(std::fopen(dest_path.c_str(), "wb"));
  if (!f) return error("storage_error", "cannot write " + dest_path);
  Request req;
  req.key = std::string(key);
  req.download = f.get();
  auto answer = perform(options_, req);
  if (!answer) return answer.error();
  if (answer->status != 200) return refusal(*answer, "reading object " + req.key);
  if (std::fflush(f.get()) != 0 || ::fsync(::fileno(f.get())) != 0)
    return error("storage_error", "cannot write " + dest_path);
  return {};
}

core::Status S3Client::remove(std::string_view key) const {
  if (auto checked = check_object_key(key); !checked.ok()) return checked;
  Request req;
  req.method = "DELETE";
  req.key = std::string(key);
  auto answer = perform(options_, req);
  if (!answer) return answer.error();
  if (answer->status != 204 && answer->status != 200 && answer->status != 404)
    return refusal(*answer, "removing object " + req.key);
  return {};
}

core::Status S3Client::list(
    std::string_view prefix,
    const std::function<void(const std::string& key, std::uint64_t size)>& each) const {
  // ListObjects (version 1) paged with `marker` = the last key seen: every S3-compatible service has it.
  // (Version 2's continuation tokens would do as well, but the test server mints them with DES, which
  // Node 20's OpenSSL 3 no longer offers.)
  std::string marker;
  for (;;) {
    Request req;
    req.query = {{"max-keys", std::to_string(options_.list_page_size)}, {"prefix", std::string(prefix)}};
    if (!marker.empty()) req.query["marker"] = marker;
    auto answer = perform(options_, req);
    if (!answer) return answer.error();
    if (answer->status != 200) return refusal(*answer, "listing objects under '" + std::string(prefix) + "'");
    const std::string_view xml = answer->body;
    std::size_t pos = 0;
    std::string last;
    for (;;) {
      const auto start = xml.find("<Contents>", pos);
      if (start == std::string_view::npos) break;
      const auto end = xml.find("</Contents>", start);
      if (end == std::string_view::npos) break;
      const std::string_view item = xml.substr(start, end - start);
      std::size_t at = 0;
      auto key = xml_element(item, "Key", at);
      at = 0;
      auto size = xml_element(item, "Size", at);
      if (key) {
        each(*key, size ? std::strtoull(size->c_str(), nullptr, 10) : 0);
        last = *key;
      }
      pos = end;
    }
    std::size_t at = 0;
    const bool truncated = xml_element(xml, "IsTruncated", at).value_or("false") == "true";
    if (!truncated || last.empty()) return {};
    marker = last;
  }
}

}  // namespace native::s3
