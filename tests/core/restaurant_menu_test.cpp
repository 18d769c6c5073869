#include "core/restaurant/menu.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/money.h"

using namespace core;
using namespace core::restaurant;

namespace {

OptionGroup size_group() {
  return OptionGroup{"opg_size", "Size", 1, 1, {{"opt_s", "Small", 0}, {"opt_l", "Large", 500}}};
}

OptionGroup extras_group() {
  return OptionGroup{"opg_extra",
                     "Extras",
                     0,
                     2,
                     {{"opt_cheese", "Cheese", 150}, {"opt_bacon", "Bacon", 250}, {"opt_egg", "Egg", 100}}};
}

MenuProduct burger() {
  return MenuProduct{"prd_b", "Burger", 12000, 1000, true};
}

Result<PricedItem> price(const std::vector<std::string>& chosen) {
  std::vector<OptionGroup> groups{size_group(), extras_group()};
  return price_item(burger(), groups, chosen);
}

}  // namespace

TEST_CASE("menu: the unit price is the base price plus the chosen options, in menu order") {
  auto item = price({"opt_bacon", "opt_l", "opt_cheese"});
  REQUIRE(item.ok());
  CHECK(item->unitPriceMinor == 12000 + 500 + 150 + 250);
  REQUIRE(item->options.size() == 3);
  CHECK(item->options[0] == ChosenOption{"opg_size", "opt_l", "Large", 500});
  CHECK(item->options[1] == ChosenOption{"opg_extra", "opt_cheese", "Cheese", 150});
  CHECK(item->options[2] == ChosenOption{"opg_extra", "opt_bacon", "Bacon", 250});

  auto plain = price({"opt_s"});
  REQUIRE(plain.ok());
  CHECK(plain->unitPriceMinor == 12000);
  CHECK(plain->options.size() == 1);

  // A product without groups takes no options.
  auto bare = price_item(burger(), {}, {});
  REQUIRE(bare.ok());
  CHECK(bare->unitPriceMinor == 12000);
  CHECK(bare->options.empty());
}

TEST_CASE("menu: option choices are checked against the product's groups") {
  CHECK(price({}).error().code == "invalid_option_count");                  // Size is required
  CHECK(price({"opt_s", "opt_l"}).error().code == "invalid_option_count");  // Size takes one
  CHECK(price({"opt_s", "opt_cheese", "opt_bacon", "opt_egg"}).error().code == "invalid_option_count");
  CHECK(price({"opt_s", "opt_nope"}).error().code == "option_not_available");
  CHECK(price({"opt_s", "opt_s"}).error().code == "option_not_available");
  CHECK(price_item(burger(), {}, std::vector<std::string>{"opt_s"}).error().code == "option_not_available");

  MenuProduct off = burger();
  off.active = false;
  CHECK(price_item(off, {}, {}).error().code == "product_inactive");

  MenuProduct dear = burger();
  dear.priceMinor = kMaxAmountMinor;
  std::vector<OptionGroup> groups{size_group()};
  CHECK(price_item(dear, groups, std::vector<std::string>{"opt_s"}).ok());
  CHECK(price_item(dear, groups, std::vector<std::string>{"opt_l"}).error().code == "invalid_amount");
}

TEST_CASE("menu: products and option groups are validated") {
  CHECK(validate_product(burger()).ok());
  CHECK(validate_product(MenuProduct{"p", "n", -1, 1000, true}).error().code == "invalid_amount");
  CHECK(validate_product(MenuProduct{"p", "n", 100, 10001, true}).error().code == "vat_rate_invalid");
  CHECK(validate_product(MenuProduct{"p", "n", -1, -1, true}).error().code == "vat_rate_invalid");
  CHECK(validate_product(MenuProduct{"p", "n", 0, 0, true}).ok());

  CHECK(validate_option_group(size_group()).ok());
  CHECK(validate_option_group(extras_group()).ok());
  OptionGroup g = size_group();
  g.minSelect = 2;
  CHECK(validate_option_group(g).error().code == "invalid_field");  // min > max
  g.maxSelect = 3;
  g.minSelect = 3;
  CHECK(validate_option_group(g).error().code == "invalid_field");  // min above the 2 options
  g = size_group();
  g.maxSelect = 0;
  g.minSelect = 0;
  CHECK(validate_option_group(g).error().code == "invalid_field");
  g = size_group();
  g.minSelect = -1;
  CHECK(validate_option_group(g).error().code == "invalid_field");
  g = size_group();
  g.options[1].priceDeltaMinor = -5;
  CHECK(validate_option_group(g).error().code == "invalid_amount");
  g = OptionGroup{"opg", "Many", 0, 1, std::vector<MenuOption>(kMaxGroupOptions + 1)};
  CHECK(validate_option_group(g).error().code == "invalid_field");
}
