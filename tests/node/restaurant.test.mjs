// The restaurant rules through @platform/core (wasm/restaurant_module.cpp over core/restaurant/): the offline
// till must compute what the server stores. The cases are those of tests/core/restaurant_*_test.cpp, so the
// native and the JavaScript results can be compared line by line; every figure is computed by hand with
// vatMinor = round_half_up(grossMinor * bps / (10000 + bps)).
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import { loadPlatformCore } from '../../bindings/index.js';

let core;
before(async () => {
  core = await loadPlatformCore();
});

const MAX = 1e15; // core::kMaxAmountMinor
const ok = (value) => ({ ok: true, value });
const line = (lineId, unitPriceMinor, quantity, vatRateBps) => ({
  lineId,
  productId: `prd_${unitPriceMinor}`,
  name: 'Item',
  unitPriceMinor,
  quantity,
  vatRateBps,
});
const pay = (paymentId, amountMinor, method) => ({ paymentId, amountMinor, method });
const split = (lineId, grossMinor, netMinor, vatMinor) => ({ lineId, grossMinor, netMinor, vatMinor });
// The order of the core test: 1000 x 1 at 20 % twice and 1050 x 2 at 10 %.
const threeLines = () => [line('l1', 1000, 1, 2000), line('l2', 1000, 1, 2000), line('l3', 1050, 2, 1000)];

function failure(result, code, message) {
  assert.equal(result.ok, false, JSON.stringify(result));
  assert.deepEqual(Object.keys(result).sort(), ['code', 'message', 'ok']);
  assert.equal(result.code, code, result.message);
  if (message !== undefined) assert.equal(result.message, message);
}

describe('expenseAmounts', () => {
  test('deductible VAT leaves the net as the cost; non-deductible VAT stays in the cost', () => {
    // 11800 at 18 %: 11800 * 1800 / 11800 = 1800 exactly.
    assert.deepEqual(core.expenseAmounts(11800, 1800, true), ok({ grossMinor: 11800, netMinor: 10000, vatMinor: 1800, costMinor: 10000 }));
    assert.deepEqual(core.expenseAmounts(11800, 1800, false), ok({ grossMinor: 11800, netMinor: 10000, vatMinor: 1800, costMinor: 11800 }));
    // 1000 at 8 %: 1000 * 800 / 10800 = 74.07 -> 74.
    assert.deepEqual(core.expenseAmounts(1000, 800, true), ok({ grossMinor: 1000, netMinor: 926, vatMinor: 74, costMinor: 926 }));
    assert.deepEqual(core.expenseAmounts(0, 2000, false), ok({ grossMinor: 0, netMinor: 0, vatMinor: 0, costMinor: 0 }));
    // 10^15 at 20 %: 166666666666666.67 -> ...667, not deductible.
    assert.deepEqual(core.expenseAmounts(MAX, 2000, false), ok({ grossMinor: MAX, netMinor: 833333333333333, vatMinor: 166666666666667, costMinor: MAX }));
  });

  test('error codes, the rate first', () => {
    failure(core.expenseAmounts(100, 10001, true), 'vat_rate_invalid', 'VAT rate must be an integer from 0 to 10000 basis points, got 10001');
    failure(core.expenseAmounts(-1, 2000, true), 'invalid_amount');
    failure(core.expenseAmounts(MAX + 1, 2000, true), 'invalid_amount');
    failure(core.expenseAmounts(-1, -1, true), 'vat_rate_invalid');
  });

  test('numbers that are not safe integers fail with their argument\'s code, in the core\'s order', () => {
    failure(core.expenseAmounts(10.5, 2000, true), 'invalid_amount', 'grossMinor must be an integer from 0 to 1000000000000000 minor units');
    failure(core.expenseAmounts(2 ** 60, 2000, true), 'invalid_amount');
    failure(core.expenseAmounts(100, Number.NaN, true), 'vat_rate_invalid', 'VAT rate must be an integer from 0 to 10000 basis points');
    // An out-of-range rate is reported before an unusable gross, as the core checks the rate first.
    failure(core.expenseAmounts(10.5, 20000, true), 'vat_rate_invalid', 'VAT rate must be an integer from 0 to 10000 basis points, got 20000');
  });

  test('throws a TypeError for arguments of the wrong type', () => {
    assert.throws(() => core.expenseAmounts('100', 2000, true), { name: 'TypeError', message: 'grossMinor must be a number, got string' });
    assert.throws(() => core.expenseAmounts(100, 2000, 'true'), { name: 'TypeError', message: 'isVatDeductible must be a boolean, got string' });
    assert.throws(() => core.expenseAmounts(100, 2000), { name: 'TypeError', message: 'isVatDeductible must be a boolean, got undefined' });
  });
});

