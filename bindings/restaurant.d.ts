// Types of @platform/core/restaurant (restaurant.js): the VAT split, business dates and the restaurant rules,
// from the wasm module platform_restaurant. Error convention: types.d.ts.

import type { LoadOptions, Result } from './types.js';

export * from './types.js';

/** A VAT-inclusive amount split into net and VAT, in minor units; grossMinor === netMinor + vatMinor. */
export interface VatSplit {
  readonly grossMinor: number;
  readonly netMinor: number;
  readonly vatMinor: number;
}

/** `YYYY-MM-DD`, a calendar day. */
export type DayKey = string;

export interface ExpenseAmounts {
  readonly grossMinor: number;
  readonly netMinor: number;
  readonly vatMinor: number;
  readonly costMinor: number;
}

/** An order line as snapshotted when it was added. unitPriceMinor is VAT-inclusive; quantity 1..100000. */
export interface OrderLine {
  lineId: string;
  productId: string;
  name: string;
  unitPriceMinor: number;
  quantity: number;
  vatRateBps: number;
}

/** A product as the menu API shows it (VAT-inclusive price). `active` defaults to true. */
export interface MenuProduct {
  id: string;
  name: string;
  priceMinor: number;
  vatRateBps: number;
  active?: boolean;
}

/** One option of an option group; priceDeltaMinor is a VAT-inclusive surcharge, 0..10^15. */
export interface MenuOption {
  id: string;
  name: string;
  priceDeltaMinor: number;
}

/** An option group as the menu API shows it; minSelect defaults to 0, maxSelect to 1. */
export interface MenuOptionGroup {
  id: string;
  name: string;
  minSelect?: number;
  maxSelect?: number;
  options: readonly MenuOption[];
}

/** What an order line snapshots of its chosen options. */
export interface ChosenOption {
  groupId: string;
  optionId: string;
  name: string;
  priceDeltaMinor: number;
}

/** The unit price of one item with its options, and the options in menu order. */
export interface PricedItem {
  unitPriceMinor: number;
  options: ChosenOption[];
}

/** A payment on an order; amountMinor 1..10^15. paymentId and method are carried, not interpreted. */
export interface OrderPayment {
  paymentId: string;
  amountMinor: number;
  method: string;
}

/** One line's gross (unit price x quantity) split at its rate. */
export interface LineTotals {
  readonly lineId: string;
  readonly grossMinor: number;
  readonly netMinor: number;
  readonly vatMinor: number;
}

/** Sums of the per-line splits (so the VAT may differ from the VAT of the order gross); lines in input order. */
export interface OrderTotals {
  readonly grossMinor: number;
  readonly netMinor: number;
  readonly vatMinor: number;
  readonly items: readonly LineTotals[];
}

/** dueMinor = max(0, gross - paid); overpaidMinor = max(0, paid - gross) (a line removed after a payment). */
export interface OrderBalance {
  readonly totals: OrderTotals;
  readonly paidMinor: number;
  readonly dueMinor: number;
  readonly overpaidMinor: number;
}

/** Why order lines are refused. */
export type OrderLineErrorCode = 'invalid_quantity' | 'vat_rate_invalid' | 'invalid_amount';

/** The payables board's groups, in this order. */
export type PayableBucket = 'overdue' | 'thisWeek' | 'thisMonth' | 'later';

/** An unpaid expense with a due date; amountMinor is its grossMinor (0..10^15). */
export interface Payable {
  expenseId: string;
  dueDate: DayKey;
  amountMinor: number;
}

export interface PayableGroup {
  readonly key: PayableBucket;
  /** By dueDate, then expenseId. */
  readonly items: readonly Readonly<Payable>[];
  readonly totalMinor: number;
}

/** A daily income row (one per branch x business day x channel) as entered. */
export interface IncomeInput {
  businessDate: DayKey;
  channel: string;
  grossMinor: number;
  /** Default 0. */
  commissionMinor?: number;
  /** The till's Z report; null or absent when unknown. */
  zReportMinor?: number | null;
}

/** A valid income row: channel trimmed, netMinor = gross - commission, zReportDiffMinor = gross - Z report. */
export interface IncomeRow {
  readonly businessDate: DayKey;
  readonly channel: string;
  readonly grossMinor: number;
  readonly commissionMinor: number;
  readonly zReportMinor: number | null;
  readonly netMinor: number;
  readonly zReportDiffMinor: number | null;
}

/** A payment taken during a shift; only method `cash` (any ASCII case, surrounding spaces) fills the drawer. */
export interface ShiftPayment {
  method: string;
  amountMinor: number;
}

/** expectedCashMinor = opening float + cash payments; differenceMinor = counted - expected (negative: short). */
export interface ShiftCashCount {
  readonly openingFloatMinor: number;
  readonly cashPaymentsMinor: number;
  readonly expectedCashMinor: number;
  readonly countedCashMinor: number;
  readonly differenceMinor: number;
}

