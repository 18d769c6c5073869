// JWT verification, PKCE and JWK thumbprints through @platform/core (core/jwt.h, core/rsa_verify.h with
// BearSSL compiled to wasm, core/pkce.h, core/jwk.h), against the RFCs' own examples.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import { loadPlatformCore } from '../../bindings/index.js';

let core;
before(async () => {
  core = await loadPlatformCore();
});

// RFC 7515 Appendix A.1 (HS256) and A.2 (RS256).
const A1 =
  'eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9' +
  '.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ' +
  '.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const A1_KEY = Buffer.from(
  'AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow',
  'base64url',
);
const A2 =
  'eyJhbGciOiJSUzI1NiJ9' +
  '.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ' +
  '.cC4hiUPoj9Eetdgtv3hF80EGrhuB__dzERat0XF9g2VtQgr9PJbu3XOiZj5RZmh7AAuHIm4Bh-0Qc_lF5YKt_O8W2Fp5jujGbds9uJdb' +
  'F9CUAr7t1dnZcAcQjbKBYNX4BAynRFdiuB--f_nZLgrnbyTyWzO75vRK5h6xBArLIARNPvkSjtQBMHlb1L07Qe7K0GarZRmB_eSN9383' +
  'LcOLn6_dO--xi12jzDwusC-eOkHWEsqtFZESc6BfI7noOPqvhJ1phCnvWh6IeYI2w9QOYEUipUTI8np6LbgGY9Fs98rqVt5AXLIhWkWy' +
  'wlVmtVrBp0igcN_IoypGlUPQGe77Rw';
const A2_JWK = {
  kty: 'RSA',
  n:
    'ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0l8W26mPddxHmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0Bm4d4QlL-yRT-SF' +
    'd2lZS-pCgNMsD1W_YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSHSXndS5z5rexMdbBYUsLA9e-KXBdQOS-UTo' +
    '7WTBEMa2R2CapHg665xsmtdVMTBQY4uDZlxvb3qCo5ZwKh9kG4LT6_I5IhlJH7aGhyxXFvUK-DWNmoudF8NAco9_h9iaGNj8q2ethFkM' +
    'Ls91kzk2PAcDTW9gb54h4FRWyuXpoQ',
  e: 'AQAB',
};
// RFC 7638 §3.1.
const RFC7638_JWK = {
  kty: 'RSA',
  n:
    '0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiF' +
    'V4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9' +
    'c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1' +
    'jF44-csFCur-kEgU8awapJzKnqDKgw',
  e: 'AQAB',
  alg: 'RS256',
  kid: '2011-04-29',
};

const b64 = (text) => Buffer.from(text).toString('base64url');
const A1_CLAIMS = { iss: 'joe', exp: 1300819380, 'http://example.com/is_root': true };

describe('verifyJwtHs256', () => {
  test('RFC 7515 A.1 verifies with the example key, as a Buffer or a Uint8Array', () => {
    const expected = { ok: true, value: { header: { typ: 'JWT', alg: 'HS256' }, claims: A1_CLAIMS } };
    assert.deepEqual(core.verifyJwtHs256(A1, A1_KEY), expected);
    assert.deepEqual(core.verifyJwtHs256(A1, new Uint8Array(A1_KEY)), expected);
  });

  test('a string secret is used as its UTF-8 bytes', () => {
    // The widely published HS256 example token, secret "your-256-bit-secret".
    const token =
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5' +
      'MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
    assert.deepEqual(core.verifyJwtHs256(token, 'your-256-bit-secret').value.claims, {
      sub: '1234567890',
      name: 'John Doe',
      iat: 1516239022,
    });
  });

  test('a wrong key or an altered token is invalid_signature', () => {
    assert.deepEqual(core.verifyJwtHs256(A1, 'not the key'), {
      ok: false,
      code: 'invalid_signature',
      message: "the token's signature does not verify",
    });
    const [header, , signature] = A1.split('.');
    const altered = `${header}.${b64('{"iss":"joe","exp":9999999999}')}.${signature}`;
    assert.equal(core.verifyJwtHs256(altered, A1_KEY).code, 'invalid_signature');
  });

  test('alg none, an RS256 token and malformed strings are refused', () => {
    assert.equal(core.verifyJwtHs256(`${b64('{"alg":"none"}')}.${b64('{"iss":"joe"}')}.`, A1_KEY).code, 'unsupported_alg');
    assert.equal(core.verifyJwtHs256(A2, A1_KEY).code, 'unsupported_alg');
    for (const text of ['', 'a.b', `${A1}.x`, A1.replace('.', '=.'), 'é.é.é']) {
      assert.equal(core.verifyJwtHs256(text, A1_KEY).code, 'invalid_jwt', text);
    }
  });
});

