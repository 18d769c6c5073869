#include "core/restaurant/menu.h"

#include <algorithm>
#include <string>

#include "core/money.h"
#include "core/restaurant/amount_sum.h"

namespace core::restaurant {

Status validate_product(const MenuProduct& product) {
  CORE_TRY(validate_vat_rate_bps(product.vatRateBps));
  return validate_amount_minor(product.priceMinor, "priceMinor");
}

Status validate_option_group(const OptionGroup& group) {
  if (group.options.size() > kMaxGroupOptions)
    return make_error("invalid_field",
                      "field 'options' holds more than " + std::to_string(kMaxGroupOptions) + " options");
  if (group.minSelect < 0) return make_error("invalid_field", "field 'minSelect' must be at least 0");
  if (group.maxSelect < 1) return make_error("invalid_field", "field 'maxSelect' must be at least 1");
  if (group.minSelect > group.maxSelect)
    return make_error("invalid_field", "field 'minSelect' must not exceed 'maxSelect'");
  if (group.minSelect > static_cast<std::int64_t>(group.options.size()))
    return make_error("invalid_field", "field 'minSelect' exceeds the number of options");
  for (const MenuOption& option : group.options)
    CORE_TRY(validate_amount_minor(option.priceDeltaMinor, "priceDeltaMinor"));
  return {};
}

Result<PricedItem> price_item(const MenuProduct& product, std::span<const OptionGroup> groups,
                              std::span<const std::string> chosen) {
  if (!product.active) return make_error("product_inactive", "product '" + product.id + "' is not on sale");
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    if (std::find(chosen.begin(), chosen.begin() + static_cast<std::ptrdiff_t>(i), chosen[i]) !=
        chosen.begin() + static_cast<std::ptrdiff_t>(i))
      return make_error("option_not_available", "option '" + chosen[i] + "' is listed twice");
    bool known = std::any_of(groups.begin(), groups.end(), [&](const OptionGroup& g) {
      return std::any_of(g.options.begin(), g.options.end(),
                         [&](const MenuOption& o) { return o.id == chosen[i]; });
    });
    if (!known)
      return make_error("option_not_available",
                        "option '" + chosen[i] + "' is not offered on product '" + product.id + "'");
  }
  PricedItem item;
  item.unitPriceMinor = product.priceMinor;
  for (const OptionGroup& group : groups) {
    std::int64_t picked = 0;
    for (const MenuOption& option : group.options) {
      if (std::find(chosen.begin(), chosen.end(), option.id) == chosen.end()) continue;
      ++picked;
      auto price = add_amount(item.unitPriceMinor, option.priceDeltaMinor, "the unit price with options");
      if (!price) return price.error();
      item.unitPriceMinor = *price;
      item.options.push_back(ChosenOption{group.id, option.id, option.name, option.priceDeltaMinor});
    }
    if (picked < group.minSelect || picked > group.maxSelect)
      return make_error("invalid_option_count", "option group '" + group.name + "' takes " +
                                                    std::to_string(group.minSelect) + " to " +
                                                    std::to_string(group.maxSelect) + " options, got " +
                                                    std::to_string(picked));
  }
  return item;
}

}  // namespace core::restaurant