/** A valid data row of an expense CSV import; category and vendor as written (a name or an id). */
export interface ExpenseCsvRow {
  /** 1-based data row (the first record after the header is row 1; blank lines keep their number). */
  readonly row: number;
  readonly category: string;
  readonly vendor: string | null;
  readonly accrualDate: DayKey;
  readonly dueDate: DayKey | null;
  /** The paidAt cell normalised to UTC with milliseconds (`2026-02-01T10:00:00.000Z`); null when unpaid. */
  readonly paidAt: string | null;
  readonly paymentMethod: string;
  readonly isVatDeductible: boolean;
  readonly vatRateBps: number;
  readonly grossMinor: number;
  readonly netMinor: number;
  readonly vatMinor: number;
  readonly costMinor: number;
}

/** One problem of one bad row; column is a header name, or '' for an error about the whole row. */
export interface CsvRowError {
  readonly row: number;
  readonly column: string;
  readonly code:
    | 'invalid_row'
    | 'missing_field'
    | 'invalid_date'
    | 'invalid_amount'
    | 'vat_rate_invalid'
    | 'invalid_timestamp'
    | 'invalid_field';
  readonly message: string;
}

export interface ExpenseCsvImport {
  /** The good rows, in file order. */
  readonly rows: readonly ExpenseCsvRow[];
  /** Every problem of every bad row, by row then column order. */
  readonly errors: readonly CsvRowError[];
  /** Data rows, blank lines not counted. */
  readonly total: number;
  /** Rows with at least one error. */
  readonly failed: number;
}

export interface PlatformRestaurant {
  /**
   * Splits a VAT-inclusive gross: vatMinor = round_half_up(grossMinor * vatRateBps / (10000 + vatRateBps)),
   * netMinor = grossMinor - vatMinor. Exact integer arithmetic.
   * Errors: `vat_rate_invalid` unless vatRateBps is an integer 0..10000 (checked first);
   * `invalid_amount` unless grossMinor is an integer 0..10^15.
   * @example vatSplit(100, 2000) // { ok: true, value: { grossMinor: 100, netMinor: 83, vatMinor: 17 } }
   */
  vatSplit(grossMinor: number, vatRateBps: number): Result<VatSplit, 'vat_rate_invalid' | 'invalid_amount'>;

  /**
   * The restaurant business date of a local wall-clock time `YYYY-MM-DDTHH:MM` or `YYYY-MM-DDTHH:MM:SS`
   * (an HTML datetime-local value, already in the branch's time zone): a time before `dayCutoffHour`
   * (default 4) belongs to the previous day.
   * Errors: `invalid_cutoff_hour` unless dayCutoffHour is an integer 0..23 (checked first); `invalid_date`
   * for a date that is not a real calendar day or not `YYYY-MM-DD`; `invalid_time` for another shape or a
   * time outside 00:00:00..23:59:59.
   * @example businessDate('2026-03-15T02:30', 4) // { ok: true, value: '2026-03-14' }
   */
  businessDate(
    localDateTime: string,
    dayCutoffHour?: number,
  ): Result<DayKey, 'invalid_cutoff_hour' | 'invalid_date' | 'invalid_time'>;

  /**
   * The day `days` after `dayKey` (before it when negative).
   * Errors: `invalid_date` for a bad day key, a non-integer `days`, or a result outside 0000-01-01..9999-12-31.
   * @example addDays('2028-02-28', 1) // { ok: true, value: '2028-02-29' }
   */
  addDays(dayKey: DayKey, days: number): Result<DayKey, 'invalid_date'>;

  // --- Restaurant rules (core/restaurant/): the offline till computes what the server stores. --------------
  // Array arguments hold plain objects; a member of the wrong type throws a TypeError naming it
  // (`lines[1].quantity must be a number, got string`). A number that is not a safe integer fails with the code
  // of its member, in the order the core checks (an earlier refused line or payment is reported first).

  /**
   * The amounts of an expense: its VAT split (as vatSplit) and the cost reports count.
   * Errors: `vat_rate_invalid` (checked first), `invalid_amount` (gross outside 0..10^15).
   * @example expenseAmounts(11800, 1800, false) // { ok: true, value: { grossMinor: 11800, netMinor: 10000, vatMinor: 1800, costMinor: 11800 } }
   */
  expenseAmounts(
    grossMinor: number,
    vatRateBps: number,
    isVatDeductible: boolean,
  ): Result<ExpenseAmounts, 'vat_rate_invalid' | 'invalid_amount'>;

  /**
   * The unit price of one item of `product` with the chosen option ids (any order): the base price plus the
   * deltas, exactly as the server snapshots it on the order line. `optionGroups` are the product's groups in
   * the product's order.
   * Errors: `vat_rate_invalid`, `invalid_amount` (a product price or delta outside 0..10^15), `invalid_field`
   * (a group that cannot be satisfied), `product_inactive`, `option_not_available` (an id in none of the
   * groups, or listed twice), `invalid_option_count` (picks outside minSelect..maxSelect), `invalid_amount`
   * (price with deltas above 10^15).
   */
  priceItem(
    product: MenuProduct,
    optionGroups: readonly MenuOptionGroup[],
    optionIds: readonly string[],
  ): Result<
    PricedItem,
    'vat_rate_invalid' | 'invalid_amount' | 'invalid_field' | 'product_inactive' | 'option_not_available' | 'invalid_option_count'
  >;

