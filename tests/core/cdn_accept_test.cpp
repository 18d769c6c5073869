// The CDN's Accept classes (core/cdn/accept.h, docs/storage-cdn.md).

#include <doctest/doctest.h>

#include "core/cdn/accept.h"

using core::cdn::accept_class;
using core::cdn::AcceptClass;

TEST_SUITE("cdn_accept") {
  TEST_CASE("the headers real browsers send") {
    // Chrome 120 and Edge
    CHECK(accept_class("image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8") ==
          AcceptClass::avif);
    // Firefox 120
    CHECK(accept_class("image/avif,image/webp,*/*") == AcceptClass::avif);
    // Safari 16
    CHECK(
        accept_class("image/webp,image/avif,image/jxl,image/heic,image/heic-sequence,video/*;q=0.8,image/png,"
                     "image/svg+xml,image/*;q=0.8,*/*;q=0.5") == AcceptClass::avif);
    // Firefox 65..92: WebP only
    CHECK(accept_class("image/webp,*/*") == AcceptClass::webp);
    // Safari 13: neither
    CHECK(accept_class("image/png,image/svg+xml,image/*;q=0.8,video/*;q=0.8,*/*;q=0.5") ==
          AcceptClass::legacy);
    // curl
    CHECK(accept_class("*/*") == AcceptClass::legacy);
    CHECK(accept_class("") == AcceptClass::legacy);
  }

  TEST_CASE("wildcards never select a modern format") {
    CHECK(accept_class("image/*") == AcceptClass::legacy);
    CHECK(accept_class("*/*;q=1") == AcceptClass::legacy);
    CHECK(accept_class("image/*, image/jpeg;q=0.5") == AcceptClass::legacy);
  }

  TEST_CASE("q=0 rules a format out") {
    CHECK(accept_class("image/avif;q=0, image/webp") == AcceptClass::webp);
    CHECK(accept_class("image/avif;q=0.000,image/webp;q=0") == AcceptClass::legacy);
    CHECK(accept_class("image/avif; q=0 ,*/*") == AcceptClass::legacy);
    CHECK(accept_class("image/avif;Q=0") == AcceptClass::legacy);
  }

  TEST_CASE("the higher q wins, a tie goes to AVIF") {
    CHECK(accept_class("image/avif;q=0.5, image/webp;q=0.9") == AcceptClass::webp);
    CHECK(accept_class("image/webp;q=0.9, image/avif;q=0.901") == AcceptClass::avif);
    CHECK(accept_class("image/webp;q=0.7, image/avif;q=0.7") == AcceptClass::avif);
    CHECK(accept_class("image/webp, image/avif;q=0.001") == AcceptClass::webp);
    CHECK(accept_class("image/avif;q=0.001") == AcceptClass::avif);
  }

  TEST_CASE("media ranges are matched without regard to case, whitespace or other parameters") {
    CHECK(accept_class("IMAGE/AVIF") == AcceptClass::avif);
    CHECK(accept_class("  image/WebP  ;  q=1.0  ") == AcceptClass::webp);
    CHECK(accept_class("text/html, image/avif;level=1;q=0.4") == AcceptClass::avif);
    CHECK(accept_class("image/avif;level=1;q=0") == AcceptClass::legacy);
    CHECK(accept_class("image/avif;q=0.8;ext=1") == AcceptClass::avif);
    CHECK(accept_class("image/avif\t;\tq=0") == AcceptClass::legacy);
  }

  TEST_CASE("a range named twice counts at its first occurrence") {
    CHECK(accept_class("image/avif;q=0, image/avif") == AcceptClass::legacy);
    CHECK(accept_class("image/avif, image/avif;q=0") == AcceptClass::avif);
  }

  TEST_CASE("subtypes that merely contain the name do not count") {
    CHECK(accept_class("image/avif-sequence") == AcceptClass::legacy);
    CHECK(accept_class("image/webpx, text/avif, avif") == AcceptClass::legacy);
    CHECK(accept_class("application/image/avif") == AcceptClass::legacy);
  }

  TEST_CASE("malformed elements are ignored, the rest still counts") {
    // q out of range or malformed: the element is dropped
    CHECK(accept_class("image/avif;q=2") == AcceptClass::legacy);
    CHECK(accept_class("image/avif;q=1.5") == AcceptClass::legacy);
    CHECK(accept_class("image/avif;q=0.1234") == AcceptClass::legacy);
    CHECK(accept_class("image/avif;q=.5") == AcceptClass::legacy);
    CHECK(accept_class("image/avif;q=-1") == AcceptClass::legacy);
    CHECK(accept_class("image/avif;q=") == AcceptClass::legacy);
    CHECK(accept_class("image/avif;q=0.5x, image/webp") == AcceptClass::webp);
    CHECK(accept_class("image/avif;q=1.000") == AcceptClass::avif);
    CHECK(accept_class("image/avif;q=1.") == AcceptClass::avif);
    // empty elements and stray separators
    CHECK(accept_class(",,, ;q=1, /, image/, /webp, image/webp,") == AcceptClass::webp);
    CHECK(accept_class("image/avif;;q=0.5") == AcceptClass::avif);
    CHECK(accept_class("image/avif;novalue;q=0") == AcceptClass::legacy);
  }

  TEST_CASE("class names") {
    CHECK(core::cdn::class_name(AcceptClass::avif) == "avif");
    CHECK(core::cdn::class_name(AcceptClass::webp) == "webp");
    CHECK(core::cdn::class_name(AcceptClass::legacy) == "legacy");
  }
}