describe('orderTotals', () => {
  test('order VAT is the sum of per-line VAT, not the VAT of the total', () => {
    // l1, l2: round(1000 * 2000 / 12000) = round(166.67) = 167, net 833.
    // l3: 1050 x 2 = 2100 at 10 %: round(2100 * 1000 / 11000) = round(190.91) = 191, net 1909.
    assert.deepEqual(core.orderTotals(threeLines()), ok({
      grossMinor: 4100,
      netMinor: 3575,
      vatMinor: 525, // 167 + 167 + 191
      items: [split('l1', 1000, 833, 167), split('l2', 1000, 833, 167), split('l3', 2100, 1909, 191)],
    }));
    // The two 20 % lines alone: 334 VAT, while the VAT of the 2000 total is round(333.33) = 333.
    assert.equal(core.orderTotals([line('l1', 1000, 1, 2000), line('l2', 1000, 1, 2000)]).value.vatMinor, 334);
    assert.equal(core.vatSplit(2000, 2000).value.vatMinor, 333);
  });

  test('a line\'s gross is unit price times quantity, split once', () => {
    // 7 x 3 = 21 at 20 %: 21 * 2000 / 12000 = 3.5 -> 4 (half up).
    assert.deepEqual(core.orderTotals([line('l', 7, 3, 2000)]).value.items, [split('l', 21, 17, 4)]);
    assert.deepEqual(core.orderTotals([line('l', 500, 1, 0)]).value.items, [split('l', 500, 500, 0)]);
    assert.deepEqual(core.orderTotals([line('l', 0, 2, 800)]).value.items, [split('l', 0, 0, 0)]);
    assert.deepEqual(core.orderTotals([]), ok({ grossMinor: 0, netMinor: 0, vatMinor: 0, items: [] }));
  });

  test('invalid lines are refused with their codes', () => {
    failure(core.orderTotals([line('l', 100, 0, 2000)]), 'invalid_quantity', 'quantity must be a whole number from 1 to 100000');
    failure(core.orderTotals([line('l', 100, -1, 2000)]), 'invalid_quantity');
    failure(core.orderTotals([line('l', 100, 100001, 2000)]), 'invalid_quantity');
    assert.equal(core.orderTotals([line('l', 100, 100000, 2000)]).ok, true);
    failure(core.orderTotals([line('l', 100, 1, 10001)]), 'vat_rate_invalid');
    failure(core.orderTotals([line('l', 100, 1, -1)]), 'vat_rate_invalid');
    failure(core.orderTotals([line('l', -1, 1, 2000)]), 'invalid_amount');
    assert.equal(core.orderTotals([line('l', MAX, 1, 2000)]).ok, true);
    failure(core.orderTotals([line('l', MAX, 2, 2000)]), 'invalid_amount', 'the line total exceeds the largest accepted amount');
    failure(core.orderTotals([line('l1', 100, 1, 2000), line('l2', 100, 0, 2000)]), 'invalid_quantity');
    failure(core.orderTotals([line('l1', MAX, 1, 0), line('l2', 1, 1, 0)]), 'invalid_amount', 'the order total exceeds the largest accepted amount');
  });

  test('numbers that are not safe integers fail with the member\'s code, in the core\'s order', () => {
    failure(core.orderTotals([line('l', 100, 1.5, 2000)]), 'invalid_quantity', 'quantity must be a whole number from 1 to 100000');
    failure(core.orderTotals([line('l', 100, 1, 0.5)]), 'vat_rate_invalid', 'VAT rate must be an integer from 0 to 10000 basis points');
    failure(core.orderTotals([line('l', 2 ** 60, 1, 2000)]), 'invalid_amount', 'unitPriceMinor must be an integer from 0 to 1000000000000000 minor units');
    failure(core.orderTotals([line('l', Number.NaN, 1, 2000)]), 'invalid_amount');
    // Within a line: quantity, then rate, then unit price.
    failure(core.orderTotals([line('l', 10.5, 0, 2000)]), 'invalid_quantity');
    failure(core.orderTotals([line('l', 10.5, 1, 20000)]), 'vat_rate_invalid', 'VAT rate must be an integer from 0 to 10000 basis points, got 20000');
    // An earlier refused line comes first.
    failure(core.orderTotals([line('l1', 100, 0, 2000), line('l2', 10.5, 1, 2000)]), 'invalid_quantity');
    failure(core.orderTotals([line('l1', MAX, 1, 0), line('l2', 1, 1, 0), line('l3', 1, 1.5, 0)]), 'invalid_amount', 'the order total exceeds the largest accepted amount');
  });

  test('throws a TypeError for lines of the wrong shape', () => {
    assert.throws(() => core.orderTotals('[]'), { name: 'TypeError', message: 'lines must be an array, got string' });
    assert.throws(() => core.orderTotals([null]), { name: 'TypeError', message: 'lines[0] must be an object, got null' });
    assert.throws(() => core.orderTotals([line('l1', 100, 1, 0), { ...line('l2', 100, 1, 0), quantity: '2' }]), {
      name: 'TypeError',
      message: 'lines[1].quantity must be a number, got string',
    });
    const { name: _, ...nameless } = line('l', 100, 1, 0);
    assert.throws(() => core.orderTotals([nameless]), { name: 'TypeError', message: 'lines[0].name must be a string, got undefined' });
    assert.throws(() => core.orderTotals([{ ...line('l', 100, 1, 0), unitPriceMinor: 100n }]), TypeError);
  });
});

