// Random calls of the restaurant functions: menu pricing, order totals and payments, payables. Each
// generator takes a Random and answers the JS call's argument list.
import { MAX, MAX_SAFE, addDaysUtc, realDayOr } from './random.mjs';

// --- menu --------------------------------------------------------------------------------------------------

// A group's minSelect and maxSelect for `size` options: mostly a satisfiable pair, sometimes left out (the
// bindings' defaults 0 and 1), out of range, inconsistent, or not safe integers.
function counts(r, size) {
  const min = r.weighted([
    [10, () => 0],
    [5, () => Math.min(1, size)],
    [2, () => r.int(0, size + 1)],
    [3, () => undefined],
    [1, () => r.pick([-1, -5, 101, MAX_SAFE])],
    [1, () => r.unsafe()],
  ]);
  const low = Number.isSafeInteger(min) ? Math.max(1, min) : 1;
  const max = r.weighted([
    [10, () => low + r.int(0, 2)],
    [3, () => undefined],
    [1, () => r.int(0, 4)],
    [1, () => r.pick([0, -1, 101, MAX_SAFE])],
    [1, () => r.unsafe()],
  ]);
  return { min, max };
}

// One product with its option groups and a choice of option ids, mostly picks each group accepts.
// `unsafe`: product prices, rates and option deltas may be numbers that are not safe integers.
export function priceItemCall(r, { unsafe = false } = {}) {
  const product = {
    id: r.id('prd'),
    name: r.text(3),
    priceMinor: r.weighted([[10, () => r.int(0, 100_000)], [3, () => r.amount({ unsafe })]]),
    vatRateBps: r.rate({ unsafe }),
    active: r.weighted([[8, () => true], [1, () => false], [2, () => undefined]]),
  };
  const groups = [];
  const chosen = [];
  const ids = [];
  for (let g = r.int(0, 4); g > 0; g--) {
    const options = [];
    const size = r.weighted([[40, () => r.int(0, 6)], [1, () => r.pick([100, 101])]]);
    for (let o = 0; o < size; o++) {
      // Option ids are unique across the product's groups, but not always.
      const id = r.chance(0.97) || ids.length === 0 ? `opt_${groups.length}_${o}` : r.pick(ids);
      ids.push(id);
      const delta = r.weighted([[20, () => r.int(0, 500)], [1, () => r.amount({ unsafe })]]);
      options.push({ id, name: r.text(2), priceDeltaMinor: delta });
    }
    const { min, max } = counts(r, size);
    groups.push({ id: r.id('grp'), name: r.text(3), minSelect: min, maxSelect: max, options });
    // Picks for this group: within its bounds most of the time.
    const want = r.chance(0.8) && Number.isSafeInteger(min ?? 0)
      ? r.int(Math.max(0, min ?? 0), Math.max(0, Math.min(size, Number.isSafeInteger(max ?? 1) ? max ?? 1 : 1)))
      : r.int(0, 3);
    for (const option of options.slice().sort(() => r.next() - 0.5).slice(0, want)) chosen.push(option.id);
  }
  if (r.chance(0.1)) chosen.push(r.pick(['opt_unknown', r.text(2), ...ids.slice(0, 1)]));
  chosen.sort(() => r.next() - 0.5);
  return [product, groups, chosen];
}

export const priceItem = (r) => priceItemCall(r);
export const priceItemUnsafe = (r) => priceItemCall(r, { unsafe: true });

// --- orders ------------------------------------------------------------------------------------------------

function quantity(r, dirty) {
  return r.weighted([
    [30, () => r.int(1, 6)],
    [3, () => r.int(1, 100_000)],
    [dirty ? 2 : 0, () => r.pick([100_000, 100_001, 0, -1, 2 ** 31])],
    [dirty ? 1 : 0, () => r.unsafe()],
  ]);
}

function unitPrice(r, dirty) {
  return r.weighted([
    [40, () => r.int(0, 50_000)],
    [dirty ? 6 : 0, () => r.amount()],
    [1, () => r.int(9_000_000_000, 10_100_000_000)],
  ]);
}

function line(r, i, dirty) {
  return {
    lineId: r.chance(0.9) ? `ln_${i}` : r.text(3),
    productId: r.id('prd'),
    name: r.text(4),
    unitPriceMinor: unitPrice(r, dirty),
    quantity: quantity(r, dirty),
    vatRateBps: r.rate({ unsafe: dirty, invalid: dirty }),
  };
}

