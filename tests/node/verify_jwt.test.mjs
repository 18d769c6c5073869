// verifyJwt of @platform/core/tokens (core/jwt_verify.h in wasm): HS256 and RS256, every error code, the key
// by kid, clock tolerance, audience lists and `now`; then the same tokens through jose's jwtVerify, which must
// accept and refuse the same ones.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import * as jose from 'jose';

import { createRemoteJwks, JwksError, loadTokens, verifyJwt } from '../../bindings/tokens.js';
import { b64, claims, compact, hs256, NOW, rs256, rsaKey } from './jwt_fixtures.mjs';

const SECRET = 'a shared HS256 secret of 32 bytes or more';
const ISSUER = 'https://auth.example';

let keyA; // kid "a"
let keyB; // kid "b"
let jwks; // both public keys
before(() => {
  keyA = rsaKey('a');
  keyB = rsaKey('b');
  jwks = { keys: [keyA.jwk, keyB.jwk] };
});

async function code(token, options) {
  const result = await verifyJwt(token, { now: NOW + 10, ...options });
  return result.ok ? 'ok' : result.code;
}

describe('verifyJwt with an HS256 secret', () => {
  test('answers the header and payload; the secret as a string or bytes', async () => {
    const token = hs256(claims(), SECRET);
    const expected = { ok: true, value: { header: { alg: 'HS256', typ: 'JWT' }, payload: claims() } };
    assert.deepEqual(await verifyJwt(token, { secret: SECRET, now: NOW }), expected);
    assert.deepEqual(await verifyJwt(token, { secret: Buffer.from(SECRET), now: NOW }), expected);
    assert.deepEqual(await verifyJwt(token, { secret: new Uint8Array(Buffer.from(SECRET)), now: new Date(NOW * 1000) }), expected);
  });

  test('a wrong secret or a changed payload is invalid_signature', async () => {
    const token = hs256(claims(), SECRET);
    assert.deepEqual(await verifyJwt(token, { secret: `${SECRET}!`, now: NOW }), {
      ok: false,
      code: 'invalid_signature',
      message: "the token's signature does not verify",
    });
    const [header, , signature] = token.split('.');
    assert.equal(await code(`${header}.${b64(claims({ sub: 'usr_2' }))}.${signature}`, { secret: SECRET }), 'invalid_signature');
  });

  test('without `now` the current time is used', async () => {
    const current = Math.floor(Date.now() / 1000);
    assert.equal((await verifyJwt(hs256(claims({ nbf: current - 5, exp: current + 60 }), SECRET), { secret: SECRET })).ok, true);
    assert.equal((await verifyJwt(hs256(claims({ nbf: current - 60, exp: current - 5 }), SECRET), { secret: SECRET })).code, 'token_expired');
  });
});

describe('verifyJwt claim checks', () => {
  const token = () => hs256(claims(), SECRET);

  test('issuer: checked only when given, exactly', async () => {
    assert.equal(await code(token(), { secret: SECRET }), 'ok');
    assert.equal(await code(token(), { secret: SECRET, issuer: ISSUER }), 'ok');
    assert.equal(await code(token(), { secret: SECRET, issuer: `${ISSUER}/` }), 'invalid_issuer');
    assert.equal(await code(hs256(claims({ iss: undefined }), SECRET), { secret: SECRET, issuer: ISSUER }), 'invalid_issuer');
    assert.equal(await code(hs256(claims({ iss: 7 }), SECRET), { secret: SECRET, issuer: ISSUER }), 'invalid_issuer');
  });

  test('audience: a string or a list of which one must match; aud a string or an array', async () => {
    assert.equal(await code(token(), { secret: SECRET, audience: 'cli_app' }), 'ok');
    assert.equal(await code(token(), { secret: SECRET, audience: ['cli_other', 'cli_app'] }), 'ok');
    assert.equal(await code(token(), { secret: SECRET, audience: ['cli_other'] }), 'invalid_audience');
    assert.equal(await code(token(), { secret: SECRET, audience: 'CLI_APP' }), 'invalid_audience');
    const many = hs256(claims({ aud: ['api', 'cli_app'] }), SECRET);
    assert.equal(await code(many, { secret: SECRET, audience: 'cli_app' }), 'ok');
    assert.equal(await code(many, { secret: SECRET, audience: ['x', 'api'] }), 'ok');
    assert.equal(await code(many, { secret: SECRET, audience: 'x' }), 'invalid_audience');
    assert.equal(await code(hs256(claims({ aud: undefined }), SECRET), { secret: SECRET, audience: 'cli_app' }), 'invalid_audience');
    // The issuer is checked before the audience.
    assert.equal(await code(token(), { secret: SECRET, issuer: 'x', audience: 'y' }), 'invalid_issuer');
  });

  test('exp and nbf against now, with clockToleranceSeconds; iat is only type-checked', async () => {
    const exp = NOW + 3600;
    const at = async (now, tolerance) =>
      (await verifyJwt(token(), { secret: SECRET, now, clockToleranceSeconds: tolerance })).code ?? 'ok';
    assert.equal(await at(exp - 1), 'ok');
    assert.equal(await at(exp), 'token_expired'); // exp is the first second it is refused
    assert.equal(await at(exp + 29, 30), 'ok');
    assert.equal(await at(exp + 30, 30), 'token_expired');
    assert.equal(await at(NOW), 'ok');
    assert.equal(await at(NOW - 1), 'token_not_yet_valid');
    assert.equal(await at(NOW - 30, 30), 'ok');
    assert.equal(await at(NOW - 31, 30), 'token_not_yet_valid');
    assert.equal(await at(new Date((exp - 0.5) * 1000)), 'ok'); // fractions of `now` are dropped
    assert.equal(await at(exp - 1, 0.9), 'ok');
    assert.equal(await code(hs256(claims({ iat: NOW + 10_000 }), SECRET), { secret: SECRET }), 'ok');
  });

  test('a missing exp or a time claim that is not a number is invalid_claims', async () => {
    assert.equal(await code(hs256(claims({ exp: undefined }), SECRET), { secret: SECRET }), 'invalid_claims');
    assert.equal(await code(hs256(claims({ exp: String(NOW + 3600) }), SECRET), { secret: SECRET }), 'invalid_claims');
    assert.equal(await code(hs256(claims({ nbf: null }), SECRET), { secret: SECRET }), 'invalid_claims');
    assert.equal(await code(hs256(claims({ iat: 'yesterday' }), SECRET), { secret: SECRET }), 'invalid_claims');
  });
});

