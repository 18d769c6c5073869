// createRemoteJwks of @platform/core/tokens against a local node HTTP server that publishes a JWK Set and
// counts its requests: one fetch serves many verifications (also concurrent ones), an unknown kid refetches
// at most once per cooldown, a stale set is fetched again, failures are reported and not cached.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, beforeEach, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { createRemoteJwks, JwksError, verifyJwt } from '../../bindings/tokens.js';
import { claims, NOW, rs256, rsaKey } from './jwt_fixtures.mjs';

let server;
let url;
let requests = 0;
// What the server answers next: the status, the body and a delay before answering.
let answer;

let keyA;
let keyB;
let keyZ; // never published
const setOf = (...keys) => JSON.stringify({ keys: keys.map((key) => key.jwk) });

before(async () => {
  keyA = rsaKey('a');
  keyB = rsaKey('b');
  keyZ = rsaKey('z');
  server = http.createServer(async (req, res) => {
    requests += 1;
    const { status, body, delayMs, hang } = answer;
    if (hang) return; // never answers
    if (delayMs) await sleep(delayMs);
    res.writeHead(status, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${server.address().port}/.well-known/jwks.json`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  requests = 0;
  answer = { status: 200, body: setOf(keyA) };
});

const verify = (token, jwks) => verifyJwt(token, { jwks, now: NOW + 1, issuer: 'https://auth.example' });

describe('createRemoteJwks', () => {
  test('one fetch serves many verifications, sequential and concurrent', async () => {
    answer.delayMs = 50;
    const jwks = createRemoteJwks(url);
    const token = rs256(claims(), keyA);
    const concurrent = await Promise.all(Array.from({ length: 10 }, () => verify(token, jwks)));
    assert.ok(concurrent.every((result) => result.ok));
    for (let i = 0; i < 10; i += 1) assert.equal((await verify(token, jwks)).ok, true);
    assert.equal(requests, 1);
  });

  test('an unknown kid refetches once, and the rotated key verifies', async () => {
    const jwks = createRemoteJwks(url, { cooldownMs: 0 });
    assert.equal((await verify(rs256(claims(), keyA), jwks)).ok, true);
    answer.body = setOf(keyA, keyB);
    assert.equal((await verify(rs256(claims(), keyB), jwks)).ok, true);
    assert.equal(requests, 2);
    // Both keys known now: no more fetches.
    assert.equal((await verify(rs256(claims(), keyA), jwks)).ok, true);
    assert.equal((await verify(rs256(claims(), keyB), jwks)).ok, true);
    assert.equal(requests, 2);
  });

  test('unknown kids within the cooldown cost no fetch; after it, one', async () => {
    const jwks = createRemoteJwks(url, { cooldownMs: 300 });
    assert.equal((await verify(rs256(claims(), keyA), jwks)).ok, true);
    answer.body = setOf(keyA, keyB);
    const stranger = rs256(claims(), keyZ);
    for (let i = 0; i < 5; i += 1) assert.equal((await verify(stranger, jwks)).code, 'key_not_found');
    assert.equal((await verify(rs256(claims(), keyB), jwks)).code, 'key_not_found'); // the set is not fetched yet
    assert.equal(requests, 1);
    await sleep(350);
    assert.equal((await verify(rs256(claims(), keyB), jwks)).ok, true);
    assert.equal(requests, 2);
    assert.equal((await verify(stranger, jwks)).code, 'key_not_found');
    assert.equal(requests, 2);
  });

  test('a set older than cacheMaxAgeMs is fetched again before use', async () => {
    const jwks = createRemoteJwks(url, { cacheMaxAgeMs: 100 });
    assert.deepEqual(await jwks(), JSON.parse(setOf(keyA)));
    assert.deepEqual(await jwks(), JSON.parse(setOf(keyA)));
    assert.equal(requests, 1);
    await sleep(150);
    answer.body = setOf(keyB);
    assert.deepEqual(await jwks(), JSON.parse(setOf(keyB)));
    assert.equal(requests, 2);
  });

  test('concurrent reloads share one request', async () => {
    const jwks = createRemoteJwks(url, { cooldownMs: 0 });
    await jwks();
    answer.delayMs = 50;
    await Promise.all([jwks({ reload: true }), jwks({ reload: true }), jwks({ reload: true })]);
    assert.equal(requests, 2);
  });

  test('jwks_fetch_failed for an HTTP error, a refused connection or a timeout; not cached', async () => {
    answer = { status: 500, body: '{"error":"down"}' };
    const jwks = createRemoteJwks(url);
    const token = rs256(claims(), keyA);
    const failed = await verify(token, jwks);
    assert.equal(failed.code, 'jwks_fetch_failed');
    assert.equal(failed.message, `the JWK Set at ${url} answered HTTP 500`);
    answer = { status: 200, body: setOf(keyA) };
    assert.equal((await verify(token, jwks)).ok, true); // the failure was not cached
    assert.equal(requests, 2);

    const refused = createRemoteJwks('http://127.0.0.1:1/jwks.json');
    assert.equal((await verify(token, refused)).code, 'jwks_fetch_failed');

    answer = { hang: true };
    const slow = createRemoteJwks(url, { timeoutMs: 100 });
    const started = Date.now();
    const timedOut = await verify(token, slow);
    assert.equal(timedOut.code, 'jwks_fetch_failed');
    assert.ok(Date.now() - started < 2000);
  });

  test('jwks_invalid for a body that is not JSON or not a key set, or a key the core cannot read', async () => {
    const token = rs256(claims(), keyA);
    for (const body of ['<html>', '[]', '{"keys":{}}', 'null']) {
      answer.body = body;
      const result = await verify(token, createRemoteJwks(url));
      assert.equal(result.code, 'jwks_invalid', body);
    }
    answer.body = JSON.stringify({ keys: [{ ...keyA.jwk, n: 'AQAB' }] });
    assert.equal((await verify(token, createRemoteJwks(url))).code, 'jwks_invalid');
  });

  test('called directly it answers the set or rejects with a JwksError', async () => {
    const jwks = createRemoteJwks(new URL(url));
    assert.deepEqual(await jwks(), JSON.parse(setOf(keyA)));
    answer.status = 404;
    await assert.rejects(createRemoteJwks(url)(), (error) => {
      assert.ok(error instanceof JwksError);
      assert.equal(error.code, 'jwks_fetch_failed');
      return true;
    });
  });

  test('uses the fetch it is given', async () => {
    const seen = [];
    const jwks = createRemoteJwks(url, {
      fetch: (target, init) => {
        seen.push([target, init.headers.accept]);
        return fetch(target, init);
      },
    });
    assert.equal((await verify(rs256(claims(), keyA), jwks)).ok, true);
    assert.deepEqual(seen, [[url, 'application/json']]);
  });
});
