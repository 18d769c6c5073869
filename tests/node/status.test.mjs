// The status-page rules through @platform/core (wasm/status_module.cpp over core/status/): browser embeds and
// JS apps must compute what the server does. The cases are those of tests/core/status_webhook_test.cpp,
// status_component_test.cpp, status_probe_test.cpp and status_maintenance_test.cpp, so the native and the JavaScript results can be
// compared line by line.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { before, describe, test } from 'node:test';

import { loadPlatformCore } from '../../bindings/index.js';

let core;
before(async () => {
  core = await loadPlatformCore();
});

const ok = (value) => ({ ok: true, value });

function failure(result, code, message) {
  assert.equal(result.ok, false, JSON.stringify(result));
  assert.deepEqual(Object.keys(result).sort(), ['code', 'message', 'ok']);
  assert.equal(result.code, code, result.message);
  if (message !== undefined) assert.equal(result.message, message);
}

// printf '%s' '{"event":"incident.updated"}' | openssl dgst -sha256 -hmac 'mt_3kQ9'
const BODY = '{"event":"incident.updated"}';
const TOKEN = 'mt_3kQ9';
const SIGNATURE = 'sha256=7cf09f00645f5f0e057b089dae07e6e830dee3f00eb11b3b61376541ef4037f4';
// printf '%s' '' | openssl dgst -sha256 -hmac 'key'
const EMPTY_KEY = 'sha256=5d5d139563c95b5967b9bd9a8c9b233a9dedb45072794cd232dc1b74832607d0';

describe('signWebhook', () => {
  test('matches openssl', () => {
    assert.equal(core.signWebhook(BODY, TOKEN), SIGNATURE);
    assert.equal(core.signWebhook('', 'key'), EMPTY_KEY);
  });

  test('signs the UTF-8 bytes: a string and its bytes give the same signature, as node:crypto does', () => {
    const body = '{"name":"Café ☕ 😀"}';
    const expected = `sha256=${createHmac('sha256', TOKEN).update(Buffer.from(body, 'utf8')).digest('hex')}`;
    assert.equal(core.signWebhook(body, TOKEN), expected);
    assert.equal(core.signWebhook(Buffer.from(body, 'utf8'), TOKEN), expected);
    assert.equal(core.signWebhook(new TextEncoder().encode(body), new TextEncoder().encode(TOKEN)), expected);
    // A lone surrogate is sent as U+FFFD (EF BF BD) by fetch and Buffer.from; it is signed the same way.
    const lone = 'a\uD800b';
    assert.equal(core.signWebhook(lone, TOKEN), core.signWebhook('a\uFFFDb', TOKEN));
    assert.equal(core.signWebhook(lone, TOKEN), core.signWebhook(Buffer.from(lone), TOKEN));
    // Bytes that are not UTF-8 at all are signed as they are.
    const raw = Uint8Array.of(0xff, 0x00, 0xfe);
    assert.equal(core.signWebhook(raw, 'k'), `sha256=${createHmac('sha256', 'k').update(raw).digest('hex')}`);
  });

  test('wrong JavaScript types throw a TypeError', () => {
    assert.throws(() => core.signWebhook({ event: 'x' }, TOKEN), { name: 'TypeError', message: 'rawBody must be a string or a Uint8Array, got object' });
    assert.throws(() => core.signWebhook(BODY, null), { name: 'TypeError', message: 'secret must be a string or a Uint8Array, got null' });
    assert.throws(() => core.signWebhook(BODY), TypeError);
  });
});

