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
