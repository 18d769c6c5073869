// DKIM key pairs (OpenSSL) and signatures (libopendkim), checked by an independent verifier: python3-dkim
// (tests/native/dkim_verify.py) fetching the public key from a real dnsmasq that serves
// `s1._domainkey.example.test` as the TXT value core::mail::dkim_key_record_value makes.

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/bytes.h"
#include "core/mail/domain_records.h"
#include "native/mail/dkim_key.h"
#include "native/mail/dkim_signer.h"
#include "native/mail/mime_message.h"
#include "tests/native/child_process.h"
#include "tests/native/dnsmasq_zone.h"
#include "tests/native/mail_test_util.h"
#include "tests/native/temp_dir.h"

using native::mail::DkimSigningKey;

namespace {

struct PkeyFree {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;

const native::mail::DkimKeyPair& key_pair() {
  static const native::mail::DkimKeyPair pair = [] {
    auto made = native::mail::generate_dkim_key(2048);
    REQUIRE(made.ok());
    return *made;
  }();
  return pair;
}

DkimSigningKey signing_key() {
  return {"example.test", "s1", key_pair().private_key_pem};
}

// One dnsmasq for the file, publishing the test key where a verifier looks for d=example.test; s=s1.
const test_dns::DnsmasqZone& zone() {
  static std::string failure;
  static const auto server =
      test_dns::DnsmasqZone::start({"--txt-record=s1._domainkey.example.test," +
                                    core::mail::dkim_key_record_value(key_pair().public_key_base64)},
                                   failure);
  REQUIRE_MESSAGE(server != nullptr, failure);
  return *server;
}

// python3-dkim's verdict on each message, in order.
std::vector<bool> verify(const std::vector<std::string>& messages) {
  const std::string nameserver = zone().nameserver();  // 127.0.0.1:<port>
  const auto colon = nameserver.rfind(':');
  store_test::TempDir dir;
  std::filesystem::create_directories(dir.path());
  std::vector<std::string> argv = {"/usr/bin/python3", DKIM_VERIFY_SCRIPT, nameserver.substr(0, colon),
                                   nameserver.substr(colon + 1)};
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const std::string path = (dir.path() / (std::to_string(i) + ".eml")).string();
    std::ofstream(path, std::ios::binary) << messages[i];
    argv.push_back(path);
  }
  const auto result = test_process::run(argv, std::chrono::seconds(60));
  INFO(result.output);
  REQUIRE((result.exit_code == 0 || result.exit_code == 1));
  std::vector<bool> verdicts;
  for (std::size_t pos = 0; pos < result.output.size();) {
    auto eol = result.output.find('\n', pos);
    if (eol == std::string::npos) eol = result.output.size();
    const std::string line = result.output.substr(pos, eol - pos);
    if (line.starts_with("pass ")) verdicts.push_back(true);
    if (line.starts_with("fail ")) verdicts.push_back(false);
    pos = eol + 1;
  }
  REQUIRE(verdicts.size() == messages.size());
  return verdicts;
}

std::string built(const native::mail::OutgoingMessage& message) {
  auto bytes = native::mail::build_mime(message);
  REQUIRE(bytes.ok());
  return *bytes;
}

std::string sign(const std::string& message) {
  auto signed_message = native::mail::dkim_sign(message, signing_key());
  REQUIRE_MESSAGE(signed_message.ok(), signed_message.error().code, ": ", signed_message.error().message);
  return *signed_message;
}

// The tags of a DKIM-Signature value, whitespace removed (RFC 6376 §3.2).
std::string tag(const std::string& signed_message, std::string_view name) {
  std::string value = mail_test::header_field(signed_message, "DKIM-Signature").value_or("");
  value.erase(std::remove_if(value.begin(), value.end(), [](char c) { return c == ' ' || c == '\t'; }),
              value.end());
  for (std::size_t pos = 0; pos < value.size();) {
    auto end = value.find(';', pos);
    if (end == std::string::npos) end = value.size();
    const std::string item = value.substr(pos, end - pos);
    if (item.starts_with(std::string(name) + "=")) return item.substr(name.size() + 1);
    pos = end + 1;
  }
  return {};
}

std::set<std::string> signed_fields(const std::string& signed_message) {
  std::set<std::string> fields;
  const std::string h = tag(signed_message, "h");
  for (std::size_t pos = 0; pos <= h.size();) {
    auto end = h.find(':', pos);
    if (end == std::string::npos) end = h.size();
    std::string name = h.substr(pos, end - pos);
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    fields.insert(name);
    pos = end + 1;
  }
  return fields;
}

std::string replaced(std::string text, std::string_view from, std::string_view to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_SUITE("dkim") {
  TEST_CASE("generate_dkim_key: a PKCS#8 RSA key whose SubjectPublicKeyInfo is the p= value") {
    const auto& pair = key_pair();
    CHECK(pair.private_key_pem.starts_with("-----BEGIN PRIVATE KEY-----\n"));
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(
        BIO_new_mem_buf(pair.private_key_pem.data(), static_cast<int>(pair.private_key_pem.size())),
        BIO_free);
    Pkey private_key(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr));
    REQUIRE(private_key != nullptr);
    CHECK(EVP_PKEY_is_a(private_key.get(), "RSA"));
    CHECK(EVP_PKEY_get_bits(private_key.get()) == 2048);

    auto der = core::base64_decode(pair.public_key_base64);
    REQUIRE(der.ok());
    const unsigned char* p = der->data();
    Pkey public_key(d2i_PUBKEY(nullptr, &p, static_cast<long>(der->size())));
    REQUIRE(public_key != nullptr);
    CHECK(p == der->data() + der->size());
    CHECK(EVP_PKEY_eq(private_key.get(), public_key.get()) == 1);

    CHECK(core::mail::dkim_key_record_value(pair.public_key_base64) ==
          "v=DKIM1; k=rsa; p=" + pair.public_key_base64);
    CHECK(native::mail::generate_dkim_key(1024).ok());
    for (int bits : {0, 512, 1023, 4097}) {
      CAPTURE(bits);
      CHECK(native::mail::generate_dkim_key(bits).error().code == "invalid_key_size");
    }
  }

  TEST_CASE("a signed message verifies with python3-dkim; h= lists the signed fields it has") {
    native::mail::OutgoingMessage with_all = mail_test::sample_message();
    with_all.attachments = {{"a.bin", "application/octet-stream", std::string(5000, '\x01')}};
    native::mail::OutgoingMessage without_reply_to = mail_test::sample_message();
    without_reply_to.reply_to.clear();
    const std::string message = built(with_all);
    const std::string signed_all = sign(message);
    const std::string signed_no_reply_to = sign(built(without_reply_to));

    CHECK(signed_all.starts_with("DKIM-Signature: "));
    CHECK(signed_all.ends_with("\r\n" + message));  // the message itself is unchanged
    CHECK(mail_test::crlf_only(signed_all));
    CHECK(mail_test::longest_line(signed_all) <= 78);
    CHECK(tag(signed_all, "a") == "rsa-sha256");
    CHECK(tag(signed_all, "c") == "relaxed/relaxed");
    CHECK(tag(signed_all, "d") == "example.test");
    CHECK(tag(signed_all, "s") == "s1");
    CHECK(tag(signed_all, "l").empty());
    CHECK(signed_fields(signed_all) == std::set<std::string>{"from", "to", "subject", "date", "message-id",
                                                             "reply-to", "mime-version", "content-type"});
    CHECK(signed_fields(signed_no_reply_to) == std::set<std::string>{"from", "to", "subject", "date",
                                                                     "message-id", "mime-version",
                                                                     "content-type"});
    CHECK(verify({signed_all, signed_no_reply_to}) == std::vector<bool>{true, true});
  }

  TEST_CASE(
      "a changed body or signed field fails verification; what relaxed canonicalization allows passes") {
    const std::string signed_message = sign(built(mail_test::sample_message()));
    const std::vector<std::string> changed = {
        replaced(signed_message, "Thanks for your order.", "Thanks for your 0rder."),
        replaced(signed_message, "Subject: Your receipt", "Subject: Your invoice"),
        replaced(signed_message, "<zoe@dest.test>", "<eve@dest.test>"),
    };
    CHECK(verify(changed) == std::vector<bool>{false, false, false});
    const std::vector<std::string> allowed = {
        replaced(signed_message, "X-Mail-Log-Id: ml_01hf3k2v9q", "X-Mail-Log-Id: rewritten"),  // not signed
        "Received: from relay.test\r\n" + signed_message,  // added on the way
        replaced(signed_message, "Subject: Your receipt", "Subject:   Your\r\n\treceipt"),  // refolded
    };
    CHECK(verify(allowed) == std::vector<bool>{true, true, true});
  }

  TEST_CASE("signing from several threads at once: every signature verifies") {
    constexpr int kThreads = 4, kEach = 3;
    std::vector<std::vector<std::string>> results(kThreads);
    const DkimSigningKey key = signing_key();  // made here: a REQUIRE must not fail on another thread
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([t, &key, &results] {
        for (int i = 0; i < kEach; ++i) {
          native::mail::OutgoingMessage m = mail_test::sample_message();
          m.subject = "thread " + std::to_string(t) + " message " + std::to_string(i);
          auto bytes = native::mail::build_mime(m);
          auto signed_message = bytes.ok() ? native::mail::dkim_sign(*bytes, key) : bytes;
          results[t].push_back(signed_message.ok() ? *signed_message
                                                   : "failed: " + signed_message.error().message);
        }
      });
    }
    for (auto& thread : threads) thread.join();
    std::vector<std::string> all;
    for (const auto& r : results) all.insert(all.end(), r.begin(), r.end());
    CHECK(verify(all) == std::vector<bool>(kThreads * kEach, true));
  }

