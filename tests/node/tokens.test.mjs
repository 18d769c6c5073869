// Tokens and hashing through @platform/core (core/token.h, core/crypto.h), with randomness from
// crypto.getRandomValues handed to libsodium inside the module.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import { loadPlatformCore } from '../../bindings/index.js';

let core;
before(async () => {
  core = await loadPlatformCore();
});

describe('sha256Hex', () => {
  test('matches the FIPS 180-2 test vectors', () => {
    assert.equal(core.sha256Hex(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    assert.equal(core.sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  test('hashes the UTF-8 encoding of the text', () => {
    // "é" is C3 A9 in UTF-8; the digest is the one sha256sum prints for those two bytes.
    assert.equal(core.sha256Hex('\u00e9'), '4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c');
  });
});

describe('makeToken and hasTokenShape', () => {
  test('makes tokens of each kind that have their own shape', () => {
    const expected = {
      access_token: /^stk_[0-9a-f]{48}$/,
      env_vault_token: /^stk_env_[0-9a-f]{48}$/,
      auth_project_key: /^aps_[0-9a-f]{48}$/,
      oauth_access: /^oat_[A-Za-z0-9_-]{43}$/,
      oauth_refresh: /^ort_[A-Za-z0-9_-]{43}$/,
      oauth_code: /^oac_[A-Za-z0-9_-]{43}$/,
      session: /^ses_[A-Za-z0-9_-]{43}$/,
      csrf: /^[A-Za-z0-9_-]{43}$/,
    };
    for (const [kind, shape] of Object.entries(expected)) {
      const made = core.makeToken(kind);
      assert.equal(made.ok, true, kind);
      assert.match(made.value, shape, kind);
      assert.deepEqual(core.hasTokenShape(kind, made.value), { ok: true, value: true }, kind);
    }
  });

  test('two tokens differ (the random source is wired)', () => {
    assert.notEqual(core.makeToken('oauth_access').value, core.makeToken('oauth_access').value);
  });

  test('an env vault token is not an access token', () => {
    const token = core.makeToken('env_vault_token').value;
    assert.deepEqual(core.hasTokenShape('access_token', token), { ok: true, value: false });
    assert.deepEqual(core.hasTokenShape('access_token', 'stk_123'), { ok: true, value: false });
  });

  test('refuses an unknown kind with invalid_token_kind', () => {
    assert.deepEqual(core.makeToken('api_key'), {
      ok: false,
      code: 'invalid_token_kind',
      message: "unknown token kind 'api_key'",
    });
    assert.equal(core.hasTokenShape('api_key', 'x').code, 'invalid_token_kind');
  });
});