describe('orderBalance, canPay, canClose', () => {
  test('payments reduce the due; one above the due is refused; the order closes when covered', () => {
    const lines = threeLines();
    const open = core.orderBalance(lines, []);
    assert.equal(open.ok, true);
    assert.deepEqual(open.value.totals, core.orderTotals(lines).value);
    assert.deepEqual({ ...open.value, totals: undefined }, { totals: undefined, paidMinor: 0, dueMinor: 4100, overpaidMinor: 0 });
    failure(core.canClose(lines, []), 'order_not_paid', 'the order still has 4100 minor units due');
    assert.deepEqual(core.canPay(lines, [], pay('pay_1', 1500, 'card')), ok(null));

    const part = [pay('pay_1', 1500, 'card')];
    const partBalance = core.orderBalance(lines, part).value;
    assert.equal(partBalance.paidMinor, 1500);
    assert.equal(partBalance.dueMinor, 2600); // 4100 - 1500
    failure(core.canClose(lines, part), 'order_not_paid', 'the order still has 2600 minor units due');
    failure(core.canPay(lines, part, pay('pay_2', 2601, 'cash')), 'payment_exceeds_due', 'amountMinor 2601 exceeds the amount due 2600');
    assert.deepEqual(core.canPay(lines, part, pay('pay_2', 2600, 'cash')), ok(null));

    const paid = [pay('pay_1', 1500, 'card'), pay('pay_2', 2600, 'cash')];
    const paidBalance = core.orderBalance(lines, paid).value;
    assert.deepEqual([paidBalance.paidMinor, paidBalance.dueMinor, paidBalance.overpaidMinor], [4100, 0, 0]);
    assert.deepEqual(core.canClose(lines, paid), ok(null));
    failure(core.canPay(lines, paid, pay('pay_3', 1, 'cash')), 'payment_exceeds_due');
  });

  test('an empty order totals zero and can close', () => {
    assert.deepEqual(core.orderBalance([], []), ok({
      totals: { grossMinor: 0, netMinor: 0, vatMinor: 0, items: [] },
      paidMinor: 0,
      dueMinor: 0,
      overpaidMinor: 0,
    }));
    assert.deepEqual(core.canClose([], []), ok(null));
    failure(core.canPay([], [], pay('p', 1, 'cash')), 'payment_exceeds_due');
  });

  test('removing a line after a payment leaves the order overpaid but closable', () => {
    // 500 at 8 %: 500 * 800 / 10800 = 37.04 -> 37. Paid 1500: overpaid 1000.
    const lines = [line('l2', 500, 1, 800)];
    const payments = [pay('p', 1500, 'cash')];
    assert.deepEqual(core.orderBalance(lines, payments), ok({
      totals: { grossMinor: 500, netMinor: 463, vatMinor: 37, items: [split('l2', 500, 463, 37)] },
      paidMinor: 1500,
      dueMinor: 0,
      overpaidMinor: 1000,
    }));
    assert.deepEqual(core.canClose(lines, payments), ok(null));
  });

  test('payment amounts must be whole positive minor units', () => {
    const lines = [line('l1', 1000, 1, 2000)];
    failure(core.canPay(lines, [], pay('p', 0, 'card')), 'invalid_amount', 'amountMinor must be at least 1');
    failure(core.canPay(lines, [], pay('p', -5, 'card')), 'invalid_amount');
    failure(core.canPay(lines, [], pay('p', MAX + 1, 'card')), 'invalid_amount');
    failure(core.canPay(lines, [], pay('p', 0.5, 'card')), 'invalid_amount', 'amountMinor must be an integer from 1 to 1000000000000000 minor units');
    failure(core.orderBalance([], [pay('p', 0, 'x')]), 'invalid_amount');
    failure(core.orderBalance(lines, [pay('p', Number.POSITIVE_INFINITY, 'x')]), 'invalid_amount', 'amountMinor must be an integer from 1 to 1000000000000000 minor units');
    failure(core.canClose(lines, [pay('p', 100.25, 'x')]), 'invalid_amount');
    // The lines are checked before the payments, and earlier payments before later ones.
    failure(core.orderBalance([line('l', 100, 0, 0)], [pay('p', 0.5, 'x')]), 'invalid_quantity');
    failure(core.orderBalance(lines, [pay('p1', 0, 'x'), pay('p2', 0.5, 'x')]), 'invalid_amount', 'amountMinor must be at least 1');
    // A bad existing payment is reported before the new one.
    failure(core.canPay(lines, [pay('p1', -1, 'x')], pay('p2', 1, 'x')), 'invalid_amount', 'amountMinor must be at least 1');
  });

  test('throws a TypeError for payments of the wrong shape', () => {
    const lines = [line('l1', 1000, 1, 2000)];
    assert.throws(() => core.orderBalance(lines), { name: 'TypeError', message: 'payments must be an array, got undefined' });
    assert.throws(() => core.orderBalance(lines, [{ paymentId: 'p', amountMinor: '10', method: 'cash' }]), {
      name: 'TypeError',
      message: 'payments[0].amountMinor must be a number, got string',
    });
    assert.throws(() => core.canPay(lines, [], { paymentId: 'p', amountMinor: 10 }), {
      name: 'TypeError',
      message: 'newPayment.method must be a string, got undefined',
    });
    assert.throws(() => core.canPay(lines, [], [pay('p', 1, 'cash')]), { name: 'TypeError', message: 'newPayment must be an object, got array' });
    assert.throws(() => core.canClose(lines, null), { name: 'TypeError', message: 'payments must be an array, got null' });
  });
});

