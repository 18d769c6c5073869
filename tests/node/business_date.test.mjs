// Business dates through @platform/core (core/date.h): a branch's day runs from dayCutoffHour to
// dayCutoffHour (spec document 3: with the default cutoff 4, a sale at 02:30 belongs to the previous day).
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import { loadPlatformCore } from '../../bindings/index.js';

let core;
before(async () => {
  core = await loadPlatformCore();
});

describe('businessDate', () => {
  test('a sale at 02:30 with cutoff 4 belongs to the previous business day', () => {
    assert.deepEqual(core.businessDate('2026-03-15T02:30', 4), { ok: true, value: '2026-03-14' });
  });

  test('the cutoff hour itself starts the new business day', () => {
    assert.deepEqual(core.businessDate('2026-03-15T04:00', 4), { ok: true, value: '2026-03-15' });
    assert.deepEqual(core.businessDate('2026-03-15T03:59:59', 4), { ok: true, value: '2026-03-14' });
    assert.deepEqual(core.businessDate('2026-03-15T23:59', 4), { ok: true, value: '2026-03-15' });
  });

  test('the cutoff defaults to 4 and 0 makes the business date the calendar date', () => {
    assert.deepEqual(core.businessDate('2026-03-15T02:30'), { ok: true, value: '2026-03-14' });
    assert.deepEqual(core.businessDate('2026-03-15T00:00', 0), { ok: true, value: '2026-03-15' });
  });

  test('crosses month, year and leap-day boundaries', () => {
    assert.deepEqual(core.businessDate('2026-03-01T01:00', 4), { ok: true, value: '2026-02-28' });
    assert.deepEqual(core.businessDate('2028-03-01T01:00', 4), { ok: true, value: '2028-02-29' });
    assert.deepEqual(core.businessDate('2027-01-01T03:00', 4), { ok: true, value: '2026-12-31' });
  });

  test('refuses a cutoff outside 0..23 with invalid_cutoff_hour', () => {
    assert.deepEqual(core.businessDate('2026-03-15T02:30', 24), {
      ok: false,
      code: 'invalid_cutoff_hour',
      message: 'dayCutoffHour must be from 0 to 23, got 24',
    });
    assert.equal(core.businessDate('2026-03-15T02:30', -1).code, 'invalid_cutoff_hour');
    assert.equal(core.businessDate('2026-03-15T02:30', 2.5).code, 'invalid_cutoff_hour');
    // The cutoff is checked first, as in the core.
    assert.equal(core.businessDate('not a date', 99).code, 'invalid_cutoff_hour');
  });

  test('refuses dates that are not calendar days with invalid_date', () => {
    assert.equal(core.businessDate('2026-02-29T10:00', 4).code, 'invalid_date');
    assert.equal(core.businessDate('2026-13-01T10:00', 4).code, 'invalid_date');
    assert.equal(core.businessDate('15.03.2026 02:30', 4).code, 'invalid_date');
  });

  test('refuses other shapes and impossible times with invalid_time', () => {
    const result = core.businessDate('2026-03-15', 4);
    assert.equal(result.ok, false);
    assert.equal(result.code, 'invalid_time');
    assert.match(result.message, /^'2026-03-15' is not a local date and time/);
    assert.equal(core.businessDate('2026-03-15 02:30', 4).code, 'invalid_time');
    assert.equal(core.businessDate('2026-03-15T2:30', 4).code, 'invalid_time');
    assert.equal(core.businessDate('2026-03-15T24:00', 4).code, 'invalid_time');
    assert.equal(core.businessDate('2026-03-15T12:60', 4).code, 'invalid_time');
    assert.equal(core.businessDate('2026-03-15T02:30Z', 4).code, 'invalid_time');
  });

  test('throws a TypeError for arguments of the wrong type', () => {
    assert.throws(() => core.businessDate(new Date(), 4), { name: 'TypeError', message: 'localDateTime must be a string, got object' });
    assert.throws(() => core.businessDate('2026-03-15T02:30', '4'), TypeError);
  });
});

describe('addDays', () => {
  test('moves across month ends and leap days', () => {
    assert.deepEqual(core.addDays('2026-03-01', -1), { ok: true, value: '2026-02-28' });
    assert.deepEqual(core.addDays('2028-02-28', 1), { ok: true, value: '2028-02-29' });
    assert.deepEqual(core.addDays('2026-12-31', 1), { ok: true, value: '2027-01-01' });
    assert.deepEqual(core.addDays('2026-03-15', 0), { ok: true, value: '2026-03-15' });
  });

  test('refuses bad keys, fractional counts and results beyond year 9999 with invalid_date', () => {
    assert.equal(core.addDays('2026-3-1', 1).code, 'invalid_date');
    assert.equal(core.addDays('2026-03-01', 0.5).code, 'invalid_date');
    assert.equal(core.addDays('9999-12-31', 1).code, 'invalid_date');
    assert.equal(core.addDays('0000-01-01', -1).code, 'invalid_date');
  });
});
