// VAT split through @platform/core (the wasm build of core/money.h), rule of spec/DECISIONS.md:
// vatMinor = round_half_up(grossMinor * bps / (10000 + bps)), netMinor = grossMinor - vatMinor.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import { loadPlatformCore } from '../../bindings/index.js';

let core;
before(async () => {
  core = await loadPlatformCore();
});

const split = (grossMinor, netMinor, vatMinor) => ({ ok: true, value: { grossMinor, netMinor, vatMinor } });

describe('vatSplit', () => {
  test('splits exact cases without rounding', () => {
    assert.deepEqual(core.vatSplit(11800, 1800), split(11800, 10000, 1800));
    assert.deepEqual(core.vatSplit(118, 1800), split(118, 100, 18));
    assert.deepEqual(core.vatSplit(10150, 150), split(10150, 10000, 150));
  });

  test('rounds the VAT half up', () => {
    assert.deepEqual(core.vatSplit(100, 2000), split(100, 83, 17)); // 16.67 -> 17
    assert.deepEqual(core.vatSplit(3, 2000), split(3, 2, 1)); // 0.5 exactly -> 1
    assert.deepEqual(core.vatSplit(1, 2000), split(1, 1, 0)); // 0.17 -> 0
    assert.deepEqual(core.vatSplit(12345, 800), split(12345, 11431, 914)); // 914.44 -> 914
    assert.deepEqual(core.vatSplit(1000, 150), split(1000, 985, 15)); // 14.78 -> 15
  });

  test('handles the ends of the rate and amount ranges', () => {
    assert.deepEqual(core.vatSplit(12345, 0), split(12345, 12345, 0));
    assert.deepEqual(core.vatSplit(0, 2000), split(0, 0, 0));
    assert.deepEqual(core.vatSplit(12345, 10000), split(12345, 6172, 6173)); // 6172.5 -> 6173
    // 10^15 at 20 %: 10^15 / 6 = 166666666666666.67 -> ...667, exact beyond 2^32.
    assert.deepEqual(core.vatSplit(1e15, 2000), split(1e15, 833333333333333, 166666666666667));
  });

  test('refuses a rate outside 0..10000 bps with vat_rate_invalid', () => {
    const result = core.vatSplit(100, 10001);
    assert.equal(result.ok, false);
    assert.equal(result.code, 'vat_rate_invalid');
    assert.equal(result.message, 'VAT rate must be an integer from 0 to 10000 basis points, got 10001');
    assert.equal(core.vatSplit(100, -1).code, 'vat_rate_invalid');
    assert.equal(core.vatSplit(100, 1.5).code, 'vat_rate_invalid');
    assert.equal(core.vatSplit(100, Number.NaN).code, 'vat_rate_invalid');
  });

  test('refuses an amount outside 0..10^15 or not an integer with invalid_amount', () => {
    assert.deepEqual(Object.keys(core.vatSplit(-1, 2000)).sort(), ['code', 'message', 'ok']);
    assert.equal(core.vatSplit(-1, 2000).code, 'invalid_amount');
    assert.equal(core.vatSplit(1e15 + 1, 2000).code, 'invalid_amount');
    assert.equal(core.vatSplit(10.5, 2000).code, 'invalid_amount');
    assert.equal(core.vatSplit(Number.POSITIVE_INFINITY, 2000).code, 'invalid_amount');
    assert.equal(core.vatSplit(2 ** 60, 2000).code, 'invalid_amount');
  });

  test('checks the rate before the amount, as the core does', () => {
    assert.equal(core.vatSplit(-1, 20000).code, 'vat_rate_invalid');
    assert.equal(core.vatSplit(10.5, 20000).code, 'vat_rate_invalid');
  });

  test('throws a TypeError for arguments that are not numbers', () => {
    assert.throws(() => core.vatSplit('100', 2000), { name: 'TypeError', message: 'grossMinor must be a number, got string' });
    assert.throws(() => core.vatSplit(100, null), { name: 'TypeError', message: 'vatRateBps must be a number, got null' });
    assert.throws(() => core.vatSplit(100n, 2000), TypeError);
  });
});