describe('payableBucket and groupPayables', () => {
  const bucket = (due, today) => {
    const result = core.payableBucket(due, today);
    assert.equal(result.ok, true, JSON.stringify(result));
    return result.value;
  };

  test('a week that runs into the next month stays whole; thisMonth is then empty', () => {
    // Thursday 2026-01-29; the week ends Sunday 2026-02-01.
    assert.equal(bucket('2026-01-28', '2026-01-29'), 'overdue');
    assert.equal(bucket('2026-01-29', '2026-01-29'), 'thisWeek');
    assert.equal(bucket('2026-01-31', '2026-01-29'), 'thisWeek');
    assert.equal(bucket('2026-02-01', '2026-01-29'), 'thisWeek');
    assert.equal(bucket('2026-02-02', '2026-01-29'), 'later');
    // Wednesday 2026-12-30: the week ends Sunday 2027-01-03, across the year.
    assert.equal(bucket('2027-01-03', '2026-12-30'), 'thisWeek');
    assert.equal(bucket('2027-01-04', '2026-12-30'), 'later');
    assert.equal(bucket('2026-12-31', '2026-12-30'), 'thisWeek');
  });

  test('on a Sunday the week is just today; Monday starts thisMonth', () => {
    assert.equal(bucket('2026-01-18', '2026-01-18'), 'thisWeek');
    assert.equal(bucket('2026-01-19', '2026-01-18'), 'thisMonth');
    assert.equal(bucket('2026-01-31', '2026-01-18'), 'thisMonth');
    // Monday 2026-02-23: week to Sunday 2026-03-01 (February 2026 has 28 days).
    assert.equal(bucket('2026-02-28', '2026-02-23'), 'thisWeek');
    assert.equal(bucket('2026-03-01', '2026-02-23'), 'thisWeek');
    assert.equal(bucket('2026-02-22', '2026-02-23'), 'overdue');
    // Monday 2026-02-02: the week ends the 8th, February the 28th.
    assert.equal(bucket('2026-02-09', '2026-02-02'), 'thisMonth');
    assert.equal(bucket('2026-02-28', '2026-02-02'), 'thisMonth');
    assert.equal(bucket('2026-03-01', '2026-02-02'), 'later');
  });

  test('day keys that are not real days are invalid_date, the due date first', () => {
    failure(core.payableBucket('2026-02-29', '2026-01-01'), 'invalid_date');
    assert.match(core.payableBucket('2026-02-29', '2026-01-01').message, /^dueDate: /);
    assert.match(core.payableBucket('2026-01-01', '2026-1-1').message, /^today: /);
    assert.match(core.payableBucket('x', 'y').message, /^dueDate: /);
    assert.throws(() => core.payableBucket(new Date(), '2026-01-01'), { name: 'TypeError', message: 'dueDate must be a string, got object' });
  });

  test('payables group by due date relative to today (a Wednesday mid-month)', () => {
    // 2026-01-14 is a Wednesday; its ISO week ends Sunday 2026-01-18; January ends on the 31st.
    const p = (expenseId, dueDate, amountMinor) => ({ expenseId, dueDate, amountMinor });
    const items = [
      p('e6', '2026-02-01', 600), p('e5', '2026-01-31', 500), p('e4', '2026-01-19', 400),
      p('e3', '2026-01-18', 300), p('e2', '2026-01-14', 200), p('e1', '2026-01-13', 100),
      p('e0', '2025-12-31', 50), p('e7', '2026-01-14', 1),
    ];
    assert.deepEqual(core.groupPayables(items, '2026-01-14'), ok([
      { key: 'overdue', items: [p('e0', '2025-12-31', 50), p('e1', '2026-01-13', 100)], totalMinor: 150 },
      { key: 'thisWeek', items: [p('e2', '2026-01-14', 200), p('e7', '2026-01-14', 1), p('e3', '2026-01-18', 300)], totalMinor: 501 },
      { key: 'thisMonth', items: [p('e4', '2026-01-19', 400), p('e5', '2026-01-31', 500)], totalMinor: 900 },
      { key: 'later', items: [p('e6', '2026-02-01', 600)], totalMinor: 600 },
    ]));
  });

  test('all four groups are present when there is nothing to pay', () => {
    assert.deepEqual(core.groupPayables([], '2026-01-14'), ok([
      { key: 'overdue', items: [], totalMinor: 0 },
      { key: 'thisWeek', items: [], totalMinor: 0 },
      { key: 'thisMonth', items: [], totalMinor: 0 },
      { key: 'later', items: [], totalMinor: 0 },
    ]));
  });

  test('inputs are checked: today, then each item\'s due date and amount', () => {
    const item = (dueDate, amountMinor) => ({ expenseId: 'e', dueDate, amountMinor });
    failure(core.groupPayables([item('bad', 1)], '2026-02-30'), 'invalid_date');
    assert.match(core.groupPayables([item('bad', 1)], '2026-02-30').message, /^today: /);
    failure(core.groupPayables([item('2026-01-01', 1), item('2026-13-01', 1)], '2026-01-14'), 'invalid_date');
    assert.match(core.groupPayables([item('2026-01-01', 1), item('2026-13-01', 1)], '2026-01-14').message, /^payables\[1\]\.dueDate: /);
    failure(core.groupPayables([item('2026-01-01', -1)], '2026-01-14'), 'invalid_amount',
      'payables[0].amountMinor must be an integer from 0 to 1000000000000000 minor units, got -1');
    failure(core.groupPayables([item('2026-01-01', 1.5)], '2026-01-14'), 'invalid_amount',
      'payables[0].amountMinor must be an integer from 0 to 1000000000000000 minor units');
    failure(core.groupPayables([item('2026-01-01', MAX + 1)], '2026-01-14'), 'invalid_amount');
  });

  test('totals stay exact JavaScript numbers: nine amounts of 10^15 pass, ten are refused', () => {
    const many = (count) => Array.from({ length: count }, (_, i) => ({ expenseId: `e${i}`, dueDate: '2026-01-01', amountMinor: MAX }));
    assert.equal(core.groupPayables(many(9), '2026-01-14').value[0].totalMinor, 9e15);
    failure(core.groupPayables(many(10), '2026-01-14'), 'invalid_amount', 'the payables total exceeds 2^53 - 1 minor units');
  });

  test('throws a TypeError for payables of the wrong shape', () => {
    assert.throws(() => core.groupPayables([{ expenseId: 'e', dueDate: '2026-01-01' }], '2026-01-14'), {
      name: 'TypeError',
      message: 'payables[0].amountMinor must be a number, got undefined',
    });
    assert.throws(() => core.groupPayables([], 20260114), { name: 'TypeError', message: 'today must be a string, got number' });
  });
});