  TEST_CASE("refused input: invalid_message for the message, invalid_key for the key") {
    const std::string message = built(mail_test::sample_message());
    auto code = [](std::string_view m, const DkimSigningKey& key) {
      auto r = native::mail::dkim_sign(m, key);
      return r.ok() ? std::string("ok") : r.error().code;
    };
    CHECK(code("From: a@example.test\nSubject: x\n\nbody\n", signing_key()) == "invalid_message");
    CHECK(code("Subject: no sender\r\n\r\nbody\r\n", signing_key()) == "invalid_message");
    CHECK(code(" folded first\r\nFrom: a@example.test\r\n\r\n", signing_key()) == "invalid_message");
    CHECK(code("From: a@example.test\r\nno colon here\r\n\r\n", signing_key()) == "invalid_message");

    DkimSigningKey key = signing_key();
    key.private_key_pem = "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n";
    CHECK(code(message, key) == "invalid_key");
    Pkey ec(EVP_EC_gen("P-256"));
    std::unique_ptr<BIO, decltype(&BIO_free)> pem(BIO_new(BIO_s_mem()), BIO_free);
    REQUIRE(PEM_write_bio_PrivateKey(pem.get(), ec.get(), nullptr, nullptr, 0, nullptr, nullptr) == 1);
    char* data = nullptr;
    const long size = BIO_get_mem_data(pem.get(), &data);
    key.private_key_pem.assign(data, static_cast<std::size_t>(size));
    CHECK(code(message, key) == "invalid_key");
    for (auto [domain, selector] : {std::pair{"example.test", "s 1"}, std::pair{"example.test", ""},
                                    std::pair{"localhost", "s1"}, std::pair{"", "s1"}}) {
      CAPTURE(domain);
      CAPTURE(selector);
      CHECK(code(message, {domain, selector, key_pair().private_key_pem}) == "invalid_key");
    }
  }
}
