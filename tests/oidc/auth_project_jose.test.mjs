// Auth-project access tokens checked by an independent implementation: the npm `jose` library verifies
// them against the project's jwks.json (createRemoteJWKSet, as an app would), before and after a signing
// key rotation, and refuses them for another project's key set, audience or issuer.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import * as jose from 'jose';

import {
  assertBinaries,
  edgeAdmin,
  fetchClosing,
  makeTempDir,
  removeTempDir,
  startEdge,
  stopEdgeCleanly,
} from '../support/edge.mjs';

let tmp;
let edge;
let manager;

async function api(method, route, body, credential) {
  const response = await fetchClosing(`${edge.baseUrl}${route}`, {
    method,
    headers: {
      authorization: `Bearer ${credential}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const envelope = await response.json();
  return { status: response.status, data: envelope.data, error: envelope.error };
}

async function project(slug) {
  const created = await api('POST', '/api/companies/acme/auth-projects', { name: `App ${slug}`, slug }, manager);
  assert.equal(created.status, 201, created.error);
  const key = await api('POST', `/api/companies/acme/auth-projects/${created.data.id}/keys`, { name: 'server' }, manager);
  assert.equal(key.status, 201, key.error);
  return { ...created.data, key: key.data.key };
}

async function signUp(p, email) {
  const r = await api('POST', `/api/v1/auth/${p.slug}/signup`, { email, password: 'correct horse battery', name: 'J' }, p.key);
  assert.equal(r.status, 201, r.error);
  return r.data;
}

describe('auth-project access tokens verified by jose', () => {
  before(async () => {
    assertBinaries();
    tmp = await makeTempDir('auth-jose-');
    const dataDir = `${tmp}/data`;
    await edgeAdmin(dataDir, ['company', 'create', '--slug', 'acme', '--name', 'Acme']);
    manager = (
      await edgeAdmin(dataDir, ['token', 'create', '--company', 'acme', '--name', 'tests', '--permission', 'auth-projects.manage'])
    ).token;
    edge = await startEdge({ dataDir, workDir: tmp });
  });

  after(async () => {
    if (edge) await stopEdgeCleanly(edge);
    await removeTempDir(tmp);
  });

  test('jose verifies the claims against jwks.json, before and after a key rotation', async () => {
    const p = await project('jose-app');
    const jwks = jose.createRemoteJWKSet(new URL(p.jwksUrl), { [jose.customFetch]: fetchClosing });
    const first = await signUp(p, 'first@example.com');
    const { payload, protectedHeader } = await jose.jwtVerify(first.accessToken, jwks, {
      issuer: p.issuer,
      audience: p.id,
      algorithms: ['RS256'],
      requiredClaims: ['sub', 'exp', 'iat', 'sid'],
    });
    assert.equal(protectedHeader.alg, 'RS256');
    assert.equal(protectedHeader.typ, 'JWT');
    assert.equal(payload.sub, first.user.id);
    assert.equal(payload.email, 'first@example.com');
    assert.equal(payload.exp - payload.iat, 900);
    assert.match(payload.sid, /^eus_/);
    // jose's own thumbprint of the published key is its kid (RFC 7638).
    const set = await (await fetchClosing(p.jwksUrl)).json();
    assert.equal(await jose.calculateJwkThumbprint(set.keys[0], 'sha256'), protectedHeader.kid);

    const rotated = await api('POST', `/api/companies/acme/auth-projects/${p.id}/signing-keys/rotate`, null, manager);
    assert.equal(rotated.status, 200, rotated.error);
    assert.notEqual(rotated.data.kid, protectedHeader.kid);
    const second = await signUp(p, 'second@example.com');
    // A fresh key set (as an app that sees an unknown kid refetches): both tokens verify.
    const fresh = jose.createRemoteJWKSet(new URL(p.jwksUrl), { [jose.customFetch]: fetchClosing });
    const after = await jose.jwtVerify(second.accessToken, fresh, { issuer: p.issuer, audience: p.id });
    assert.equal(after.protectedHeader.kid, rotated.data.kid);
    await jose.jwtVerify(first.accessToken, fresh, { issuer: p.issuer, audience: p.id });
    // The refreshed pair is signed by the new key.
    const refreshed = await api('POST', `/api/v1/auth/${p.slug}/refresh`, { refreshToken: first.refreshToken }, p.key);
    assert.equal(refreshed.status, 200, refreshed.error);
    const again = await jose.jwtVerify(refreshed.data.accessToken, fresh, { issuer: p.issuer, audience: p.id });
    assert.equal(again.protectedHeader.kid, rotated.data.kid);
  });

  test("another project's key set, audience or issuer refuses the token", async () => {
    const a = await project('jose-a');
    const b = await project('jose-b');
    const token = (await signUp(a, 'a@example.com')).accessToken;
    const jwksB = jose.createRemoteJWKSet(new URL(b.jwksUrl), { [jose.customFetch]: fetchClosing });
    await assert.rejects(jose.jwtVerify(token, jwksB), { code: 'ERR_JWKS_NO_MATCHING_KEY' });
    const jwksA = jose.createRemoteJWKSet(new URL(a.jwksUrl), { [jose.customFetch]: fetchClosing });
    await assert.rejects(jose.jwtVerify(token, jwksA, { audience: b.id }), { code: 'ERR_JWT_CLAIM_VALIDATION_FAILED' });
    await assert.rejects(jose.jwtVerify(token, jwksA, { issuer: b.issuer }), { code: 'ERR_JWT_CLAIM_VALIDATION_FAILED' });
    // A signature byte changed.
    const [h, pl, sig] = token.split('.');
    const flipped = `${h}.${pl}.${sig.slice(0, -2)}${sig.endsWith('AA') ? 'BA' : 'AA'}`;
    await assert.rejects(jose.jwtVerify(flipped, jwksA), { code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' });
  });
});
