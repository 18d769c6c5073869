// The @platform/core package's verifyJwt and createRemoteJwks checked against jose (jwtVerify,
// createRemoteJWKSet) on the platform's own tokens, from a running edge:
// - the OAuth provider's id_tokens, RS256 with a configured RSA key (against the served jwks.json) and
//   HS256 with OAUTH_ID_TOKEN_SECRET, each obtained through a real authorization-code flow (openid-client as
//   the relying party, the browser's part played over HTTP by tests/support/edge.mjs);
// - auth-project access tokens (signup on a created project, against the project's jwks.json), also across a
//   signing-key rotation.
// Each token is also tampered with, checked after its expiry (through `now` / currentDate) and against the
// wrong issuer, audience or key set: both libraries must accept and refuse the same tokens.
//
// Needs: `npm ci` (jose, openid-client), openssl, edge + edge-admin (EDGE_BIN, default
// build/native/edge/edge) and the wasm build (docs/wasm.md). Run: node --test tests/oidc/
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import * as jose from 'jose';
import * as oidc from 'openid-client';

import { createRemoteJwks, verifyJwt } from '../../bindings/tokens.js';
import {
  CookieJar,
  assertBinaries,
  authorizeInBrowser,
  edgeAdmin,
  fetchClosing,
  generateRsaKey,
  makeTempDir,
  removeTempDir,
  seed,
  startEdge,
  stopEdgeCleanly,
} from '../support/edge.mjs';

const REDIRECT_URI = 'https://notes.acme.test/oidc/callback';
const SCOPES = ['openid', 'profile', 'email'];

// A fetch that counts its requests (and closes each connection, so that edge stops at once).
function countingFetch() {
  const counted = (url, init) => {
    counted.requests += 1;
    return fetchClosing(url, init);
  };
  counted.requests = 0;
  return counted;
}

// The key of each library for the same source: a secret, or the same jwks.json URL fetched by each.
function keysFor({ secret, jwksUrl, cooldownMs }) {
  if (secret !== undefined) return { joseKey: new TextEncoder().encode(secret), ours: { secret } };
  const joseFetch = countingFetch();
  const ourFetch = countingFetch();
  const joseKey = jose.createRemoteJWKSet(new URL(jwksUrl), {
    [jose.customFetch]: joseFetch,
    ...(cooldownMs === undefined ? {} : { cooldownDuration: cooldownMs }),
  });
  return { joseKey, joseFetch, ours: { jwks: createRemoteJwks(jwksUrl, { fetch: ourFetch, cooldownMs }) }, ourFetch };
}

// Runs both libraries on one token with the same expectations; asserts that they agree and answers both.
async function decide(token, keys, { issuer, audience, now, algorithms, clockToleranceSeconds }) {
  let joseAnswer;
  try {
    joseAnswer = await jose.jwtVerify(token, keys.joseKey, {
      issuer,
      audience,
      algorithms,
      clockTolerance: clockToleranceSeconds,
      currentDate: now === undefined ? undefined : new Date(now * 1000),
    });
  } catch (error) {
    joseAnswer = { error };
  }
  const ours = await verifyJwt(token, { ...keys.ours, issuer, audience, now, algorithms, clockToleranceSeconds });
  const joseAccepts = !joseAnswer.error;
  assert.equal(
    ours.ok,
    joseAccepts,
    `verifyJwt ${JSON.stringify(ours)} but jose ${joseAccepts ? 'accepted' : `refused (${joseAnswer.error.code})`}`,
  );
  if (ours.ok) {
    assert.deepEqual(ours.value.payload, joseAnswer.payload);
    assert.deepEqual(ours.value.header, joseAnswer.protectedHeader);
  }
  return { ours, jose: joseAnswer };
}

const decode = (token) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url'));

// Every variation both libraries must judge alike; answers verifyJwt's codes by case.
async function crossCheck(token, keys, { issuer, audience, algorithm }) {
  const claims = decode(token);
  const [header, payload, signature] = token.split('.');
  const swapped = Buffer.from(JSON.stringify({ ...claims, sub: 'usr_someone_else' })).toString('base64url');
  const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BA' : 'AA'}`;
  const expected = { issuer, audience, algorithms: [algorithm] };
  const cases = {
    as_issued: [token, expected],
    without_expectations: [token, {}],
    audience_in_a_list: [token, { ...expected, audience: ['someone-else', audience] }],
    tampered_payload: [`${header}.${swapped}.${signature}`, expected],
    tampered_signature: [`${header}.${payload}.${flipped}`, expected],
    expired: [token, { ...expected, now: claims.exp }],
    expired_within_tolerance: [token, { ...expected, now: claims.exp + 9, clockToleranceSeconds: 10 }],
    expired_past_tolerance: [token, { ...expected, now: claims.exp + 10, clockToleranceSeconds: 10 }],
    wrong_issuer: [token, { ...expected, issuer: `${issuer}/evil` }],
    wrong_audience: [token, { ...expected, audience: 'someone-else' }],
    other_algorithm: [token, { ...expected, algorithms: [algorithm === 'RS256' ? 'HS256' : 'RS256'] }],
  };
  const codes = {};
  for (const [name, [text, options]] of Object.entries(cases)) {
    const { ours } = await decide(text, keys, options);
    codes[name] = ours.ok ? 'ok' : ours.code;
  }
  return codes;
}