describe('verifyWebhookSignature', () => {
  const code = (header, body = BODY, secret = TOKEN) => {
    const result = core.verifyWebhookSignature(header, body, secret);
    return result.ok ? '' : result.code;
  };

  test('accepts the right signature', () => {
    assert.deepEqual(core.verifyWebhookSignature(SIGNATURE, BODY, TOKEN), ok(null));
    assert.deepEqual(core.verifyWebhookSignature(EMPTY_KEY, '', 'key'), ok(null));
    assert.deepEqual(core.verifyWebhookSignature(SIGNATURE, Buffer.from(BODY), Buffer.from(TOKEN)), ok(null));
    const body = '{"name":"Café ☕"}';
    assert.deepEqual(core.verifyWebhookSignature(core.signWebhook(body, TOKEN), Buffer.from(body), TOKEN), ok(null));
  });

  test('invalid_signature: wrong body, wrong secret, one digit changed, empty secret', () => {
    failure(core.verifyWebhookSignature(SIGNATURE, `${BODY} `, TOKEN), 'invalid_signature', 'the signature does not match the body');
    assert.equal(code(SIGNATURE, BODY, 'mt_3kQ8'), 'invalid_signature');
    assert.equal(code(`${SIGNATURE.slice(0, -1)}5`), 'invalid_signature');
    failure(core.verifyWebhookSignature(core.signWebhook(BODY, ''), BODY, ''), 'invalid_signature', 'no signing secret');
  });

  test('malformed_signature: the strict form, checked before the secret', () => {
    const digest = SIGNATURE.slice('sha256='.length);
    failure(
      core.verifyWebhookSignature(`sha256=7C${digest.slice(2)}`, BODY, TOKEN),
      'malformed_signature',
      'the signature must be sha256= and 64 lower-case hex digits',
    );
    for (const header of [
      `sha256=${digest.toUpperCase()}`,
      `SHA256=${digest}`,
      `sha1=${digest}`,
      `${SIGNATURE} `,
      ` ${SIGNATURE}`,
      SIGNATURE.slice(0, 70),
      `${SIGNATURE}0`,
      digest,
      `sha256:${digest}`,
      `sha256=${digest.slice(0, -2)}g4`,
      '',
    ]) {
      assert.equal(code(header), 'malformed_signature', header);
    }
    assert.equal(code('sha256=', BODY, ''), 'malformed_signature');
  });

  test('wrong JavaScript types throw a TypeError', () => {
    assert.throws(() => core.verifyWebhookSignature(null, BODY, TOKEN), { name: 'TypeError', message: 'headerValue must be a string, got null' });
    assert.throws(() => core.verifyWebhookSignature(SIGNATURE, JSON.parse(BODY), TOKEN), { name: 'TypeError', message: /^rawBody must be/ });
    assert.throws(() => core.verifyWebhookSignature(SIGNATURE, BODY, 42), { name: 'TypeError', message: /^secret must be/ });
  });
});

describe('componentStatus', () => {
  const of = (checks, maintenance = false) => core.componentStatus(checks, maintenance);

  test('from its checks, the first matching rule winning', () => {
    assert.deepEqual(of(['operational', 'operational']), ok('operational'));
    assert.deepEqual(of(['operational', 'no-data']), ok('operational'));
    assert.deepEqual(of(['operational', 'degraded', 'no-data']), ok('degraded'));
    assert.deepEqual(of(['degraded', 'down', 'operational']), ok('down'));
    assert.deepEqual(of(['no-data', 'down']), ok('down'));
    assert.deepEqual(of(['no-data', 'no-data']), ok('no-data'));
    assert.deepEqual(of([]), ok('no-data'));
    // Maintenance hides everything, even a down check or no checks at all.
    assert.deepEqual(of(['down', 'degraded'], true), ok('maintenance'));
    assert.deepEqual(of([], true), ok('maintenance'));
    assert.deepEqual(of(['operational'], true), ok('maintenance'));
  });

  test('invalid_status for anything but a check wire name, the entry named', () => {
    failure(of(['operational', 'maintenance']), 'invalid_status', 'checkStatuses[1]: unknown check status');
    failure(of(['no_data']), 'invalid_status');
    failure(of(['Down']), 'invalid_status');
    failure(of(['']), 'invalid_status');
    // Checked even under maintenance.
    failure(of(['up'], true), 'invalid_status');
  });

  test('wrong JavaScript types throw a TypeError', () => {
    assert.throws(() => core.componentStatus(['down', 1], false), { name: 'TypeError', message: 'checkStatuses must be an array of strings' });
    assert.throws(() => core.componentStatus('down', false), TypeError);
    assert.throws(() => core.componentStatus(['down']), { name: 'TypeError', message: 'inMaintenance must be a boolean, got undefined' });
  });
});