describe('verifyJwtRs256', () => {
  test('RFC 7515 A.2 verifies with the example public key, from JSON text or an object', () => {
    const expected = { ok: true, value: { header: { alg: 'RS256' }, claims: A1_CLAIMS } };
    assert.deepEqual(core.verifyJwtRs256(A2, { keys: [A2_JWK] }), expected);
    assert.deepEqual(core.verifyJwtRs256(A2, JSON.stringify({ keys: [A2_JWK] })), expected);
  });

  test('keys are chosen by kid; keys for other uses are skipped', () => {
    const ec = { kty: 'EC', crv: 'P-256', x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU', y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0' };
    // One usable RSA key (the EC key does not count), and the header has no kid: that key is used.
    assert.equal(core.verifyJwtRs256(A2, { keys: [ec, A2_JWK] }).ok, true);
    // Two RSA keys and no kid in the header: no guessing.
    assert.equal(core.verifyJwtRs256(A2, { keys: [A2_JWK, RFC7638_JWK] }).code, 'unknown_kid');
    assert.equal(core.verifyJwtRs256(A2, { keys: [] }).code, 'unknown_kid');
    // A token without kid and one key (with or without a kid): that key is used, here the wrong one.
    assert.equal(core.verifyJwtRs256(A2, { keys: [RFC7638_JWK] }).code, 'invalid_signature');
    assert.equal(core.verifyJwtRs256(A2, { keys: [{ ...A2_JWK, kid: 'a2' }] }).ok, true);
  });

  test('alg confusion: an HS256 token is unsupported_alg, whatever its key', () => {
    assert.equal(core.verifyJwtRs256(A1, { keys: [A2_JWK] }).code, 'unsupported_alg');
    assert.equal(core.verifyJwtRs256(`${b64('{"alg":"none"}')}.${b64('{"iss":"joe"}')}.`, { keys: [A2_JWK] }).code, 'unsupported_alg');
  });

  test('a tampered payload is invalid_signature', () => {
    const [header, , signature] = A2.split('.');
    const tampered = `${header}.${b64('{"iss":"joe","exp":9999999999}')}.${signature}`;
    assert.equal(core.verifyJwtRs256(tampered, { keys: [A2_JWK] }).code, 'invalid_signature');
  });

  test('broken key sets are invalid_jwks or invalid_jwk', () => {
    assert.equal(core.verifyJwtRs256(A2, '{').code, 'invalid_jwks');
    assert.equal(core.verifyJwtRs256(A2, {}).code, 'invalid_jwks');
    assert.equal(core.verifyJwtRs256(A2, { keys: [{ ...A2_JWK, n: 'AQAB' }] }).code, 'invalid_jwk');
  });
});

describe('pkceChallenge', () => {
  test('RFC 7636 Appendix B', () => {
    assert.deepEqual(core.pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'), {
      ok: true,
      value: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    });
  });

  test('verifiers of 42 or 129 characters or with other characters are invalid_code_verifier', () => {
    for (const verifier of ['a'.repeat(42), 'a'.repeat(129), `${'a'.repeat(42)}+`, `${'a'.repeat(42)}é`]) {
      assert.equal(core.pkceChallenge(verifier).code, 'invalid_code_verifier', verifier);
    }
    assert.equal(core.pkceChallenge('a'.repeat(43)).ok, true);
    assert.equal(core.pkceChallenge('~'.repeat(128)).ok, true);
  });
});

describe('jwkThumbprint', () => {
  test('RFC 7638 §3.1, from an object or JSON text', () => {
    const expected = { ok: true, value: 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs' };
    assert.deepEqual(core.jwkThumbprint(RFC7638_JWK), expected);
    assert.deepEqual(core.jwkThumbprint(JSON.stringify(RFC7638_JWK)), expected);
  });

  test('what is not an RSA signing key is invalid_jwk', () => {
    assert.equal(core.jwkThumbprint({ kty: 'EC' }).code, 'invalid_jwk');
    assert.equal(core.jwkThumbprint('not json').code, 'invalid_jwk');
    assert.equal(core.jwkThumbprint({ ...RFC7638_JWK, use: 'enc' }).code, 'invalid_jwk');
  });
});

test('arguments of the wrong JavaScript type throw a TypeError', () => {
  assert.throws(() => core.verifyJwtHs256(A1, 42), TypeError);
  assert.throws(() => core.verifyJwtHs256(null, 'k'), TypeError);
  assert.throws(() => core.verifyJwtRs256(A2, [A2_JWK]), TypeError);
  assert.throws(() => core.verifyJwtRs256(A2, null), TypeError);
  assert.throws(() => core.pkceChallenge(undefined), TypeError);
  assert.throws(() => core.jwkThumbprint(7), TypeError);
});