const EXPECTED_CODES = {
  as_issued: 'ok',
  without_expectations: 'ok',
  audience_in_a_list: 'ok',
  tampered_payload: 'invalid_signature',
  tampered_signature: 'invalid_signature',
  expired: 'token_expired',
  expired_within_tolerance: 'ok',
  expired_past_tolerance: 'token_expired',
  wrong_issuer: 'invalid_issuer',
  wrong_audience: 'invalid_audience',
  other_algorithm: 'unsupported_alg',
};

// An id_token through the authorization-code flow with PKCE, state and nonce.
async function idTokenFrom(edge, seeded) {
  const config = await oidc.discovery(
    new URL(edge.baseUrl),
    seeded.client.clientId,
    undefined,
    oidc.ClientSecretBasic(seeded.client.clientSecret),
    { execute: [oidc.allowInsecureRequests], [oidc.customFetch]: fetchClosing },
  );
  const checks = {
    pkceCodeVerifier: oidc.randomPKCECodeVerifier(),
    expectedState: oidc.randomState(),
    expectedNonce: oidc.randomNonce(),
  };
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope: SCOPES.join(' '),
    code_challenge: await oidc.calculatePKCECodeChallenge(checks.pkceCodeVerifier),
    code_challenge_method: 'S256',
    state: checks.expectedState,
    nonce: checks.expectedNonce,
  });
  const { location } = await authorizeInBrowser(new CookieJar(), url, { email: seeded.email, password: seeded.password });
  const tokens = await oidc.authorizationCodeGrant(config, location, { ...checks, idTokenExpected: true });
  return { idToken: tokens.id_token, metadata: config.serverMetadata() };
}

// Starts an edge for the OAuth provider with `env`, seeded with a company, its owner and a client.
async function providerEdge(tmp, env) {
  const dataDir = path.join(tmp, 'data');
  await mkdir(dataDir);
  const seeded = await seed(dataDir, { redirectUris: [REDIRECT_URI], scopes: SCOPES });
  const manager = (
    await edgeAdmin(dataDir, ['token', 'create', '--company', 'acme', '--name', 'tests', '--permission', 'auth-projects.manage'])
  ).token;
  const edge = await startEdge({ dataDir, workDir: tmp, env });
  return { edge, seeded, manager };
}