describe('pageStatus', () => {
  test('the worst component: down > degraded > maintenance > operational, no-data ignored', () => {
    assert.deepEqual(core.pageStatus([]), ok('no-data'));
    assert.deepEqual(core.pageStatus(['no-data', 'no-data']), ok('no-data'));
    assert.deepEqual(core.pageStatus(['no-data', 'operational']), ok('operational'));
    assert.deepEqual(core.pageStatus(['operational', 'maintenance']), ok('maintenance'));
    assert.deepEqual(core.pageStatus(['maintenance', 'no-data']), ok('maintenance'));
    assert.deepEqual(core.pageStatus(['maintenance', 'degraded', 'operational']), ok('degraded'));
    assert.deepEqual(core.pageStatus(['down', 'maintenance', 'degraded']), ok('down'));
    assert.deepEqual(core.pageStatus(['degraded', 'down']), ok('down'));
    assert.deepEqual(core.pageStatus(['operational']), ok('operational'));
  });

  test('invalid_status, the entry named', () => {
    failure(core.pageStatus(['down', 'outage']), 'invalid_status', 'componentStatuses[1]: unknown component status');
    failure(core.pageStatus(['no_data']), 'invalid_status');
    assert.throws(() => core.pageStatus([null]), { name: 'TypeError', message: 'componentStatuses must be an array of strings' });
  });
});