  /**
   * Per-line VAT splits (line gross = unitPriceMinor x quantity, split once) and their sums. An empty order
   * totals 0.
   * Errors: the first refused line's: `invalid_quantity` (not 1..100000), `vat_rate_invalid`, `invalid_amount`
   * (unit price or line gross outside 0..10^15); `invalid_amount` when the order gross exceeds 10^15.
   */
  orderTotals(lines: readonly OrderLine[]): Result<OrderTotals, OrderLineErrorCode>;

  /**
   * Totals, the paid sum and what is still due.
   * Errors: as orderTotals; `invalid_amount` for a payment outside 1..10^15 or a paid sum above 10^15.
   */
  orderBalance(lines: readonly OrderLine[], payments: readonly OrderPayment[]): Result<OrderBalance, OrderLineErrorCode>;

  /**
   * null when `newPayment` may be taken on the order (core validate_new_payment): no tips or change through
   * payments, so a payment covers at most what is still due.
   * Errors: as orderBalance for the lines and the existing payments; then `invalid_amount` (not 1..10^15) and
   * `payment_exceeds_due` (more than dueMinor, including any payment when nothing is due).
   */
  canPay(
    lines: readonly OrderLine[],
    payments: readonly OrderPayment[],
    newPayment: OrderPayment,
  ): Result<null, OrderLineErrorCode | 'payment_exceeds_due'>;

  /**
   * null when the payments cover the order (dueMinor 0; an empty or overpaid order can close).
   * Errors: as orderBalance; `order_not_paid` with the amount due in the message.
   */
  canClose(lines: readonly OrderLine[], payments: readonly OrderPayment[]): Result<null, OrderLineErrorCode | 'order_not_paid'>;

  /**
   * The payables group of a due date, `today` being the branch's local calendar date: `overdue` before today,
   * `thisWeek` up to the Sunday ending today's ISO week, `thisMonth` up to the end of today's month, `later`.
   * Errors: `invalid_date` (dueDate checked first; the message starts with the argument's name).
   * @example payableBucket('2026-02-01', '2026-01-29') // { ok: true, value: 'thisWeek' }
   */
  payableBucket(dueDate: DayKey, today: DayKey): Result<PayableBucket, 'invalid_date'>;

  /**
   * All four groups, always in the order overdue, thisWeek, thisMonth, later; items by dueDate then
   * expenseId; totalMinor sums amountMinor.
   * Errors: `invalid_date` for today, then per item `invalid_date` (dueDate) and `invalid_amount` (amountMinor
   * outside 0..10^15); `invalid_amount` when all amounts together exceed 2^53 - 1, which no JS number holds
   * exactly.
   */
  groupPayables(payables: readonly Payable[], today: DayKey): Result<readonly PayableGroup[], 'invalid_date' | 'invalid_amount'>;

  /**
   * Validates an income row against the branch's current business date (businessDate of its local time now
   * with its dayCutoffHour) and derives netMinor and zReportDiffMinor.
   * Errors, in this order: `invalid_date` (row.businessDate, then currentBusinessDate); `business_date_in_future`;
   * `invalid_field` (channel empty after trimming or over 64 characters); `invalid_amount` (grossMinor,
   * commissionMinor, zReportMinor outside 0..10^15); `commission_exceeds_gross`.
   */
  validateIncome(
    row: IncomeInput,
    currentBusinessDate: DayKey,
  ): Result<IncomeRow, 'invalid_date' | 'business_date_in_future' | 'invalid_field' | 'invalid_amount' | 'commission_exceeds_gross'>;

  /**
   * The cash the drawer should hold at the shift's close and how far the count is from it; non-cash payments
   * are left out whatever their amount.
   * Errors: `invalid_amount` (opening float, counted cash, then cash payments outside 0..10^15, or an
   * expected sum above 10^15).
   * @example countShiftCash(20000, [{ method: 'cash', amountMinor: 4500 }], 24000) // differenceMinor -500
   */
  countShiftCash(
    openingFloatMinor: number,
    payments: readonly ShiftPayment[],
    countedCashMinor: number,
  ): Result<ShiftCashCount, 'invalid_amount'>;

  /**
   * Parses an expense CSV import (header `accrualDate,category,vendor,grossMinor,vatRateBps,dueDate,paidAt,
   * paymentMethod,isVatDeductible` in any order): the good rows and every problem of the bad ones.
   * Errors for the whole file: `invalid_csv` (malformed quoting; the message names the line),
   * `invalid_csv_header` (empty file; a missing, unknown or repeated column).
   */
  parseExpenseCsv(text: string): Result<ExpenseCsvImport, 'invalid_csv' | 'invalid_csv_header'>;
}

/**
 * Loads platform_restaurant (once per location) and returns its API. Rejects with an Error naming the
 * location when the module files cannot be loaded or compiled.
 */
export function loadRestaurant(options?: LoadOptions): Promise<PlatformRestaurant>;

export default loadRestaurant;