describe('validateIncome', () => {
  const row = (businessDate, channel, grossMinor, commissionMinor, zReportMinor) => ({ businessDate, channel, grossMinor, commissionMinor, zReportMinor });
  const code = (input, today = '2026-03-10') => {
    const result = core.validateIncome(input, today);
    return result.ok ? 'ok' : result.code;
  };

  test('an income row derives net and the difference to the Z report', () => {
    assert.deepEqual(core.validateIncome(row('2026-03-10', '  dine-in ', 10000, 1500, 9800), '2026-03-10'), ok({
      businessDate: '2026-03-10',
      channel: 'dine-in',
      grossMinor: 10000,
      commissionMinor: 1500,
      zReportMinor: 9800,
      netMinor: 8500, // 10000 - 1500
      zReportDiffMinor: 200, // recorded 10000, the till counted 9800
    }));
    // Commission may equal gross; no Z report: null difference.
    assert.deepEqual(core.validateIncome(row('2026-02-28', 'takeaway', 500, 500, null), '2026-03-10'), ok({
      businessDate: '2026-02-28',
      channel: 'takeaway',
      grossMinor: 500,
      commissionMinor: 500,
      zReportMinor: null,
      netMinor: 0,
      zReportDiffMinor: null,
    }));
    assert.equal(core.validateIncome(row('2026-03-01', 'x', 100, 0, 130), '2026-03-10').value.zReportDiffMinor, -30);
    // commissionMinor defaults to 0 and zReportMinor to null, as in the API.
    assert.deepEqual(core.validateIncome({ businessDate: '2026-03-10', channel: 'bar', grossMinor: 700 }, '2026-03-10').value, {
      businessDate: '2026-03-10',
      channel: 'bar',
      grossMinor: 700,
      commissionMinor: 0,
      zReportMinor: null,
      netMinor: 700,
      zReportDiffMinor: null,
    });
  });

  test('income validation codes', () => {
    assert.equal(code(row('2026-03-11', 'dine-in', 100, 0)), 'business_date_in_future');
    assert.equal(code(row('2027-01-01', 'dine-in', 100, 0), '2026-12-31'), 'business_date_in_future');
    assert.equal(code(row('2026-12-31', 'dine-in', 100, 0), '2026-12-31'), 'ok');
    assert.equal(code(row('2026-03-10', ' \t ', 100, 0)), 'invalid_field');
    assert.equal(code(row('2026-03-10', '', 100, 0)), 'invalid_field');
    assert.equal(code(row('2026-03-10', 'a'.repeat(65), 100, 0)), 'invalid_field');
    assert.equal(code(row('2026-03-10', 'a'.repeat(64), 100, 0)), 'ok');
    // 64 x 'ş': 128 UTF-8 bytes, 64 characters.
    assert.equal(code(row('2026-03-10', 'ş'.repeat(64), 100, 0)), 'ok');
    assert.equal(code(row('2026-03-10', 'ş'.repeat(64) + 'a', 100, 0)), 'invalid_field');
    assert.equal(code(row('2026-03-10', 'dine-in', -1, 0)), 'invalid_amount');
    assert.equal(code(row('2026-03-10', 'dine-in', 100, -1)), 'invalid_amount');
    assert.equal(code(row('2026-03-10', 'dine-in', 100, 0, -1)), 'invalid_amount');
    assert.equal(code(row('2026-03-10', 'dine-in', MAX + 1, 0)), 'invalid_amount');
    assert.equal(code(row('2026-03-10', 'delivery', 100, 101)), 'commission_exceeds_gross');
    failure(core.validateIncome(row('2026-03-11', 'dine-in', 100, 0), '2026-03-10'), 'business_date_in_future',
      "businessDate 2026-03-11 is after the branch's current business date 2026-03-10");
  });

  test('day keys are invalid_date: the row\'s first, then the current business date', () => {
    failure(core.validateIncome(row('2026-02-29', 'x', 1, 0), '2026-03-10'), 'invalid_date');
    assert.match(core.validateIncome(row('2026-02-29', 'x', 1, 0), 'nope').message, /^businessDate: /);
    assert.match(core.validateIncome(row('2026-02-28', 'x', 1, 0), 'nope').message, /^currentBusinessDate: /);
  });

  test('numbers that are not safe integers fail as invalid_amount in the core\'s order', () => {
    failure(core.validateIncome(row('2026-03-10', 'x', 12.5, 0), '2026-03-10'), 'invalid_amount',
      'grossMinor must be an integer from 0 to 1000000000000000 minor units');
    failure(core.validateIncome(row('2026-03-10', 'x', 100, Number.NaN), '2026-03-10'), 'invalid_amount',
      'commissionMinor must be an integer from 0 to 1000000000000000 minor units');
    failure(core.validateIncome(row('2026-03-10', 'x', 100, 0, Number.POSITIVE_INFINITY), '2026-03-10'), 'invalid_amount',
      'zReportMinor must be an integer from 0 to 1000000000000000 minor units');
    // An out-of-range gross is checked before an unusable commission.
    failure(core.validateIncome(row('2026-03-10', 'x', -1, 0.5), '2026-03-10'), 'invalid_amount',
      'grossMinor must be an integer from 0 to 1000000000000000 minor units, got -1');
    // The date and channel checks come before the amounts.
    assert.equal(code(row('2026-03-11', 'x', 0.5, 0)), 'business_date_in_future');
    assert.equal(code(row('2026-03-10', '', 0.5, 0)), 'invalid_field');
  });

  test('throws a TypeError for a row of the wrong shape', () => {
    assert.throws(() => core.validateIncome(null, '2026-03-10'), { name: 'TypeError', message: 'row must be an object, got null' });
    assert.throws(() => core.validateIncome({ businessDate: '2026-03-10', channel: 'x' }, '2026-03-10'), {
      name: 'TypeError',
      message: 'row.grossMinor must be a number, got undefined',
    });
    assert.throws(() => core.validateIncome(row('2026-03-10', 'x', 1, 0, '5'), '2026-03-10'), {
      name: 'TypeError',
      message: 'row.zReportMinor must be a number, got string',
    });
    assert.throws(() => core.validateIncome(row('2026-03-10', 7, 1, 0), '2026-03-10'), { name: 'TypeError', message: 'row.channel must be a string, got number' });
    assert.throws(() => core.validateIncome(row('2026-03-10', 'x', 1, 0)), { name: 'TypeError', message: 'currentBusinessDate must be a string, got undefined' });
  });
});