describe('classifyProbe', () => {
  const response = (httpStatus, latencyMs, bodyContainsExpected = true) => ({
    transport: 'response',
    httpStatus,
    latencyMs,
    bodyContainsExpected,
  });
  const verdict = (status, reason) => ok({ status, reason });
  const settingsCode = (settings) => {
    const result = core.classifyProbe(settings, response(200, 1));
    return result.ok ? '' : result.code;
  };

  test('with the default settings (200..299, timeout 10000, degraded over 2000, no body rule)', () => {
    const s = {};
    assert.deepEqual(core.classifyProbe(s, response(200, 120)), verdict('operational', 'ok'));
    assert.deepEqual(core.classifyProbe(s, response(299, 2000)), verdict('operational', 'ok'));
    assert.deepEqual(core.classifyProbe(s, response(204, 2001)), verdict('degraded', 'slow'));
    assert.deepEqual(core.classifyProbe(s, response(200, 10000)), verdict('degraded', 'slow'));
    assert.deepEqual(core.classifyProbe(s, response(200, 10001)), verdict('down', 'timeout'));
    assert.deepEqual(core.classifyProbe(s, response(199, 5)), verdict('down', 'unexpected_status'));
    assert.deepEqual(core.classifyProbe(s, response(300, 5)), verdict('down', 'unexpected_status'));
    assert.deepEqual(core.classifyProbe(s, response(503, 5)), verdict('down', 'unexpected_status'));
    // Without a body rule the body flag is ignored.
    assert.deepEqual(core.classifyProbe(s, response(200, 5, false)), verdict('operational', 'ok'));

    assert.deepEqual(core.classifyProbe(s, { transport: 'timeout', latencyMs: 10000 }), verdict('down', 'timeout'));
    assert.deepEqual(core.classifyProbe(s, { transport: 'error', httpStatus: 0, latencyMs: 3 }), verdict('down', 'transport_error'));
    // A transport error wins over every other reading, even a status that looks fine.
    assert.deepEqual(
      core.classifyProbe(s, { transport: 'error', httpStatus: 200, latencyMs: 20000, bodyContainsExpected: true }),
      verdict('down', 'transport_error'),
    );
    // Members set to null take the defaults too.
    assert.deepEqual(
      core.classifyProbe({ method: null, timeoutMs: null, expectedBodyContains: null }, response(204, 2001)),
      verdict('degraded', 'slow'),
    );
  });

  test('a body rule, and the order of the reasons', () => {
    const body = { expectedBodyContains: '"ok":true' };
    assert.deepEqual(core.classifyProbe(body, response(200, 5, true)), verdict('operational', 'ok'));
    assert.deepEqual(core.classifyProbe(body, response(200, 5, false)), verdict('down', 'body_mismatch'));
    // A missing body string is down even when slow; a wrong status is reported before the body.
    assert.deepEqual(core.classifyProbe(body, response(200, 3000, false)), verdict('down', 'body_mismatch'));
    assert.deepEqual(core.classifyProbe(body, response(500, 5, false)), verdict('down', 'unexpected_status'));
    // Timeout is reported before the status.
    assert.deepEqual(core.classifyProbe(body, response(500, 10001, false)), verdict('down', 'timeout'));

    const redirect = { expectedStatusMin: 301, expectedStatusMax: 302 };
    assert.deepEqual(core.classifyProbe(redirect, response(301, 5)), verdict('operational', 'ok'));
    assert.equal(core.classifyProbe(redirect, response(200, 5)).value.status, 'down');
  });

  test('the settings are validated first, in the core\'s order, with stable codes', () => {
    assert.equal(settingsCode({}), '');
    for (const method of ['GET', 'POST', 'HEAD']) assert.equal(settingsCode({ method }), '');
    for (const method of ['get', 'PUT', 'DELETE', '', 'GET ']) assert.equal(settingsCode({ method }), 'invalid_method');

    const interval = (intervalSeconds) => settingsCode({ intervalSeconds, timeoutMs: 1000, degradedLatencyMs: 500 });
    assert.equal(interval(29), 'invalid_interval');
    assert.equal(interval(30), '');
    assert.equal(interval(3600), '');
    assert.equal(interval(3601), 'invalid_interval');
    assert.equal(interval(-30), 'invalid_interval');

    const range = (expectedStatusMin, expectedStatusMax) => settingsCode({ expectedStatusMin, expectedStatusMax });
    assert.equal(range(100, 599), '');
    assert.equal(range(301, 301), '');
    assert.equal(range(99, 299), 'invalid_status_range');
    assert.equal(range(200, 600), 'invalid_status_range');
    assert.equal(range(300, 299), 'invalid_status_range');

    const timeout = (intervalSeconds, timeoutMs) => settingsCode({ intervalSeconds, timeoutMs, degradedLatencyMs: 1 });
    assert.equal(timeout(30, 0), 'invalid_timeout');
    assert.equal(timeout(30, -1), 'invalid_timeout');
    assert.equal(timeout(30, 1), '');
    assert.equal(timeout(30, 30000), '');
    assert.equal(timeout(30, 30001), 'invalid_timeout');

    const degraded = (degradedLatencyMs) => settingsCode({ timeoutMs: 5000, degradedLatencyMs });
    assert.equal(degraded(0), 'invalid_degraded_latency');
    assert.equal(degraded(1), '');
    assert.equal(degraded(5000), '');
    assert.equal(degraded(5001), 'invalid_degraded_latency');

    assert.equal(settingsCode({ expectedBodyContains: 'ok' }), '');
    failure(core.classifyProbe({ expectedBodyContains: '' }, response(200, 1)), 'invalid_expected_body', 'expectedBodyContains must not be empty when set');
    failure(core.classifyProbe({ expectedBodyContains: 'ok', method: 'HEAD' }, response(200, 1)), 'invalid_expected_body', 'a HEAD check has no body to search');

    // The first failing rule is reported.
    assert.equal(settingsCode({ method: 'PUT', intervalSeconds: 1, expectedStatusMin: 0 }), 'invalid_method');
    assert.equal(settingsCode({ intervalSeconds: 1, expectedStatusMin: 0 }), 'invalid_interval');
    assert.equal(settingsCode({ expectedStatusMin: 0, timeoutMs: 0 }), 'invalid_status_range');
    // Settings are refused even when the outcome is unusable too.
    failure(core.classifyProbe({ method: 'PUT' }, { transport: 'dns', latencyMs: -1 }), 'invalid_method');
  });

  test('settings numbers that are not safe integers fail with their member\'s code, in the core\'s order', () => {
    failure(core.classifyProbe({ intervalSeconds: 60.5 }, response(200, 1)), 'invalid_interval', 'intervalSeconds must be between 30 and 3600');
    assert.equal(settingsCode({ intervalSeconds: Number.NaN }), 'invalid_interval');
    assert.equal(settingsCode({ expectedStatusMin: 200.5 }), 'invalid_status_range');
    assert.equal(settingsCode({ expectedStatusMax: Infinity }), 'invalid_status_range');
    assert.equal(settingsCode({ timeoutMs: 2 ** 53 }), 'invalid_timeout');
    assert.equal(settingsCode({ degradedLatencyMs: 1.5 }), 'invalid_degraded_latency');
    // An earlier refused member is still reported first.
    assert.equal(settingsCode({ method: 'PUT', intervalSeconds: 0.5 }), 'invalid_method');
    assert.equal(settingsCode({ intervalSeconds: 10, timeoutMs: Number.NaN }), 'invalid_interval');
  });

  test('invalid_probe_outcome for an unknown transport or unusable numbers', () => {
    failure(core.classifyProbe({}, { transport: 'dns', latencyMs: 1 }), 'invalid_probe_outcome', 'outcome.transport must be response, timeout or error');
    failure(core.classifyProbe({}, response(200, -1)), 'invalid_probe_outcome', 'outcome.latencyMs must be an integer >= 0');
    failure(core.classifyProbe({}, response(200, 1.5)), 'invalid_probe_outcome');
    failure(core.classifyProbe({}, response(200, 2 ** 53)), 'invalid_probe_outcome');
    failure(core.classifyProbe({}, response(200.5, 1)), 'invalid_probe_outcome', 'outcome.httpStatus must be an integer');
    // The largest safe latency is a (very late) response.
    assert.deepEqual(core.classifyProbe({}, response(200, Number.MAX_SAFE_INTEGER)), verdict('down', 'timeout'));
  });

  test('wrong JavaScript types throw a TypeError naming the member', () => {
    assert.throws(() => core.classifyProbe(null, response(200, 1)), { name: 'TypeError', message: 'settings must be an object, got null' });
    assert.throws(() => core.classifyProbe({ timeoutMs: '5000' }, response(200, 1)), { name: 'TypeError', message: 'settings.timeoutMs must be a number, got string' });
    assert.throws(() => core.classifyProbe({ expectedBodyContains: 1 }, response(200, 1)), { name: 'TypeError', message: 'settings.expectedBodyContains must be a string, got number' });
    assert.throws(() => core.classifyProbe({}, { transport: 'response', httpStatus: 200 }), { name: 'TypeError', message: 'outcome.latencyMs must be a number, got undefined' });
    assert.throws(() => core.classifyProbe({}, { transport: 'response', latencyMs: 1, bodyContainsExpected: 'yes' }), { name: 'TypeError', message: 'outcome.bodyContainsExpected must be a boolean, got string' });
    assert.throws(() => core.classifyProbe({}, [response(200, 1)]), { name: 'TypeError', message: 'outcome must be an object, got array' });
  });
});

