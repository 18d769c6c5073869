#include "core/id.h"

#include <doctest/doctest.h>

#include "counting_random.h"

#include <set>

TEST_CASE("ids carry their prefix and 96 random bits as 16 base64url characters") {
  testing::CountingRandom random;
  std::string id = core::make_id("cmp_", random);
  CHECK(id == "cmp_AAECAwQFBgcICQoL");
  CHECK(core::has_id_shape("cmp_", id));
  CHECK_FALSE(core::has_id_shape("usr_", id));
  CHECK_FALSE(core::has_id_shape("cmp_", "cmp_AAECAwQFBgcICQo"));   // one character short
  CHECK_FALSE(core::has_id_shape("cmp_", "cmp_AAECAwQFBgcICQo!"));  // outside the alphabet
  std::set<std::string> distinct;
  for (int i = 0; i < 10; ++i) distinct.insert(core::make_id("x_", random));
  CHECK(distinct.size() == 10);
}

TEST_CASE("time-ordered ids sort by the time they were made, then carry 96 random bits") {
  testing::CountingRandom random;
  // 2026-11-24T13:00:00Z = 1795957200000 ms = 0x1a227641480
  std::string id = core::make_time_ordered_id("fam_", 1795957200000, random);
  CHECK(id == "fam_01a227641480AAECAwQFBgcICQoL");
  CHECK(core::make_time_ordered_id("fam_", -5, random).substr(0, 16) == "fam_000000000000");
  // Later ids sort after earlier ones byte for byte, across a digit carry too.
  std::string a = core::make_time_ordered_id("fam_", 0xfff, random);
  std::string b = core::make_time_ordered_id("fam_", 0x1000, random);
  std::string c = core::make_time_ordered_id("fam_", 1795957200001, random);
  CHECK(a < b);
  CHECK(b < id);
  CHECK(id < c);
}