describe('countShiftCash', () => {
  const count = (openingFloatMinor, cashPaymentsMinor, expectedCashMinor, countedCashMinor, differenceMinor) =>
    ok({ openingFloatMinor, cashPaymentsMinor, expectedCashMinor, countedCashMinor, differenceMinor });
  const cash = (amountMinor, method = 'cash') => ({ method, amountMinor });

  test('expected cash is the opening float plus the cash payments; the difference is counted - expected', () => {
    // Cash 4500 + 1250 = 5750; the card payment stays out. Expected 25750; counted 25500: 250 short.
    const payments = [cash(4500), cash(9900, 'card'), cash(1250, ' Cash ')];
    assert.deepEqual(core.countShiftCash(20000, payments, 25500), count(20000, 5750, 25750, 25500, -250));
    assert.equal(core.countShiftCash(20000, payments, 25850).value.differenceMinor, 100);
    assert.deepEqual(core.countShiftCash(5000, [], 5000), count(5000, 0, 5000, 5000, 0));
    assert.equal(core.countShiftCash(0, [cash(5, 'CASH'), cash(7, '\tCash '), cash(11, 'cashback')], 0).value.cashPaymentsMinor, 12);
  });

  test('amounts outside 0..10^15 are invalid_amount; non-cash payments are not looked at', () => {
    failure(core.countShiftCash(-1, [], 0), 'invalid_amount');
    failure(core.countShiftCash(0, [], -5), 'invalid_amount');
    failure(core.countShiftCash(0, [cash(-10)], 0), 'invalid_amount');
    assert.equal(core.countShiftCash(0, [cash(-10, 'card')], 0).ok, true);
    failure(core.countShiftCash(1, [cash(MAX)], 0), 'invalid_amount', 'expected cash exceeds the largest accepted amount');
  });

  test('numbers that are not safe integers fail as invalid_amount in the core\'s order', () => {
    failure(core.countShiftCash(0.5, [], 0), 'invalid_amount', 'openingFloatMinor must be an integer from 0 to 1000000000000000 minor units');
    failure(core.countShiftCash(0, [], Number.NaN), 'invalid_amount', 'countedCashMinor must be an integer from 0 to 1000000000000000 minor units');
    failure(core.countShiftCash(-1, [], Number.NaN), 'invalid_amount', 'openingFloatMinor must be an integer from 0 to 1000000000000000 minor units, got -1');
    failure(core.countShiftCash(0, [cash(2 ** 60)], 0), 'invalid_amount', 'payment amount must be an integer from 0 to 1000000000000000 minor units');
    failure(core.countShiftCash(0, [cash(-1), cash(1.5)], 0), 'invalid_amount', 'payment amount must be an integer from 0 to 1000000000000000 minor units, got -1');
    assert.deepEqual(core.countShiftCash(100, [cash(1.5, 'card'), cash(50)], 150), count(100, 50, 150, 150, 0));
  });

  test('throws a TypeError for arguments of the wrong type', () => {
    assert.throws(() => core.countShiftCash('0', [], 0), { name: 'TypeError', message: 'openingFloatMinor must be a number, got string' });
    assert.throws(() => core.countShiftCash(0, [{ method: 'cash' }], 0), { name: 'TypeError', message: 'payments[0].amountMinor must be a number, got undefined' });
    assert.throws(() => core.countShiftCash(0, [], null), { name: 'TypeError', message: 'countedCashMinor must be a number, got null' });
  });
});