describe('maintenanceState', () => {
  const H = 3_600_000;
  const START = 1_795_000_000_000;
  const planned = (extra = {}) => ({ scheduledStartMs: START, endMs: START + 2 * H, ...extra });
  const state = (window, nowMs) => core.maintenanceState(window, nowMs);

  test('follows the clock', () => {
    assert.deepEqual(state(planned(), START - 1), ok('scheduled'));
    assert.deepEqual(state(planned(), START), ok('in_progress'));
    assert.deepEqual(state(planned(), START + 2 * H - 1), ok('in_progress'));
    assert.deepEqual(state(planned(), START + 2 * H), ok('completed'));
    // The stored window may carry other members (createdAtMs); they are not looked at.
    assert.deepEqual(state({ ...planned(), createdAtMs: START - 48 * H }, START), ok('in_progress'));
  });

  test('manual start, completion and cancellation', () => {
    // Started 30 minutes early, then marked complete after 1 hour.
    const started = planned({ startedAtMs: START - H / 2 });
    assert.deepEqual(state(started, START - H / 2 - 1), ok('scheduled'));
    assert.deepEqual(state(started, START - H / 2), ok('in_progress'));
    const done = planned({ startedAtMs: START - H / 2, completedAtMs: START + H / 2 });
    assert.deepEqual(state(done, START + H / 2), ok('completed'));
    assert.deepEqual(state(done, START), ok('in_progress'));
    const cancelled = planned({ cancelledAtMs: START - H, startedAtMs: null, completedAtMs: undefined });
    assert.deepEqual(state(cancelled, START - H - 1), ok('scheduled'));
    assert.deepEqual(state(cancelled, START + H), ok('cancelled'));
  });

  test('invalid_timestamp for a time that is not a safe integer, the member named', () => {
    failure(state(planned({ endMs: START + 0.5 }), START), 'invalid_timestamp', 'window.endMs must be a safe integer of Unix milliseconds');
    failure(state(planned({ scheduledStartMs: Number.NaN, endMs: 2 ** 53 }), START), 'invalid_timestamp', 'window.scheduledStartMs must be a safe integer of Unix milliseconds');
    failure(state(planned({ cancelledAtMs: Infinity }), START), 'invalid_timestamp', 'window.cancelledAtMs must be a safe integer of Unix milliseconds');
    failure(state(planned(), START + 0.5), 'invalid_timestamp', 'nowMs must be a safe integer of Unix milliseconds');
  });

  test('wrong JavaScript types throw a TypeError', () => {
    assert.throws(() => state(planned(), String(START)), { name: 'TypeError', message: 'nowMs must be a number, got string' });
    assert.throws(() => state({ scheduledStartMs: START }, START), { name: 'TypeError', message: 'window.endMs must be a number, got undefined' });
    assert.throws(() => state(planned({ startedAtMs: '1' }), START), { name: 'TypeError', message: 'window.startedAtMs must be a number, got string' });
  });
});