describe('verifyJwt refusals before the signature', () => {
  test('invalid_jwt for what is not a compact JWS', async () => {
    for (const text of ['', 'a.b', 'a.b.c.d', `${b64({ alg: 'HS256' })}.e30`, `${b64({ alg: 'HS256' })}.${b64('[]')}.`]) {
      assert.equal(await code(text, { secret: SECRET }), 'invalid_jwt', text);
    }
    const crit = hs256(claims(), SECRET, { crit: ['exp'] });
    assert.equal(await code(crit, { secret: SECRET }), 'invalid_jwt');
  });

  test('unsupported_alg: the key decides the algorithm, `algorithms` narrows it, none never passes', async () => {
    const none = `${b64({ alg: 'none' })}.${b64(claims())}.`;
    assert.equal(await code(none, { secret: SECRET }), 'unsupported_alg');
    assert.equal(await code(none, { jwks }), 'unsupported_alg');
    assert.equal(await code(rs256(claims(), keyA), { secret: SECRET }), 'unsupported_alg');
    assert.equal(await code(hs256(claims(), SECRET), { jwks }), 'unsupported_alg');
    // An HS256 token "signed" with the RSA public key's modulus as the secret: refused by its alg.
    assert.equal(await code(hs256(claims(), keyA.jwk.n, { kid: 'a' }), { jwks }), 'unsupported_alg');
    assert.equal(await code(hs256(claims(), SECRET), { secret: SECRET, algorithms: ['RS256'] }), 'unsupported_alg');
    assert.equal(await code(hs256(claims(), SECRET), { secret: SECRET, algorithms: ['RS256', 'HS256'] }), 'ok');
  });
});