describe('parseExpenseCsv', () => {
  const header = 'accrualDate,category,vendor,grossMinor,vatRateBps,dueDate,paidAt,paymentMethod,isVatDeductible\r\n';
  const errorKeys = (result) => result.value.errors.map((e) => `${e.row}:${e.column}:${e.code}`);

  test('good and bad rows side by side', () => {
    const csv = header +
      // row 1: good, quoted vendor with a comma and an escaped quote, 18 %, unpaid with due
      '2026-01-31,Food,"Metro, ""Cash & Carry""",11800,1800,2026-02-15,,,\r\n' +
      // row 2: bad amount (decimal) and bad rate
      '2026-01-31,Food,,118.00,0.18,,,,\r\n' +
      // row 3: blank line: skipped but counted in the numbering
      '\r\n' +
      // row 4: good, paid by card, VAT not deductible
      '2026-02-01, Rent ,Landlord,50000,2000,,2026-02-01T10:00:00Z,card,false\r\n' +
      // row 5: missing category, invalid date, paidAt without a zone, bad flag
      '2026-02-30,,,100,800,,2026-02-01T10:00:00,,maybe\r\n' +
      // row 6: too few fields
      '2026-02-01,Food,100\r\n';
    const result = core.parseExpenseCsv(csv);
    assert.equal(result.ok, true);
    assert.equal(result.value.total, 5);
    assert.equal(result.value.failed, 3);
    assert.deepEqual(result.value.rows, [
      {
        row: 1,
        category: 'Food',
        vendor: 'Metro, "Cash & Carry"',
        accrualDate: '2026-01-31',
        dueDate: '2026-02-15',
        paidAt: null,
        paymentMethod: 'cash',
        isVatDeductible: true,
        vatRateBps: 1800,
        grossMinor: 11800,
        netMinor: 10000,
        vatMinor: 1800,
        costMinor: 10000,
      },
      {
        // 50000 at 20 %: 8333.33 -> 8333, net 41667; not deductible: cost = gross.
        row: 4,
        category: 'Rent',
        vendor: 'Landlord',
        accrualDate: '2026-02-01',
        dueDate: null,
        paidAt: '2026-02-01T10:00:00.000Z',
        paymentMethod: 'card',
        isVatDeductible: false,
        vatRateBps: 2000,
        grossMinor: 50000,
        netMinor: 41667,
        vatMinor: 8333,
        costMinor: 50000,
      },
    ]);
    assert.deepEqual(errorKeys(result), [
      '2:grossMinor:invalid_amount',
      '2:vatRateBps:vat_rate_invalid',
      '5:accrualDate:invalid_date',
      '5:category:missing_field',
      '5:paidAt:invalid_timestamp',
      '5:isVatDeductible:invalid_field',
      '6::invalid_row',
    ]);
    for (const error of result.value.errors) {
      assert.deepEqual(Object.keys(error), ['row', 'column', 'code', 'message']);
      assert.equal(typeof error.message, 'string');
      assert.ok(error.message.length > 0);
    }
  });

  test('columns in any order, LF and a BOM', () => {
    const result = core.parseExpenseCsv('\uFEFFgrossMinor,vatRateBps,category,vendor,accrualDate,dueDate,paidAt,paymentMethod,isVatDeductible\n' +
      '1000,800,cat_abc,,2025-12-31,,,,TRUE\n');
    assert.deepEqual(result, ok({
      rows: [{
        row: 1,
        category: 'cat_abc',
        vendor: null,
        accrualDate: '2025-12-31',
        dueDate: null,
        paidAt: null,
        paymentMethod: 'cash',
        isVatDeductible: true,
        vatRateBps: 800,
        grossMinor: 1000,
        netMinor: 926, // 1000 * 800 / 10800 = 74.07 -> 74
        vatMinor: 74,
        costMinor: 926,
      }],
      errors: [],
      total: 1,
      failed: 0,
    }));
  });

  test('range errors per cell; paidAt with an offset is normalised to UTC', () => {
    const result = core.parseExpenseCsv(header + '2026-01-01,Food,,-5,10001,2026-01-32,,x,1\n' +
      '2026-01-01,Food,,1000000000000001,2000,,,,0\n' +
      '2026-01-02,Food,,100,0,,2026-02-10T12:30:00+03:00,,\n');
    assert.deepEqual(errorKeys(result), ['1:grossMinor:invalid_amount', '1:vatRateBps:vat_rate_invalid', '1:dueDate:invalid_date', '2:grossMinor:invalid_amount']);
    assert.equal(result.value.failed, 2);
    assert.equal(result.value.total, 3);
    assert.equal(result.value.rows.length, 1);
    assert.equal(result.value.rows[0].row, 3);
    assert.equal(result.value.rows[0].paidAt, '2026-02-10T09:30:00.000Z');
  });

  test('header errors refuse the whole file', () => {
    failure(core.parseExpenseCsv(''), 'invalid_csv_header');
    failure(core.parseExpenseCsv('accrualDate,category\n'), 'invalid_csv_header', "missing column 'vendor'");
    failure(core.parseExpenseCsv(header.slice(0, -2) + ',note\n'), 'invalid_csv_header', "unknown column 'note'");
    failure(core.parseExpenseCsv('accrualDate,accrualDate\n'), 'invalid_csv_header', "column 'accrualDate' appears twice");
    failure(core.parseExpenseCsv('AccrualDate\n'), 'invalid_csv_header');
    failure(core.parseExpenseCsv(header + '"unclosed\n'), 'invalid_csv');
    assert.deepEqual(core.parseExpenseCsv(header), ok({ rows: [], errors: [], total: 0, failed: 0 }));
  });

  test('throws a TypeError for text that is not a string', () => {
    assert.throws(() => core.parseExpenseCsv(new TextEncoder().encode(header)), { name: 'TypeError', message: 'text must be a string, got object' });
  });
});

