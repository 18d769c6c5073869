#include "native/mail/dkim_signer.h"

// dkim.h declares _Bool parameters and includes <stdbool.h> (which maps _Bool to bool in C++) only when
// the library's own build defines HAVE_STDBOOL_H.
#include <stdbool.h>

#include <opendkim/dkim.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <vector>

#include "core/ascii.h"
#include "core/validate.h"
#include "native/crypto/openssl_owners.h"
#include "native/mail/line_breaks.h"

namespace native::mail {
namespace {

struct DkimLibClose {
  void operator()(DKIM_LIB* lib) const { dkim_close(lib); }
};
struct DkimFree {
  void operator()(DKIM* dkim) const { dkim_free(dkim); }
};

// The process's one libopendkim instance, configured before anyone can see it and only read afterwards.
// libopendkim documents a library handle as shareable across threads; what varies per message lives in
// the DKIM handle each call makes. Closed when the process exits normally, so signing must not run during
// static destruction.
struct Library {
  std::unique_ptr<DKIM_LIB, DkimLibClose> handle;
  std::string failure;  // why handle is null
};

const Library& library() {
  static const Library instance = [] {
    Library lib;
    lib.handle.reset(dkim_init(nullptr, nullptr));
    if (lib.handle == nullptr) {
      lib.failure = "dkim_init failed";
      return lib;
    }
    // A null-terminated list; libopendkim compiles it into one pattern and signs each present field once.
    static std::array<const char*, std::size(kDkimSignedHeaders) + 1> names = [] {
      std::array<const char*, std::size(kDkimSignedHeaders) + 1> list{};
      std::copy(std::begin(kDkimSignedHeaders), std::end(kDkimSignedHeaders), list.begin());
      return list;
    }();
    // The length argument is that of the pointer to the list, not of the list (libopendkim checks it).
    if (dkim_options(lib.handle.get(), DKIM_OP_SETOPT, DKIM_OPTS_SIGNHDRS, names.data(), sizeof(char**)) !=
        DKIM_STAT_OK) {
      lib.handle.reset();
      lib.failure = "libopendkim refused the list of header fields to sign";
    }
    return lib;
  }();
  return instance;
}

core::Error dkim_error(std::string message) {
  return core::make_error("dkim_error", std::move(message));
}

core::Error dkim_error(DKIM* dkim, DKIM_STAT status, const char* step) {
  std::string message = std::string("libopendkim failed at ") + step + ": " + dkim_getresultstr(status);
  if (const char* detail = dkim != nullptr ? dkim_geterror(dkim) : nullptr; detail != nullptr && *detail)
    message += std::string(" (") + detail + ")";
  ERR_clear_error();  // libopendkim's OpenSSL calls may leave reasons queued on this thread
  return dkim_error(std::move(message));
}

core::Error invalid_key(std::string message) {
  ERR_clear_error();
  return core::make_error("invalid_key", std::move(message));
}

// A selector is one or more DNS labels (RFC 6376 §3.1).
bool is_selector(std::string_view selector) {
  if (selector.empty() || selector.size() > 63) return false;
  std::size_t start = 0;
  while (true) {
    auto dot = selector.find('.', start);
    auto label = selector.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (label.empty() || label.front() == '-' || label.back() == '-' ||
        !std::all_of(label.begin(), label.end(), [](char c) { return core::is_ascii_alnum(c) || c == '-'; }))
      return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

int refuse_passphrase(char*, int, int, void*) {
  return -1;
}

// libopendkim reads the key itself, but only says "d2i_PrivateKey_bio() failed" at the end of the
// message, and would attempt a non-RSA key with rsa-sha256; checking it first gives the caller a clear
// `invalid_key`. The cost (one PEM parse) is small beside the RSA signature.
core::Status check_key(const DkimSigningKey& key) {
  if (!core::is_valid_domain_name(key.domain)) return invalid_key("the DKIM domain is not a domain name");
  if (!is_selector(key.selector)) return invalid_key("the DKIM selector is not a DNS label");
  openssl::Bio bio(BIO_new_mem_buf(key.private_key_pem.data(), static_cast<int>(key.private_key_pem.size())));
  openssl::Pkey pkey(bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, refuse_passphrase, nullptr) : nullptr);
  if (pkey == nullptr) return invalid_key("the DKIM private key is not an unencrypted PEM private key");
  if (!EVP_PKEY_is_a(pkey.get(), "RSA") || EVP_PKEY_get_bits(pkey.get()) < 1024)
    return invalid_key("the DKIM private key is not an RSA key of at least 1024 bits");
  return {};
}

struct SplitMessage {
  std::vector<std::string> fields;  // each header field unfolded (CRLF before WSP removed), without CRLF
  std::string_view body;            // after the blank line; empty when there is none
};

// Splits at the first empty line. Unfolding here is what relaxed header canonicalization does first
// (RFC 6376 §3.4.2), so the signature is the one over the folded fields as sent.
core::Result<SplitMessage> split(std::string_view message) {
  SplitMessage out;
  std::size_t pos = 0;
  while (pos < message.size()) {
    std::size_t eol = message.find("\r\n", pos);
    if (eol == std::string_view::npos) eol = message.size();  // a last line without CRLF
    std::string_view line = message.substr(pos, eol - pos);
    pos = std::min(eol + 2, message.size());
    if (line.empty()) {
      out.body = message.substr(pos);
      break;
    }
    if (line.front() == ' ' || line.front() == '\t') {
      if (out.fields.empty())
        return core::make_error("invalid_message", "the message starts with a folded line");
      out.fields.back().append(line);
    } else if (line.find(':') == std::string_view::npos) {
      return core::make_error("invalid_message", "a header line has no colon");
    } else {
      out.fields.emplace_back(line);
    }
  }
  return out;
}

// The generated field value with every line break as CRLF, whatever libopendkim folded it with.
std::string crlf_folded(std::string_view value) {
  std::string out;
  out.reserve(value.size() + 16);
  for (char c : value) {
    if (c == '\r') continue;
    if (c == '\n') out.push_back('\r');
    out.push_back(c);
  }
  return out;
}

}  // namespace

core::Result<std::string> dkim_sign(std::string_view message, const DkimSigningKey& key) {
  if (!has_only_crlf(message)) return core::make_error("invalid_message", "the message has a bare CR or LF");
  CORE_TRY(check_key(key));
  auto parts = split(message);
  if (!parts.ok()) return parts.error();

  const Library& lib = library();
  if (lib.handle == nullptr) return dkim_error(lib.failure);
  DKIM_STAT status = DKIM_STAT_OK;
  std::string pem = key.private_key_pem;  // dkim_sign takes the key as a mutable C string
  std::unique_ptr<DKIM, DkimFree> dkim(
      ::dkim_sign(lib.handle.get(), reinterpret_cast<const unsigned char*>("platform-mail"), nullptr,
                  reinterpret_cast<unsigned char*>(pem.data()),
                  reinterpret_cast<const unsigned char*>(key.selector.c_str()),
                  reinterpret_cast<const unsigned char*>(key.domain.c_str()), DKIM_CANON_RELAXED,
                  DKIM_CANON_RELAXED, DKIM_SIGN_RSASHA256, -1, &status));
  if (dkim == nullptr) return dkim_error(nullptr, status, "dkim_sign");

  for (std::string& field : parts->fields) {
    status = dkim_header(dkim.get(), reinterpret_cast<unsigned char*>(field.data()), field.size());
    if (status == DKIM_STAT_SYNTAX)
      return core::make_error("invalid_message", "a header field name cannot be signed");
    if (status != DKIM_STAT_OK) return dkim_error(dkim.get(), status, "dkim_header");
  }
  status = dkim_eoh(dkim.get());
  if (status == DKIM_STAT_SYNTAX) return core::make_error("invalid_message", "the message has no From field");
  if (status != DKIM_STAT_OK) return dkim_error(dkim.get(), status, "dkim_eoh");

  // dkim_body takes a mutable buffer; the body is passed through a copy in pieces.
  std::vector<unsigned char> chunk(64 * 1024);
  for (std::size_t pos = 0; pos < parts->body.size(); pos += chunk.size()) {
    const std::size_t n = std::min(chunk.size(), parts->body.size() - pos);
    std::memcpy(chunk.data(), parts->body.data() + pos, n);
    status = dkim_body(dkim.get(), chunk.data(), n);
    if (status != DKIM_STAT_OK) return dkim_error(dkim.get(), status, "dkim_body");
  }
  status = dkim_eom(dkim.get(), nullptr);
  if (status != DKIM_STAT_OK) return dkim_error(dkim.get(), status, "dkim_eom");

  static constexpr std::string_view kName = "DKIM-Signature: ";
  unsigned char* value = nullptr;
  std::size_t length = 0;
  status = dkim_getsighdr_d(dkim.get(), kName.size(), &value, &length);  // freed with the handle
  if (status != DKIM_STAT_OK || value == nullptr) return dkim_error(dkim.get(), status, "dkim_getsighdr_d");

  std::string signed_message;
  signed_message.reserve(kName.size() + length + 8 + message.size());
  signed_message.append(kName);
  signed_message.append(crlf_folded(std::string_view(reinterpret_cast<const char*>(value), length)));
  signed_message.append("\r\n");
  signed_message.append(message);
  return signed_message;
}

}  // namespace native::mail
