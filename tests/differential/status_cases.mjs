// Random calls of the status-page functions. Each generator takes a Random and answers the JS call's
// argument list.
import { MAX_SAFE } from './random.mjs';

const CHECK = ['operational', 'degraded', 'down', 'no-data'];
const NEAR_MISSES = ['maintenance', 'Operational', 'no_data', 'nodata', '', ' down', 'up', 'DOWN', 'degraded\u0000'];

function statusList(r, valid) {
  const out = [];
  for (let n = r.weighted([[1, () => 0], [10, () => r.int(1, 4)], [3, () => r.int(5, 12)]]); n > 0; n--) {
    out.push(r.chance(0.97) ? r.pick(valid) : r.pick(NEAR_MISSES.filter((s) => !valid.includes(s))));
  }
  return out;
}

export function componentStatus(r) {
  return [statusList(r, CHECK), r.chance(0.2)];
}

export function pageStatus(r) {
  return [statusList(r, [...CHECK, 'maintenance'])];
}

// A settings number: left out, null, in range, at or past its bounds, or not an int at all.
function setting(r, inRange, edges) {
  return r.weighted([
    [6, () => undefined],
    [1, () => null],
    [8, inRange],
    [2, () => r.pick(edges)],
    [1, () => r.pick([-1, 0, 2 ** 31, -(2 ** 31), MAX_SAFE])],
    [1, () => r.unsafe()],
  ]);
}

// Settings the server would accept (60 % of the time), or members drawn one by one, which are mostly
// refused.
function settings(r) {
  if (r.chance(0.6)) {
    const method = r.pick(['GET', 'POST', 'HEAD', undefined]);
    const intervalSeconds = r.int(30, 3600);
    const expectedStatusMin = r.pick([100, 200, 200, 300]);
    const timeoutMs = r.int(1, Math.min(intervalSeconds * 1000, 30_000));
    return {
      method,
      intervalSeconds: r.chance(0.8) ? intervalSeconds : undefined,
      expectedStatusMin: r.chance(0.7) ? expectedStatusMin : undefined,
      expectedStatusMax: r.chance(0.7) ? r.pick([299, 399, 599]) : undefined,
      expectedBodyContains: method !== 'HEAD' && r.chance(0.3) ? r.text(3) || 'ok' : undefined,
      timeoutMs: r.chance(0.8) ? timeoutMs : undefined,
      degradedLatencyMs: r.chance(0.8) ? r.int(1, timeoutMs) : undefined,
    };
  }
  return {
    method: r.weighted([[6, () => undefined], [1, () => null], [6, () => r.pick(['GET', 'POST', 'HEAD'])], [1, () => r.pick(['get', 'PUT', ''])]]),
    intervalSeconds: setting(r, () => r.int(30, 3600), [29, 30, 3600, 3601]),
    expectedStatusMin: setting(r, () => r.pick([100, 200, 204, 300, 400]), [99, 100, 599, 600]),
    expectedStatusMax: setting(r, () => r.pick([199, 299, 399, 599]), [99, 100, 599, 600]),
    expectedBodyContains: r.weighted([[6, () => undefined], [1, () => null], [3, () => r.text(3)]]),
    timeoutMs: setting(r, () => r.int(1, 30_000), [1, 30_000, 3_600_000, 3_600_001]),
    degradedLatencyMs: setting(r, () => r.int(1, 10_000), [1, 10_000]),
  };
}

function outcome(r) {
  return {
    transport: r.weighted([[12, () => 'response'], [2, () => 'timeout'], [2, () => 'error'], [1, () => r.pick(['Response', '', 'ok'])]]),
    httpStatus: r.weighted([
      [2, () => undefined],
      [1, () => null],
      [12, () => r.pick([200, 201, 204, 299, 300, 301, 404, 500, 503, 100, 599])],
      [2, () => r.int(0, 1000)],
      [1, () => r.pick([-1, 2 ** 31, 2 ** 40])],
      [1, () => r.unsafe()],
    ]),
    latencyMs: r.weighted([
      [12, () => r.int(0, 3000)],
      [4, () => r.int(0, 40_000)],
      [2, () => r.pick([0, 2000, 2001, 10_000, 10_001, MAX_SAFE])],
      [1, () => r.pick([-1, -MAX_SAFE])],
      [1, () => r.unsafe()],
    ]),
    bodyContainsExpected: r.weighted([[3, () => undefined], [1, () => null], [6, () => r.chance(0.5)]]),
  };
}

export function classifyProbe(r) {
  return [settings(r), outcome(r)];
}

// A window around a start in 2026; the manual actions taken or not; `now` anywhere near it, exactly on its
// times half the time.
export function maintenanceState(r) {
  const start = 1_780_000_000_000 + r.int(0, 1_000_000);
  const end = start + r.weighted([[8, () => r.int(1, 7_200_000)], [1, () => 0], [1, () => -r.int(1, 1000)]]);
  const time = () => r.weighted([[8, () => start + r.int(-3_600_000, 9_000_000)], [1, () => r.pick([start, end])], [1, () => r.unsafe()]]);
  const action = () => r.weighted([[6, () => undefined], [1, () => null], [4, time]]);
  const window = {
    scheduledStartMs: r.chance(0.98) ? start : r.unsafe(),
    endMs: r.chance(0.98) ? end : r.pick([r.unsafe(), MAX_SAFE, -MAX_SAFE]),
    startedAtMs: action(),
    completedAtMs: action(),
    cancelledAtMs: action(),
  };
  const times = [start, end, window.startedAtMs, window.completedAtMs, window.cancelledAtMs].filter(Number.isSafeInteger);
  const now = r.weighted([[5, time], [5, () => r.pick(times) + r.pick([-1, 0, 0, 1])], [1, () => r.pick([0, -1, MAX_SAFE])]]);
  return [window, now];
}