// An order of 0..10 lines. A third of the orders may hold refused values in any line (out of range or not
// safe integers); in some, every line is within bounds but the total is not.
export function lines(r) {
  const n = r.weighted([[2, () => 0], [20, () => r.int(1, 4)], [6, () => r.int(5, 10)]]);
  const dirty = r.chance(0.35);
  const out = [];
  for (let i = 0; i < n; i++) out.push(line(r, i, dirty));
  if (r.chance(0.04) && out.length > 2) {
    for (const item of out) Object.assign(item, { unitPriceMinor: 4e14 + r.int(0, 1000), quantity: 1, vatRateBps: 2000 });
  }
  return out;
}

function payment(r, dueHint, i) {
  const amountMinor = r.weighted([
    [10, () => r.int(1, Math.max(1, dueHint))],
    [3, () => dueHint],
    [2, () => dueHint + r.pick([1, -1])],
    [2, () => r.amount({ min: 1 })],
  ]);
  return { paymentId: r.chance(0.9) ? `pay_${i}` : r.text(2), amountMinor, method: r.pick(['cash', 'card', 'CASH', ' cash ', r.text(2)]) };
}

// The order's gross when it can be told from the lines (the test's own rough figure, only to aim payments).
function grossHint(orderLines) {
  let sum = 0;
  for (const l of orderLines) sum += Number.isFinite(l.unitPriceMinor * l.quantity) ? l.unitPriceMinor * l.quantity : 0;
  return Math.max(0, Math.min(sum, MAX));
}

function payments(r, orderLines) {
  const gross = grossHint(orderLines);
  const out = [];
  let left = gross;
  for (let i = r.weighted([[3, () => 0], [8, () => r.int(1, 2)], [2, () => r.int(3, 5)]]); i > 0; i--) {
    const p = payment(r, Math.max(1, Math.floor(left / 2)), out.length);
    out.push(p);
    if (Number.isFinite(p.amountMinor)) left -= p.amountMinor;
  }
  if (r.chance(0.02)) for (let i = 0; i < 3; i++) out.push({ paymentId: `big_${i}`, amountMinor: 4e14, method: 'card' });
  return { list: out, left: Math.max(0, left) };
}

export function orderTotals(r) {
  return [lines(r)];
}

export function orderBalance(r) {
  const orderLines = lines(r);
  return [orderLines, payments(r, orderLines).list];
}

export function canPay(r) {
  const orderLines = lines(r);
  const { list, left } = payments(r, orderLines);
  return [orderLines, list, payment(r, Math.max(1, left), list.length)];
}

export function canClose(r) {
  const orderLines = lines(r);
  const { list, left } = payments(r, orderLines);
  // Half the time pay the rest, so that closing succeeds as often as it is refused.
  if (r.chance(0.5) && left > 0) list.push({ paymentId: 'rest', amountMinor: left, method: 'card' });
  return [orderLines, list];
}

// --- payables ----------------------------------------------------------------------------------------------

export function payableBucket(r) {
  const today = r.dayKey('2026-01-29');
  const around = realDayOr(today, '2026-01-29');
  return [r.dayKey(around), today];
}

// Payables for `today`. Expense ids are unique within a call, as they are for stored expenses, unless
// `repeatIds`: then two items may share dueDate and expenseId (see the todo test of groupPayables).
function payablesCall(r, { repeatIds }) {
  const today = r.weighted([[20, () => r.dayKey('2026-01-29')], [1, () => r.pick(['2026-02-30', ''])]]);
  const around = realDayOr(today, '2026-01-29');
  const items = [];
  const used = new Set();
  const n = r.weighted([[2, () => 0], [10, () => r.int(1, 6)], [3, () => r.int(7, 14)]]);
  const huge = r.chance(0.04); // amounts of 10^15 each: the total passes 2^53 - 1 at the tenth
  for (let i = 0; i < n; i++) {
    let expenseId;
    do expenseId = r.weighted([[10, () => `exp_${r.int(0, 20)}`], [1, () => r.text(3)]]);
    while (!repeatIds && used.has(expenseId));
    used.add(expenseId);
    const dueDate = repeatIds && items.length && r.chance(0.3)
      ? r.pick(items).dueDate
      : r.weighted([[200, () => addDaysUtc(around, r.int(-70, 70))], [6, () => r.dayKey(around)], [1, () => 'bad']]);
    items.push({
      expenseId: repeatIds && items.length && r.chance(0.3) ? items.at(-1).expenseId : expenseId,
      dueDate,
      amountMinor: huge ? MAX : r.weighted([[20, () => r.int(0, 1_000_000)], [2, () => r.amount()]]),
    });
  }
  return [items, today];
}

export const groupPayables = (r) => payablesCall(r, { repeatIds: false });
export const groupPayablesRepeatedIds = (r) => payablesCall(r, { repeatIds: true });
