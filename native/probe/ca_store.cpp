#include "native/probe/ca_store.h"

#include <curl/curl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

#include <chrono>
#include <map>
#include <memory>
#include <mutex>

namespace native::probe {
namespace {

constexpr auto kMaxAge = std::chrono::hours(1);

struct StoreFree {
  void operator()(X509_STORE* store) const { X509_STORE_free(store); }
};

struct Cached {
  std::unique_ptr<X509_STORE, StoreFree> store;
  std::chrono::steady_clock::time_point loaded;
};

// The bundle libcurl would load by itself (Debian: /etc/ssl/certs/ca-certificates.crt).
std::string default_bundle() {
  static const std::string path = [] {
    std::string found = "/etc/ssl/certs/ca-certificates.crt";
    if (CURL* curl = curl_easy_init()) {
      char* info = nullptr;
      if (curl_easy_getinfo(curl, CURLINFO_CAINFO, &info) == CURLE_OK && info != nullptr) found = info;
      curl_easy_cleanup(curl);
    }
    return found;
  }();
  return path;
}

X509_STORE* load(const std::string& path) {
  std::unique_ptr<X509_STORE, StoreFree> store(X509_STORE_new());
  if (store == nullptr || X509_STORE_load_file(store.get(), path.c_str()) != 1) return nullptr;
  return store.release();
}

}  // namespace

X509_STORE* shared_ca_store(const std::string& path) {
  static std::mutex mutex;
  static std::map<std::string, Cached> cache;
  const std::string file = path.empty() ? default_bundle() : path;
  const auto now = std::chrono::steady_clock::now();
  // Parsed under the lock: at most once an hour per bundle, and concurrent first probes wait for one parse
  // instead of each doing their own.
  std::lock_guard lock(mutex);
  Cached& cached = cache[file];
  if (cached.store == nullptr || now - cached.loaded > kMaxAge) {
    X509_STORE* fresh = load(file);
    if (fresh == nullptr) return nullptr;  // keep nothing: the next probe retries
    cached.store.reset(fresh);
    cached.loaded = now;
  }
  X509_STORE_up_ref(cached.store.get());
  return cached.store.get();
}

}  // namespace native::probe
