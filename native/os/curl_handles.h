#pragma once
// What every libcurl user in native/ needs: owners for its handles and the one-time global set-up.

#include <curl/curl.h>

namespace native {

struct CurlCleanup {
  void operator()(CURL* curl) const { curl_easy_cleanup(curl); }
};
struct SlistFree {
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};
struct UrlCleanup {
  void operator()(CURLU* url) const { curl_url_cleanup(url); }
};
struct CurlFree {
  void operator()(char* p) const { curl_free(p); }
};

// curl_global_init must run once, before any handle exists, and never concurrently with itself; a
// function-local static gives both. curl_global_cleanup is never called: other threads may still be using
// libcurl at exit.
inline bool curl_ready() {
  static const bool ready = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
  return ready;
}

}  // namespace native