describe('verifyJwt with a JWK Set', () => {
  test('the key named by kid; the set as an object or JSON text', async () => {
    assert.equal(await code(rs256(claims(), keyA), { jwks }), 'ok');
    assert.equal(await code(rs256(claims(), keyB), { jwks: JSON.stringify(jwks) }), 'ok');
    const result = await verifyJwt(rs256(claims(), keyB), { jwks, now: NOW, issuer: ISSUER, audience: 'cli_app' });
    assert.deepEqual(result.value.header, { alg: 'RS256', kid: 'b', typ: 'JWT' });
    assert.equal(result.value.payload.sub, 'usr_1');
  });

  test('key_not_found for an unknown kid, or no kid and not exactly one key', async () => {
    const other = rsaKey('c');
    assert.deepEqual(await verifyJwt(rs256(claims(), other), { jwks, now: NOW }), {
      ok: false,
      code: 'key_not_found',
      message: 'no key of the set has the token\'s "kid"',
    });
    const noKid = rs256(claims(), keyA, { kid: undefined });
    assert.equal(await code(noKid, { jwks }), 'key_not_found');
    assert.equal(await code(noKid, { jwks: { keys: [keyA.jwk] } }), 'ok');
    assert.equal(await code(noKid, { jwks: { keys: [{ kty: 'EC', crv: 'P-256', x: 'x', y: 'y' }, keyA.jwk] } }), 'ok');
    assert.equal(await code(noKid, { jwks: { keys: [] } }), 'key_not_found');
  });

  test('the right kid on another key is invalid_signature; a bad kid type is invalid_jwt', async () => {
    const impostor = rsaKey('a');
    assert.equal(await code(rs256(claims(), impostor), { jwks }), 'invalid_signature');
    assert.equal(await code(rs256(claims(), keyA, { kid: 7 }), { jwks }), 'invalid_jwt');
  });

  test('a set that is not one is invalid_jwks; a broken or small RSA key is invalid_jwk', async () => {
    const token = rs256(claims(), keyA);
    assert.equal(await code(token, { jwks: '{' }), 'invalid_jwks');
    assert.equal(await code(token, { jwks: {} }), 'invalid_jwks');
    assert.equal(await code(token, { jwks: { keys: [{ ...keyA.jwk, n: 'AQAB' }] } }), 'invalid_jwk');
    const small = rsaKey('s', { bits: 1024 });
    assert.equal(await code(rs256(claims(), small), { jwks: { keys: [small.jwk] } }), 'invalid_jwk');
  });

  test('a function as jwks: called for the set, and its JwksError becomes the answer', async () => {
    assert.equal(await code(rs256(claims(), keyA), { jwks: async () => jwks }), 'ok');
    const failing = async () => {
      throw new JwksError('jwks_fetch_failed', 'down');
    };
    assert.deepEqual(await verifyJwt(rs256(claims(), keyA), { jwks: failing, now: NOW }), {
      ok: false,
      code: 'jwks_fetch_failed',
      message: 'down',
    });
    // A served set the core cannot read is jwks_invalid, the server's fault.
    assert.equal(await code(rs256(claims(), keyA), { jwks: async () => ({ keys: [{ ...keyA.jwk, e: '' }] }) }), 'jwks_invalid');
    // Any other failure of the function is the caller's bug: it rejects.
    await assert.rejects(verifyJwt(rs256(claims(), keyA), { jwks: async () => { throw new RangeError('bug'); } }), RangeError);
    // Asked again once, with reload, when the kid is unknown.
    const calls = [];
    const rotating = async (options) => {
      calls.push(options?.reload === true);
      return options?.reload ? { keys: [keyB.jwk] } : { keys: [keyA.jwk] };
    };
    assert.equal(await code(rs256(claims(), keyB), { jwks: rotating }), 'ok');
    assert.deepEqual(calls, [false, true]);
  });
});

describe('verifyJwt arguments', () => {
  test('options of the wrong type reject with a TypeError naming them', async () => {
    const token = hs256(claims(), SECRET);
    const cases = [
      [[42, { secret: SECRET }], 'token must be a string, got number'],
      [[token], 'options must be an object, got undefined'],
      [[token, {}], 'options must have exactly one of jwks and secret'],
      [[token, { secret: SECRET, jwks }], 'options must have exactly one of jwks and secret'],
      [[token, { secret: 7 }], 'options.secret must be a string or a Uint8Array, got number'],
      [[token, { secret: '' }], 'options.secret must not be empty'],
      [[token, { jwks: [] }], 'options.jwks must be a JSON string or an object, got object'],
      [[token, { secret: SECRET, issuer: 1 }], 'options.issuer must be a string, got number'],
      [[token, { secret: SECRET, audience: [] }], 'options.audience must not be an empty array'],
      [[token, { secret: SECRET, audience: [1] }], 'options.audience must be an array of strings'],
      [[token, { secret: SECRET, algorithms: 'HS256' }], 'options.algorithms must be an array of strings'],
      [[token, { secret: SECRET, clockToleranceSeconds: -1 }], 'options.clockToleranceSeconds must be a finite number >= 0, got number'],
      [[token, { secret: SECRET, now: '2026-01-01' }], 'options.now must be a Date or a number of seconds, got string'],
      [[token, { secret: SECRET, now: new Date('nope') }], 'options.now must be a valid time'],
    ];
    for (const [args, message] of cases) {
      await assert.rejects(verifyJwt(...args), { name: 'TypeError', message }, message);
    }
  });

  test('the loaded API has verifyJwt too, the same function for every caller', async () => {
    const tokens = await loadTokens();
    assert.equal(typeof tokens.verifyJwt, 'function');
    assert.equal((await tokens.verifyJwt(hs256(claims(), SECRET), { secret: SECRET, now: NOW })).ok, true);
  });
});

