// @platform/core/restaurant: the VAT split, business dates and the restaurant rules (expense amounts, item
// prices with options, order totals and payments, payables, income rows, shift cash counts, the expense CSV
// import) from the wasm module platform_restaurant (wasm/restaurant_module.cpp over core/restaurant/), so that
// the offline till computes exactly what the server stores.
//
//   import { loadRestaurant } from '@platform/core/restaurant';
//   const restaurant = await loadRestaurant();
//   restaurant.vatSplit(11800, 1800); // { ok: true, value: { grossMinor: 11800, netMinor: 10000, vatMinor: 1800 } }
//
// Structured arguments (order lines, payments, payables, an income row) are arrays of plain objects. Each
// member is type-checked here (a TypeError names it, as `lines[1].quantity`) and copied into a fresh object
// with only the documented members, which the module reads member by member (no JSON text crosses, so a
// number reaches the core exactly as given).
import { checkedRecord, checkedRecords, moduleLoader, requireStringArray, requireType } from './shared.js';

const ORDER_LINE = {
  lineId: 'string',
  productId: 'string',
  name: 'string',
  unitPriceMinor: 'number',
  quantity: 'number',
  vatRateBps: 'number',
};
const MENU_PRODUCT = { id: 'string', name: 'string', priceMinor: 'number', vatRateBps: 'number', active: 'boolean' };
const MENU_OPTION_GROUP = { id: 'string', name: 'string', minSelect: 'number', maxSelect: 'number' };
const MENU_OPTION = { id: 'string', name: 'string', priceDeltaMinor: 'number' };
const PAYMENT = { paymentId: 'string', amountMinor: 'number', method: 'string' };
const PAYABLE = { expenseId: 'string', dueDate: 'string', amountMinor: 'number' };
const INCOME = {
  businessDate: 'string',
  channel: 'string',
  grossMinor: 'number',
  commissionMinor: 'number',
  zReportMinor: 'number?',
};
const SHIFT_PAYMENT = { method: 'string', amountMinor: 'number' };

function wrap(wasm) {
  return {
    vatSplit(grossMinor, vatRateBps) {
      requireType(grossMinor, 'number', 'grossMinor');
      requireType(vatRateBps, 'number', 'vatRateBps');
      return wasm.vatSplit(grossMinor, vatRateBps);
    },
    businessDate(localDateTime, dayCutoffHour = 4) {
      requireType(localDateTime, 'string', 'localDateTime');
      requireType(dayCutoffHour, 'number', 'dayCutoffHour');
      return wasm.businessDate(localDateTime, dayCutoffHour);
    },
    addDays(dayKey, days) {
      requireType(dayKey, 'string', 'dayKey');
      requireType(days, 'number', 'days');
      return wasm.addDays(dayKey, days);
    },
    expenseAmounts(grossMinor, vatRateBps, isVatDeductible) {
      requireType(grossMinor, 'number', 'grossMinor');
      requireType(vatRateBps, 'number', 'vatRateBps');
      requireType(isVatDeductible, 'boolean', 'isVatDeductible');
      return wasm.expenseAmounts(grossMinor, vatRateBps, isVatDeductible);
    },
    priceItem(product, optionGroups, optionIds) {
      const checkedProduct = checkedRecord(product, MENU_PRODUCT, 'product', { active: true });
      if (!Array.isArray(optionGroups)) throw new TypeError('optionGroups must be an array');
      const checkedGroups = optionGroups.map((group, index) => {
        const copy = checkedRecord(group, MENU_OPTION_GROUP, `optionGroups[${index}]`, { minSelect: 0, maxSelect: 1 });
        copy.options = checkedRecords(group.options, MENU_OPTION, `optionGroups[${index}].options`);
        return copy;
      });
      requireStringArray(optionIds, 'optionIds');
      return wasm.priceItem(checkedProduct, checkedGroups, optionIds);
    },
    orderTotals(lines) {
      return wasm.orderTotals(checkedRecords(lines, ORDER_LINE, 'lines'));
    },
    orderBalance(lines, payments) {
      const checkedLines = checkedRecords(lines, ORDER_LINE, 'lines');
      return wasm.orderBalance(checkedLines, checkedRecords(payments, PAYMENT, 'payments'));
    },
    canPay(lines, payments, newPayment) {
      const checkedLines = checkedRecords(lines, ORDER_LINE, 'lines');
      const checkedPayments = checkedRecords(payments, PAYMENT, 'payments');
      return wasm.canPay(checkedLines, checkedPayments, checkedRecord(newPayment, PAYMENT, 'newPayment'));
    },
    canClose(lines, payments) {
      const checkedLines = checkedRecords(lines, ORDER_LINE, 'lines');
      return wasm.canClose(checkedLines, checkedRecords(payments, PAYMENT, 'payments'));
    },
    payableBucket(dueDate, today) {
      requireType(dueDate, 'string', 'dueDate');
      requireType(today, 'string', 'today');
      return wasm.payableBucket(dueDate, today);
    },
    groupPayables(payables, today) {
      const checked = checkedRecords(payables, PAYABLE, 'payables');
      requireType(today, 'string', 'today');
      return wasm.groupPayables(checked, today);
    },
    validateIncome(row, currentBusinessDate) {
      const checked = checkedRecord(row, INCOME, 'row', { commissionMinor: 0 });
      requireType(currentBusinessDate, 'string', 'currentBusinessDate');
      return wasm.validateIncome(checked, currentBusinessDate);
    },
    countShiftCash(openingFloatMinor, payments, countedCashMinor) {
      requireType(openingFloatMinor, 'number', 'openingFloatMinor');
      const checked = checkedRecords(payments, SHIFT_PAYMENT, 'payments');
      requireType(countedCashMinor, 'number', 'countedCashMinor');
      return wasm.countShiftCash(openingFloatMinor, checked, countedCashMinor);
    },
    parseExpenseCsv(text) {
      requireType(text, 'string', 'text');
      return wasm.parseExpenseCsv(text);
    },
  };
}

// Loads platform_restaurant (once per location) and answers the frozen API. Rejects with an Error naming the
// location when the module files cannot be loaded or compiled.
export const loadRestaurant = moduleLoader('platform_restaurant', wrap);

export default loadRestaurant;
