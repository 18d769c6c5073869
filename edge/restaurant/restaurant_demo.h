#pragma once
// Demo data for the restaurant back office (scripts/start.sh): two branches with tables, a small menu with an
// option group, expense categories and vendors, a week of daily income, expenses that make the payables board
// show every group, an open tab and a paid order. Written through the API's own handlers with the demo
// company's access token, so the demo data obeys every rule real data does.

#include <string>

#include "core/result.h"

namespace edge {
struct App;
namespace restaurant {

// Seeds the company `slug`; dates are relative to today's business date of each branch.
// Errors: the first request that fails, with its path and answer.
core::Status seed_restaurant_demo(App& app, const std::string& slug, const std::string& access_token);

}  // namespace restaurant
}  // namespace edge