// The same decision as jose 6 (jwtVerify), token by token. Where the two differ by design (exp is required
// here), the difference is asserted below.
describe('verifyJwt agrees with jose', () => {
  async function joseAccepts(token, options) {
    const key = options.secret !== undefined ? new TextEncoder().encode(options.secret) : jose.createLocalJWKSet(options.jwks);
    try {
      await jose.jwtVerify(token, key, {
        issuer: options.issuer,
        audience: options.audience,
        algorithms: options.algorithms ?? [options.secret !== undefined ? 'HS256' : 'RS256'],
        clockTolerance: options.clockToleranceSeconds,
        currentDate: new Date(options.now * 1000),
      });
      return true;
    } catch {
      return false;
    }
  }

  test('on valid, tampered, expired, early, misaddressed and mis-keyed tokens', async () => {
    const hs = hs256(claims(), SECRET);
    const [h, p, s] = hs.split('.');
    const ra = rs256(claims(), keyA);
    const [rh, , rsig] = ra.split('.');
    const cases = [
      ['HS256 valid', hs, { secret: SECRET }],
      ['HS256 with issuer and audience list', hs, { secret: SECRET, issuer: ISSUER, audience: ['x', 'cli_app'] }],
      ['HS256 wrong secret', hs, { secret: 'another secret of at least 32 bytes!!' }],
      ['HS256 payload swapped', `${h}.${b64(claims({ sub: 'admin' }))}.${s}`, { secret: SECRET }],
      ['HS256 signature flipped', `${h}.${p}.${s.slice(0, -2)}${s.endsWith('AA') ? 'BA' : 'AA'}`, { secret: SECRET }],
      ['expired', hs, { secret: SECRET, now: NOW + 3600 }],
      ['expired within tolerance', hs, { secret: SECRET, now: NOW + 3610, clockToleranceSeconds: 11 }],
      ['not yet valid', hs, { secret: SECRET, now: NOW - 1 }],
      ['wrong issuer', hs, { secret: SECRET, issuer: 'https://evil.example' }],
      ['wrong audience', hs, { secret: SECRET, audience: 'cli_other' }],
      ['aud array', hs256(claims({ aud: ['a', 'b'] }), SECRET), { secret: SECRET, audience: ['b'] }],
      ['alg none', `${b64({ alg: 'none' })}.${p}.`, { secret: SECRET }],
      ['HS256 not allowed', hs, { secret: SECRET, algorithms: ['RS256'] }],
      ['RS256 valid, kid a', ra, { jwks: null }],
      ['RS256 valid, kid b', rs256(claims(), keyB), { jwks: null }],
      ['RS256 with issuer and audience', ra, { jwks: null, issuer: ISSUER, audience: 'cli_app' }],
      ['RS256 payload swapped', `${rh}.${b64(claims({ sub: 'admin' }))}.${rsig}`, { jwks: null }],
      ['RS256 unknown kid', rs256(claims(), rsaKey('z')), { jwks: null }],
      ['RS256 right kid, other key', rs256(claims(), rsaKey('a')), { jwks: null }],
      ['RS256 expired', ra, { jwks: null, now: NOW + 7200 }],
      ['RS256 wrong audience', ra, { jwks: null, audience: ['cli_other'] }],
      ['HS256 token against the key set', hs256(claims(), SECRET, { kid: 'a' }), { jwks: null }],
      ['RS256 token against a secret', ra, { secret: SECRET }],
      ['no kid, one key', rs256(claims(), keyA, { kid: undefined }), { jwks: { keys: [null] } }],
      ['no kid, two keys', rs256(claims(), keyA, { kid: undefined }), { jwks: null }],
    ];
    for (const [name, token, given] of cases) {
      const options = { now: NOW + 10, ...given };
      if (options.jwks === null) options.jwks = jwks;
      if (options.jwks?.keys?.[0] === null) options.jwks = { keys: [keyA.jwk] };
      const ours = await verifyJwt(token, options);
      assert.equal(ours.ok, await joseAccepts(token, options), `${name}: verifyJwt answered ${JSON.stringify(ours)}`);
    }
  });

  test('the difference by design: exp is required', async () => {
    const noExp = hs256(claims({ exp: undefined }), SECRET);
    assert.equal(await joseAccepts(noExp, { secret: SECRET, now: NOW }), true);
    assert.equal(await code(noExp, { secret: SECRET }), 'invalid_claims');
  });
});

test('createRemoteJwks refuses arguments of the wrong type', () => {
  assert.throws(() => createRemoteJwks(7), { name: 'TypeError', message: 'url must be a string or a URL, got number' });
  assert.throws(() => createRemoteJwks('https://a.example/jwks', { cooldownMs: -1 }), TypeError);
  assert.throws(() => createRemoteJwks('https://a.example/jwks', { fetch: 'no' }), TypeError);
  assert.throws(() => createRemoteJwks('not a url'), TypeError);
});