test('priceItem prices an item with its options as the server snapshots the line', async () => {
  const core = await loadPlatformCore();
  const product = { id: 'prd_1', name: 'Tea', priceMinor: 2500, vatRateBps: 1000 };
  const groups = [
    { id: 'opg_size', name: 'Size', minSelect: 1, maxSelect: 1, options: [
      { id: 'opt_l', name: 'Large', priceDeltaMinor: 500 }, { id: 'opt_s', name: 'Small', priceDeltaMinor: 0 }] },
    { id: 'opg_extra', name: 'Extras', maxSelect: 2, options: [
      { id: 'opt_lemon', name: 'Lemon', priceDeltaMinor: 150 }, { id: 'opt_honey', name: 'Honey', priceDeltaMinor: 200 }] },
  ];
  assert.deepEqual(core.priceItem(product, groups, ['opt_honey', 'opt_l', 'opt_lemon']), {
    ok: true,
    value: {
      unitPriceMinor: 3350,
      options: [
        { groupId: 'opg_size', optionId: 'opt_l', name: 'Large', priceDeltaMinor: 500 },
        { groupId: 'opg_extra', optionId: 'opt_lemon', name: 'Lemon', priceDeltaMinor: 150 },
        { groupId: 'opg_extra', optionId: 'opt_honey', name: 'Honey', priceDeltaMinor: 200 },
      ],
    },
  });
  assert.equal(core.priceItem(product, groups, []).code, 'invalid_option_count');
  assert.equal(core.priceItem(product, groups, ['opt_l', 'opt_l']).code, 'option_not_available');
  assert.equal(core.priceItem(product, groups, ['opt_l', 'opt_unknown']).code, 'option_not_available');
  assert.equal(core.priceItem({ ...product, active: false }, groups, ['opt_l']).code, 'product_inactive');
  assert.equal(core.priceItem({ ...product, vatRateBps: 0.5 }, groups, ['opt_l']).code, 'vat_rate_invalid');
  assert.throws(() => core.priceItem(product, groups, 'opt_l'), TypeError);
  assert.throws(() => core.priceItem({ ...product, priceMinor: '1' }, groups, []), /product.priceMinor/);
});
