#pragma once
// Trusted CA bundles parsed once and shared by every probe (internal to native/probe/). Parsing the system
// bundle costs about 18 ms of CPU, ten times a whole verified TLS probe on loopback, and libcurl 7.88 parses
// it again for every easy handle (its CA cache did not take effect in a measurement with reused handles).
// OpenSSL's X509_STORE is reference-counted and safe to verify against from many threads.

#include <openssl/types.h>

#include <string>

namespace native::probe {

// The store for the PEM bundle at `path` ("" for libcurl's built-in default, the system bundle), with a
// reference the caller releases with X509_STORE_free. A store is reparsed once it is an hour old, so an
// updated bundle takes effect within the hour. nullptr when the file cannot be read or holds no
// certificate.
X509_STORE* shared_ca_store(const std::string& path);

}  // namespace native::probe
