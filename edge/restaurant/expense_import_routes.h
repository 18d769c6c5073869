#pragma once
// POST /expenses/import (docs/restaurant-expenses.md), registered by register_expenses.

namespace edge {
struct App;
}

namespace edge::restaurant {
void register_expense_import(App& app);
}  // namespace edge::restaurant
