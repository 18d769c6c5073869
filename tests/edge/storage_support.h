#pragma once
// Helpers of the storage suites (tests/edge/storage_*_test.cpp): an edge without rate limits, bucket
// creation, raw and multipart uploads over HTTP, and small files whose first bytes are real formats.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/json.h"
#include "test_edge.h"

namespace storage_test {

namespace json = core::json;
using testing::Reply;
using testing::TestEdge;

inline edge::Config unthrottled() {
  edge::Config c;
  c.rate_limit = {1'000'000, 1000};
  return c;
}

inline const std::vector<std::string> kAllStorage = {"storage.view",   "buckets.create", "buckets.edit",
                                                     "buckets.delete", "media.upload",   "media.delete",
                                                     "media.reorder"};

// A TestEdge whose acme and globex tokens hold every storage permission (TestEdge's hold storage.view only).
struct StorageEdge : TestEdge {
  explicit StorageEdge(edge::Config c = unthrottled()) : TestEdge(std::move(c)) {
    acme_token = token_with("acme", kAllStorage);
    globex_token = token_with("globex", kAllStorage);
  }
};

inline std::string str(const json::value& v, const char* key) {
  auto* m = v.as_object().if_contains(key);
  return m && m->is_string() ? std::string(m->get_string()) : std::string();
}

inline std::int64_t num(const json::value& v, const char* key) {
  auto* m = v.as_object().if_contains(key);
  return m && m->is_int64() ? m->get_int64() : -1;
}

inline std::string be32(std::uint32_t v) {
  return {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
}

// A PNG header of `w` x `h` pixels followed by `pad` bytes (enough for the upload checks; not decodable).
inline std::string png(std::uint32_t w, std::uint32_t h, std::size_t pad = 64) {
  using namespace std::string_literals;
  return "\x89PNG\r\n\x1A\n\0\0\0\rIHDR"s + be32(w) + be32(h) + "\x08\x06\0\0\0"s + std::string(pad, 'p');
}

inline std::string pdf(std::size_t pad = 64) {
  return "%PDF-1.7\n" + std::string(pad, 'x');
}

inline Reply make_bucket(TestEdge& e, const std::string& token, const std::string& slug,
                         const std::string& visibility = "private", const std::string& company = "acme") {
  return e.post(
      "/api/companies/" + company + "/buckets",
      R"({"slug":")" + slug + R"(","name":"Bucket )" + slug + R"(","visibility":")" + visibility + R"("})",
      token);
}

// A raw upload: the body is the file, the rest in the query (`query` without the leading '?').
inline Reply upload_raw(TestEdge& e, const std::string& token, const std::string& bucket,
                        const std::string& bytes, const std::string& query,
                        const std::string& company = "acme") {
  return e.send("POST", "/api/companies/" + company + "/buckets/" + bucket + "/media?" + query, bytes,
                {{"Authorization", "Bearer " + token}}, "application/octet-stream");
}

struct FormField {
  std::string name, value, filename, content_type;
  bool is_file = false;
};

inline std::string multipart_body(const std::string& boundary, const std::vector<FormField>& fields) {
  std::string body;
  for (auto& f : fields) {
    body += "--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + f.name + "\"";
    if (f.is_file) body += "; filename=\"" + f.filename + "\"";
    body += "\r\n";
    if (!f.content_type.empty()) body += "Content-Type: " + f.content_type + "\r\n";
    body += "\r\n" + f.value + "\r\n";
  }
  return body + "--" + boundary + "--\r\n";
}

inline Reply upload_multipart(TestEdge& e, const std::string& token, const std::string& bucket,
                              const std::vector<FormField>& fields, const std::string& company = "acme") {
  const std::string boundary = "----storageTestBoundary7MA4YWxk";
  return e.send("POST", "/api/companies/" + company + "/buckets/" + bucket + "/media",
                multipart_body(boundary, fields), {{"Authorization", "Bearer " + token}},
                "multipart/form-data; boundary=" + boundary);
}

inline FormField text_field(const std::string& name, const std::string& value) {
  return FormField{name, value, "", "", false};
}

inline FormField file_field(const std::string& bytes, const std::string& filename,
                            const std::string& type = "") {
  return FormField{"file", bytes, filename, type, true};
}

// The company's {used, limit} as /storage-quota answers them.
inline std::pair<std::int64_t, std::int64_t> quota(TestEdge& e, const std::string& token,
                                                   const std::string& company = "acme") {
  auto r = e.get("/api/companies/" + company + "/storage-quota", token);
  REQUIRE(r.status == 200);
  return {num(r.data(), "used"), num(r.data(), "limit")};
}

}  // namespace storage_test
