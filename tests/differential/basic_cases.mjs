// Random calls of vatSplit, businessDate, addDays and verifyJwtHs256: each generator takes a Random and
// answers the JS call's argument list (never one the bindings refuse with a TypeError).
import { createHmac } from 'node:crypto';

import { MAX, MAX_SAFE } from './random.mjs';

export function vatSplit(r) {
  return [r.amount(), r.rate()];
}

const pad = (n, width = 2) => String(n).padStart(width, '0');

// HTML datetime-local values and near misses: hours 0..24, minutes and seconds 0..60, other shapes.
function localDateTime(r) {
  const day = r.dayKey('2026-03-01');
  const hh = pad(r.weighted([[20, () => r.int(0, 23)], [1, () => 24], [1, () => 99]]));
  const mm = pad(r.weighted([[20, () => r.int(0, 59)], [1, () => 60]]));
  const ss = pad(r.weighted([[20, () => r.int(0, 59)], [1, () => 60]]));
  return r.weighted([
    [10, () => `${day}T${hh}:${mm}`],
    [6, () => `${day}T${hh}:${mm}:${ss}`],
    [3, () => r.pick([`${day}t${hh}:${mm}`, `${day} ${hh}:${mm}`, `${day}T${hh}:${mm}Z`, `${day}T${hh}:${mm}:${ss}.000`,
      `${day}T${hh}${mm}`, `${day}T${hh}:${mm[0]}`, `${day}T${hh}:${mm}:`, `${day}T`, day, `${day}T${r.text(2)}:${mm}`,
      `${day}T-1:${mm}`, `${day}T${hh}:+5`])],
    [1, () => r.text(6)],
  ]);
}

export function businessDate(r) {
  const text = localDateTime(r);
  if (r.chance(0.15)) return [text]; // the default cutoff, 4
  const cutoff = r.weighted([
    [20, () => r.int(0, 23)],
    [2, () => r.pick([-1, 24, 100, -(2 ** 31), 2 ** 31, MAX_SAFE])],
    [1, () => r.unsafe()],
  ]);
  return [text, cutoff];
}

export function addDays(r) {
  const day = r.weighted([[6, () => r.dayKey()], [1, () => r.pick(['0000-01-01', '9999-12-31', '0000-01-02', '9999-12-30'])]]);
  const days = r.weighted([
    [20, () => r.int(-400, 400)],
    [6, () => r.int(-4_000_000, 4_000_000)],
    [2, () => r.pick([0, 1, -1, 2932896, -719528, 2932897, 3652058, -3652058, 2 ** 31 - 1, -(2 ** 31) + 1])],
    [2, () => r.pick([2 ** 31, -(2 ** 31), 2 ** 40, -MAX_SAFE, MAX_SAFE])],
    [1, () => r.unsafe()],
  ]);
  return [day, days];
}

// --- verifyJwtHs256 ----------------------------------------------------------------------------------------

const b64url = (bytes) => Buffer.from(bytes).toString('base64url');

function claimValue(r) {
  return r.weighted([
    [4, () => r.text(4)],
    [3, () => r.int(-1e6, 1e6)],
    [1, () => r.pick([MAX, 2 ** 53, 1.5, -0.25, 1e21])],
    [1, () => r.pick([true, false, null])],
    [1, () => [r.text(2), r.int(0, 9)]],
    [1, () => ({ nested: r.text(2), n: r.int(0, 5) })],
  ]);
}

export function verifyJwtHs256(r) {
  const secret = r.weighted([[6, () => `secret-${r.int(0, 3)}-${'k'.repeat(r.int(0, 40))}`], [2, () => r.text(8)], [1, () => '']]);
  const header = r.weighted([
    [12, () => ({ alg: 'HS256', typ: 'JWT' })],
    [2, () => ({ alg: r.pick(['none', 'HS512', 'RS256', 'hs256', '']), typ: 'JWT' })],
    [1, () => ({ typ: 'JWT' })],
    [1, () => ({ alg: 'HS256', crit: ['exp'] })],
    [1, () => ({ alg: 'HS256', kid: r.text(3) })],
  ]);
  const claims = {};
  for (let i = r.int(0, 6); i > 0; i--) claims[r.pick(['sub', 'iss', 'aud', 'exp', 'iat', 'name', r.text(2)])] = claimValue(r);
  let headerPart = b64url(JSON.stringify(header));
  let payloadPart = r.weighted([
    [12, () => b64url(JSON.stringify(claims))],
    [1, () => b64url(r.pick(['not json', '[1,2]', '"x"', '{"a":1,"a":2}', '{"a":1} x', '{"big":123456789012345678901234567890}']))],
  ]);
  if (r.chance(0.02)) payloadPart = b64url('x'.repeat(r.int(12_000, 13_000))); // past the 16 KiB bound
  const input = `${headerPart}.${payloadPart}`;
  const key = r.chance(0.85) ? secret : `${secret}x`;
  let signature = b64url(createHmac('sha256', Buffer.from(key, 'utf8')).update(input).digest());
  const token = r.weighted([
    [14, () => `${input}.${signature}`],
    [1, () => `${input}.${signature}=`],
    [1, () => `${input}.`],
    [1, () => `${input}.${signature.slice(0, -1)}${signature.at(-1) === 'A' ? 'B' : 'A'}`],
    [1, () => `${input}.${signature}.extra`],
    [1, () => `${headerPart}=.${payloadPart}.${signature}`],
    [1, () => `${input}.${signature}`.replace(/[A-Za-z]/, '*')],
    [1, () => r.pick(['', '.', '..', 'a.b.c', r.text(5)])],
  ]);
  return [token, secret];
}
