// A seeded source of test values for the differential tests: the same seed gives the same cases on every
// machine and node version (no Math.random, no iteration over hash order).

// mulberry32: 32 bits of state, fast, good enough to spread test inputs.
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// FNV-1a of a group name, so each group draws its own sequence from the run's seed: replaying one seed
// replays every group, whichever ran first.
function hash(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

export const MAX = 1e15; // core::kMaxAmountMinor
export const MAX_SAFE = Number.MAX_SAFE_INTEGER;

// Numbers a JS caller can pass where an integer belongs and which are not safe integers.
export const UNSAFE = [NaN, Infinity, -Infinity, 0.5, 1.5, -2.25, 1e-7, 2 ** 53, -(2 ** 53), 2 ** 60, 1e20, 1e300];

const TEXT_PIECES = [
  'a', 'Z', '0', ' ', '-', '_', 'Köfte', 'çğıöşü', 'İ', 'ß', '€', '🍕', '👩‍🍳', '中文', 'é', 'e\u0301',
  '\u00a0', '\t', '\n', '"', "'", '\\', '<', '>', '&', '&amp;', '/', '\u2028', '\u0000', '{', '}',
];

export class Random {
  constructor(seed, group) {
    this.next = mulberry32((seed ^ hash(group)) >>> 0);
  }

  // An integer in [lo, hi] (inclusive, |lo|, |hi| up to 2^53).
  int(lo, hi) {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p) {
    return this.next() < p;
  }

  pick(items) {
    return items[Math.floor(this.next() * items.length)];
  }

  // One of several generators, by weight: weighted([[3, () => a], [1, () => b]]).
  weighted(options) {
    const total = options.reduce((sum, [w]) => sum + w, 0);
    let r = this.next() * total;
    for (const [w, make] of options) {
      if ((r -= w) < 0) return make();
    }
    return options[options.length - 1][1]();
  }

  // Text of up to `max` pieces: ASCII, non-Latin letters, emoji, combining marks, HTML characters, NUL.
  // Never a lone surrogate: it has no UTF-8 form, and the bindings document that its encoding differs
  // between embind and TextEncoder (docs/wasm.md).
  text(max = 4) {
    let out = '';
    const n = this.int(0, max);
    for (let i = 0; i < n; i++) out += this.pick(TEXT_PIECES);
    return out;
  }

  id(prefix) {
    return this.chance(0.9) ? `${prefix}_${this.int(0, 30)}` : this.text(3);
  }

  unsafe() {
    return this.pick(UNSAFE);
  }

  // An amount in minor units, mostly valid; the 0 and 10^15 bounds, just beyond them, and (when `unsafe`)
  // numbers that are not safe integers.
  amount({ unsafe = true, min = 0 } = {}) {
    return this.weighted([
      [30, () => this.int(min, 10_000)],
      [20, () => this.int(min, 50_000_000)],
      [4, () => MAX - this.int(0, 1000)],
      [2, () => MAX],
      [2, () => MAX + 1],
      [2, () => this.pick([0, 1, -1, min - 1])],
      [2, () => -this.int(1, 10 ** 12)],
      [1, () => this.pick([MAX_SAFE, -MAX_SAFE, 2 ** 40])],
      [unsafe ? 2 : 0, () => this.unsafe()],
    ]);
  }

  // A VAT rate in basis points, mostly 0..10000 with the common rates; out of range (`invalid`) and not a safe
// integer (`unsafe`) sometimes.
  rate({ unsafe = true, invalid = true } = {}) {
    return this.weighted([
      [20, () => this.pick([0, 100, 500, 800, 1000, 1800, 2000, 2100, 10000])],
      [20, () => this.int(0, 10000)],
      [invalid ? 2 : 0, () => this.pick([-1, 10001, 20000, -10000, MAX_SAFE])],
      [unsafe ? 1 : 0, () => this.unsafe()],
    ]);
  }

  // A day key: mostly valid days around `around` (month ends, leap days, year ends), sometimes malformed.
  dayKey(around = '2026-01-29') {
    return this.weighted([
      [20, () => addDaysUtc(around, this.int(-70, 70))],
      [4, () => this.pick(['2024-02-29', '2028-02-29', '2000-02-29', '2026-02-28', '2026-12-31', '2027-01-01'])],
      [2, () => this.pick(['0000-01-01', '9999-12-31', '1970-01-01', '1900-03-01'])],
      [2, () => this.pick(['2026-02-29', '1900-02-29', '2026-13-01', '2026-00-10', '2026-04-31', '2026-1-1',
        ' 2026-01-01', '2026-01-01 ', '2026/01/01', '20260101', '', '２０２６-01-01', '2026-01-01T00:00',
        '-001-01-01', '+2026-01-01'])],
    ]);
  }
}

// `day` (YYYY-MM-DD) moved by `days`, computed by JS Date in UTC: an independent calendar for the test's
// own inputs.
export function addDaysUtc(day, days) {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

// `text` when it is a real calendar day in YYYY-MM-DD, else `fallback`: a centre for dayKey().
export function realDayOr(text, fallback) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return fallback;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text ? text : fallback;
}

export function seedFromEnvironment() {
  const text = process.env.DIFF_SEED;
  if (text !== undefined && text !== '') {
    const seed = Number(text);
    if (!Number.isSafeInteger(seed) || seed < 0) throw new Error(`DIFF_SEED must be an integer >= 0, got '${text}'`);
    return seed >>> 0;
  }
  return globalThis.crypto.getRandomValues(new Uint32Array(1))[0];
}
