// Compiled (never run) by types.test.mjs with `tsc --strict --noEmit`: the declarations in
// bindings/index.d.ts accept what the API accepts and refuse what it refuses.
import loadDefault, {
  loadPlatformCore,
  type DayKey,
  type Err,
  type JsonValue,
  type JwkSet,
  type PlatformCore,
  type VatSplit,
  type VerifiedJwt,
} from '../../bindings/index.js';

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

// JWTs: verified header and claims, typed error codes.
const hs = core.verifyJwtHs256('a.b.c', new Uint8Array(32));
if (hs.ok) {
  const verified: VerifiedJwt = hs.value;
  const alg: string = verified.header.alg;
  const iss: JsonValue = verified.claims['iss'];
  void alg, iss;
} else {
  const code: 'invalid_jwt' | 'unsupported_alg' | 'invalid_signature' = hs.code;
  void code;
}
const jwks: JwkSet = { keys: [{ kty: 'RSA', n: 'x', e: 'AQAB', kid: 'k1' }, { kty: 'EC', crv: 'P-256' }] };
const rs = core.verifyJwtRs256('a.b.c', jwks);
const rsText = core.verifyJwtRs256('a.b.c', '{"keys":[]}');
if (!rs.ok) {
  const code: 'invalid_jwks' | 'invalid_jwk' | 'unknown_kid' | 'invalid_jwt' | 'unsupported_alg' | 'invalid_signature' =
    rs.code;
  void code;
}
const challenge = core.pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk');
if (challenge.ok) {
  const text: string = challenge.value;
  void text;
}
const thumbprint = core.jwkThumbprint({ kty: 'RSA', n: 'x', e: 'AQAB' });
void rsText, thumbprint, core.jwkThumbprint('{}');

// @ts-expect-error a secret is a string or bytes
core.verifyJwtHs256('a.b.c', 42);
// @ts-expect-error a JWK Set is an object with keys, not an array
core.verifyJwtRs256('a.b.c', [{ kty: 'RSA' }]);
// @ts-expect-error a JWK needs kty
core.jwkThumbprint({ n: 'x' });
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
