#pragma once
// The menu: products with VAT-inclusive prices and shared option groups (docs/restaurant-orders.md), and the
// price of one ordered item with its chosen options. Like order.h this runs on the edge and in the offline
// till, so both price an item the same way.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/result.h"

namespace core::restaurant {

struct MenuOption {
  std::string id;
  std::string name;
  std::int64_t priceDeltaMinor = 0;  // VAT-inclusive surcharge, 0..kMaxAmountMinor
};

// A choice offered on several products ("Size", "Extras"): between minSelect and maxSelect options of it
// must be picked for each item of a product that uses it.
struct OptionGroup {
  std::string id;
  std::string name;
  std::int64_t minSelect = 0;
  std::int64_t maxSelect = 1;
  std::vector<MenuOption> options;
};

struct MenuProduct {
  std::string id;
  std::string name;
  std::int64_t priceMinor = 0;  // VAT-inclusive
  std::int64_t vatRateBps = 0;
  bool active = true;
};

// An option as chosen on an order line: a snapshot, so later menu edits leave the line alone.
struct ChosenOption {
  std::string groupId;
  std::string optionId;
  std::string name;
  std::int64_t priceDeltaMinor = 0;

  friend bool operator==(const ChosenOption&, const ChosenOption&) = default;
};

struct PricedItem {
  std::int64_t unitPriceMinor = 0;    // base price plus the chosen options' deltas
  std::vector<ChosenOption> options;  // in the order of the product's groups, then of each group's options
};

// Most options in one group; a guard against runaway payloads.
inline constexpr std::size_t kMaxGroupOptions = 100;

// Ok when a product can be sold: `invalid_amount` unless 0 <= priceMinor <= kMaxAmountMinor;
// `vat_rate_invalid` unless 0 <= vatRateBps <= 10000 (checked first).
Status validate_product(const MenuProduct& product);

// Ok when an option group can be satisfied. Errors (`invalid_field`, naming the member): minSelect < 0,
// maxSelect < 1, minSelect > maxSelect, minSelect above the number of options, more than kMaxGroupOptions
// options; `invalid_amount` for a delta outside 0..kMaxAmountMinor.
Status validate_option_group(const OptionGroup& group);

// The unit price of one item of `product` with the options `chosen` (option ids, in any order). `groups`
// are the product's option groups in the product's order. Checks, in order: `product_inactive`;
// `option_not_available` for an id that is in none of the groups, or that is listed twice;
// `invalid_option_count` when a group's picks fall outside minSelect..maxSelect (also a required group with
// no pick); `invalid_amount` when the price with deltas exceeds kMaxAmountMinor.
Result<PricedItem> price_item(const MenuProduct& product, std::span<const OptionGroup> groups,
                              std::span<const std::string> chosen);

}  // namespace core::restaurant
