// Compiled (never run) by types.test.mjs with `tsc --strict --noEmit`: the declarations in
// bindings/index.d.ts accept what the API accepts and refuse what it refuses.
import loadDefault, { loadPlatformCore, type DayKey, type Err, type PlatformCore, type VatSplit } from '../../bindings/index.js';

const core: PlatformCore = await loadPlatformCore({ wasmDir: 'build/wasm/wasm' });
await loadDefault({ wasmUrl: new URL('https://example.invalid/web/wasm/') });

// Results narrow on `ok`: a value on success, a typed code on failure.
const split = core.vatSplit(11800, 1800);
if (split.ok) {
  const value: VatSplit = split.value;
  const net: number = value.netMinor;
  void net;
} else {
  const code: 'vat_rate_invalid' | 'invalid_amount' = split.code;
  const message: string = split.message;
  void code, message;
  // @ts-expect-error a failure carries no value
  void split.value;
}

const day = core.businessDate('2026-03-15T02:30');
if (day.ok) {
  const key: DayKey = day.value;
  void key;
} else {
  const failure: Err<'invalid_cutoff_hour' | 'invalid_date' | 'invalid_time'> = day;
  // @ts-expect-error businessDate never fails with a VAT code
  const wrong: 'vat_rate_invalid' = day.code;
  void failure, wrong;
}

const allowed = core.allows('member', ['restaurant.branch:br_1'], 'restaurant.write', 'br_1');
if (allowed.ok) {
  const yes: boolean = allowed.value;
  void yes;
}
const valid = core.validatePermission('domains.view');
if (valid.ok) {
  const nothing: null = valid.value;
  void nothing;
}
const hash: string = core.sha256Hex('abc');
const token = core.makeToken('oauth_access');
const shape = core.hasTokenShape('csrf', 'x');
const nextDay = core.addDays('2026-03-15', 1);
void hash, token, shape, nextDay;

// @ts-expect-error amounts are numbers, not strings
core.vatSplit('100', 2000);
// @ts-expect-error roles are owner, admin or member
core.allows('boss', [], 'domains.view');
// @ts-expect-error granted is an array of strings
core.allows('member', [1], 'domains.view');
// @ts-expect-error unknown token kind
core.makeToken('api_key');
// @ts-expect-error no such function
core.vatSplitFast(1, 2);
// @ts-expect-error wasmDir is a path string
await loadPlatformCore({ wasmDir: 42 });
