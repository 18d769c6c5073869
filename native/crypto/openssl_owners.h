#pragma once
// Owners for the OpenSSL objects the native adapters make (RS256 keys, DKIM keys and signing).
//
// Contract: each owner takes a pointer OpenSSL handed over (a *_new, *_gen, PEM_read_*, i2d_* with a null
// output buffer, EVP_PKEY_get_bn_param, ...) and frees it exactly once, with the matching OpenSSL function,
// when it goes out of scope. A null owner frees nothing (the OpenSSL free functions accept null anyway).
// Never wrap a pointer OpenSSL still owns (a get0 result, BIO_get_mem_data's buffer): it would be freed
// twice. Use get() to pass the object to OpenSSL and keep ownership; release() to hand it over to a call
// that takes ownership (a set1/assign0 style call documented to do so).

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/encoder.h>
#include <openssl/evp.h>

#include <memory>

namespace native::openssl {

// Calls `Free` on the pointer, the deleter of every owner below.
template <auto Free>
struct FreeWith {
  template <typename T>
  void operator()(T* object) const {
    Free(object);
  }
};

using Bio = std::unique_ptr<BIO, FreeWith<BIO_free>>;
using Pkey = std::unique_ptr<EVP_PKEY, FreeWith<EVP_PKEY_free>>;
using MdCtx = std::unique_ptr<EVP_MD_CTX, FreeWith<EVP_MD_CTX_free>>;
using Bignum = std::unique_ptr<BIGNUM, FreeWith<BN_free>>;
using EncoderCtx = std::unique_ptr<OSSL_ENCODER_CTX, FreeWith<OSSL_ENCODER_CTX_free>>;

// A buffer OpenSSL allocated for the caller (i2d_* with a null output pointer): OPENSSL_free, a macro.
struct BufferFree {
  void operator()(unsigned char* buffer) const { OPENSSL_free(buffer); }
};
using Buffer = std::unique_ptr<unsigned char, BufferFree>;

}  // namespace native::openssl