describe('verifyJwt and jose agree on RS256 id_tokens and auth-project access tokens', { timeout: 180_000 }, () => {
  let tmp;
  let edge;
  let seeded;
  let manager;

  async function api(method, route, body, credential) {
    const response = await fetchClosing(`${edge.baseUrl}${route}`, {
      method,
      headers: { authorization: `Bearer ${credential}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const envelope = await response.json();
    return { status: response.status, data: envelope.data, error: envelope.error };
  }

  async function authProject(slug) {
    const created = await api('POST', '/api/companies/acme/auth-projects', { name: `App ${slug}`, slug }, manager);
    assert.equal(created.status, 201, created.error);
    const key = await api('POST', `/api/companies/acme/auth-projects/${created.data.id}/keys`, { name: 'server' }, manager);
    assert.equal(key.status, 201, key.error);
    return { ...created.data, key: key.data.key };
  }

  async function signUp(project, email) {
    const body = { email, password: 'correct horse battery', name: 'Jo' };
    const r = await api('POST', `/api/v1/auth/${project.slug}/signup`, body, project.key);
    assert.equal(r.status, 201, r.error);
    return r.data;
  }

  before(async () => {
    assertBinaries();
    tmp = await makeTempDir('package-jose-rs256-');
    const pem = await generateRsaKey(path.join(tmp, 'key.pem'));
    ({ edge, seeded, manager } = await providerEdge(tmp, { OAUTH_RSA_PRIVATE_KEY: pem }));
  });

  after(async () => {
    try {
      await stopEdgeCleanly(edge);
    } finally {
      await removeTempDir(tmp);
    }
  });

  test('the OAuth provider\'s RS256 id_token, against its jwks.json', async () => {
    const { idToken, metadata } = await idTokenFrom(edge, seeded);
    assert.equal(JSON.parse(Buffer.from(idToken.split('.')[0], 'base64url')).alg, 'RS256');
    const keys = keysFor({ jwksUrl: metadata.jwks_uri });
    const codes = await crossCheck(idToken, keys, {
      issuer: metadata.issuer,
      audience: seeded.client.clientId,
      algorithm: 'RS256',
    });
    assert.deepEqual(codes, EXPECTED_CODES);
    // One fetch of the key set for every verification, as jose.
    assert.equal(keys.ourFetch.requests, 1);
    assert.equal(keys.joseFetch.requests, 1);
    // The payload both answered is the one openid-client was given.
    const { ours } = await decide(idToken, keys, { issuer: metadata.issuer, audience: seeded.client.clientId });
    assert.equal(ours.value.payload.sub, seeded.user.id);
    assert.equal(ours.value.header.kid, (await (await fetchClosing(metadata.jwks_uri)).json()).keys[0].kid);
  });

  test('an auth project\'s access token, against the project\'s jwks.json', async () => {
    const project = await authProject('package-app');
    const { accessToken } = await signUp(project, 'first@example.com');
    const keys = keysFor({ jwksUrl: project.jwksUrl });
    const codes = await crossCheck(accessToken, keys, { issuer: project.issuer, audience: project.id, algorithm: 'RS256' });
    assert.deepEqual(codes, EXPECTED_CODES);
    assert.equal(keys.ourFetch.requests, 1);

    // Another project's key set has no key with this kid: both refuse (key_not_found here).
    const other = await authProject('package-other');
    const otherKeys = keysFor({ jwksUrl: other.jwksUrl });
    const { ours } = await decide(accessToken, otherKeys, { issuer: project.issuer, audience: project.id });
    assert.equal(ours.code, 'key_not_found');
    // And the other project's token is refused by the first project's set.
    const otherToken = (await signUp(other, 'other@example.com')).accessToken;
    assert.equal((await decide(otherToken, keys, {})).ours.code, 'key_not_found');
  });

  test('after a signing-key rotation both refetch the set for the new kid (no cooldown)', async () => {
    const project = await authProject('package-rotation');
    const before = (await signUp(project, 'before@example.com')).accessToken;
    const keys = keysFor({ jwksUrl: project.jwksUrl, cooldownMs: 0 });
    const expected = { issuer: project.issuer, audience: project.id };
    assert.equal((await decide(before, keys, expected)).ours.ok, true);
    assert.equal(keys.ourFetch.requests, 1);

    const rotated = await api('POST', `/api/companies/acme/auth-projects/${project.id}/signing-keys/rotate`, null, manager);
    assert.equal(rotated.status, 200, rotated.error);
    const afterRotation = (await signUp(project, 'after@example.com')).accessToken;
    const { ours } = await decide(afterRotation, keys, expected);
    assert.equal(ours.value.header.kid, rotated.data.kid);
    assert.equal(keys.ourFetch.requests, 2);
    assert.equal(keys.joseFetch.requests, 2);
    // The old key is still published: the token from before the rotation verifies from the refreshed set.
    assert.equal((await decide(before, keys, expected)).ours.ok, true);
    assert.equal(keys.ourFetch.requests, 2);
  });
});

describe('verifyJwt and jose agree on HS256 id_tokens', { timeout: 180_000 }, () => {
  const secret = randomBytes(32).toString('hex');
  let tmp;
  let edge;
  let seeded;

  before(async () => {
    assertBinaries();
    tmp = await makeTempDir('package-jose-hs256-');
    ({ edge, seeded } = await providerEdge(tmp, { OAUTH_ID_TOKEN_SECRET: secret }));
  });

  after(async () => {
    try {
      await stopEdgeCleanly(edge);
    } finally {
      await removeTempDir(tmp);
    }
  });

  test('the OAuth provider\'s HS256 id_token, with OAUTH_ID_TOKEN_SECRET', async () => {
    const { idToken, metadata } = await idTokenFrom(edge, seeded);
    assert.equal(JSON.parse(Buffer.from(idToken.split('.')[0], 'base64url')).alg, 'HS256');
    const codes = await crossCheck(idToken, keysFor({ secret }), {
      issuer: metadata.issuer,
      audience: seeded.client.clientId,
      algorithm: 'HS256',
    });
    assert.deepEqual(codes, EXPECTED_CODES);

    // Another secret: invalid_signature. The served key set (empty in HS256 mode) cannot verify it.
    const wrong = await decide(idToken, keysFor({ secret: randomBytes(32).toString('hex') }), {});
    assert.equal(wrong.ours.code, 'invalid_signature');
    const served = await decide(idToken, keysFor({ jwksUrl: `${edge.baseUrl}/.well-known/jwks.json` }), {});
    assert.equal(served.ours.code, 'unsupported_alg');
  });
});
