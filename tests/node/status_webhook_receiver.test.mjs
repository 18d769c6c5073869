// A webhook receiver written the way a subscriber's developer would, with node's own crypto (an
// implementation independent of the platform's): it verifies `X-Service-Signature: sha256=<hex>` over the
// raw body with timingSafeEqual before parsing it (spec document 3, Authentication 5), against real
// deliveries of a running edge (docs/status-subscribers.md). The event comes from a manual incident created
// through the dashboard API, whose change writes incident.updated into the outbox.
import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import {
  assertBinaries,
  edgeAdmin,
  fetchClosing,
  makeTempDir,
  removeTempDir,
  startEdge,
  stopEdgeCleanly,
} from '../support/edge.mjs';

// The receiver's check: true only for `sha256=` + the hex HMAC-SHA256 of exactly these bytes.
function verify(rawBody, header, secret) {
  if (typeof header !== 'string' || !/^sha256=[0-9a-f]{64}$/.test(header)) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  const given = Buffer.from(header.slice('sha256='.length), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

let workDir;
let edge;
let receiver;
const deliveries = []; // {headers, raw (Buffer), verified}
let secret;

before(async () => {
  assertBinaries();
  workDir = await makeTempDir('status-webhook-');
  const dataDir = `${workDir}/data`;
  await edgeAdmin(dataDir, ['company', 'create', '--slug', 'acme', '--name', 'Acme']);
  const { token } = await edgeAdmin(dataDir, [
    'token', 'create', '--company', 'acme', '--name', 'tests', '--permission', 'status.manage',
  ]);
  receiver = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const verified = verify(raw, req.headers['x-service-signature'], secret);
      deliveries.push({ headers: req.headers, raw, verified });
      res.writeHead(verified ? 204 : 401).end();
    });
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  edge = await startEdge({
    dataDir,
    workDir,
    args: ['--status-probe-workers', '0', '--status-subscriber-poll-ms', '50'],
  });
  edge.token = token;
});

after(async () => {
  await stopEdgeCleanly(edge);
  await new Promise((resolve) => receiver?.close(resolve));
  await removeTempDir(workDir);
});

async function api(method, path, body) {
  const res = await fetchClosing(`${edge.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${edge.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

test('deliveries of a running edge verify with node crypto, and only with the subscriber token', async () => {
  const dash = '/api/v1/dashboard/companies/acme';
  const page = await api('POST', `${dash}/pages`, { name: 'Acme', slug: 'acme-status', subscribersEnabled: true });
  assert.equal(page.status, 201);

  const { port } = receiver.address();
  const sub = await fetchClosing(`${edge.baseUrl}/api/v1/status/acme-status/subscribe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'https://elsewhere.test' },
    body: JSON.stringify({ type: 'webhook', webhookUrl: `http://127.0.0.1:${port}/status-hook` }),
  });
  assert.equal(sub.status, 201);
  assert.equal(sub.headers.get('access-control-allow-origin'), '*');
  const subscription = await sub.json();
  assert.match(subscription.managementToken, /^smt_[A-Za-z0-9_-]{43}$/);
  assert.equal(subscription.webhookSecret, subscription.managementToken);
  secret = subscription.webhookSecret;

  const incident = await api('POST', `${dash}/pages/${page.json.id}/incidents`, {
    title: { tr: 'Ödeme hatası', en: 'Payments failing' },
    impact: 'major',
    status: 'investigating',
    body: { tr: 'İnceliyoruz.', en: 'We are looking into it.' },
  });
  assert.equal(incident.status, 201, JSON.stringify(incident.json));

  for (let i = 0; i < 200 && deliveries.length === 0; i++) await sleep(50);
  assert.equal(deliveries.length, 1);
  const [d] = deliveries;
  assert.equal(d.verified, true);
  assert.equal(d.headers['x-service-event'], 'incident.updated');
  assert.equal(d.headers['content-type'], 'application/json');

  // Parsed only after the check; the spec's body.
  const body = JSON.parse(d.raw.toString('utf8'));
  assert.equal(body.event, 'incident.updated');
  assert.equal(body.pageSlug, 'acme-status');
  assert.match(body.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.equal(body.data.incidentId, incident.json.id);
  assert.deepEqual(body.data.incidentTitle, { tr: 'Ödeme hatası', en: 'Payments failing' });
  assert.equal(body.data.impact, 'major');
  assert.equal(body.data.update.status, 'investigating');
  assert.deepEqual(body.data.update.body, { tr: 'İnceliyoruz.', en: 'We are looking into it.' });

  // The same check refuses another key, a changed byte, and a header of the wrong form.
  const header = d.headers['x-service-signature'];
  assert.equal(verify(d.raw, header, `${secret}x`), false);
  const tampered = Buffer.from(d.raw);
  tampered[tampered.length - 2] ^= 1;
  assert.equal(verify(tampered, header, secret), false);
  assert.equal(verify(d.raw, header.toUpperCase(), secret), false);
  assert.equal(verify(d.raw, header.replace('sha256=', ''), secret), false);

  // The delivery log of the dashboard agrees: delivered at the first attempt.
  const subs = await api('GET', `${dash}/pages/${page.json.id}/subscribers`);
  assert.equal(subs.status, 200);
  assert.equal(subs.json.length, 1);
  assert.equal(JSON.stringify(subs.json).includes(secret), false);
  // The attempt is recorded right after the receiver answered.
  let log;
  for (let i = 0; i < 100; i++) {
    log = await api('GET', `${dash}/pages/${page.json.id}/subscribers/${subs.json[0].id}/deliveries`);
    if (log.status !== 200 || log.json[0]?.status !== 'pending') break;
    await sleep(20);
  }
  assert.equal(log.status, 200);
  assert.equal(log.json.length, 1);
  assert.equal(log.json[0].status, 'delivered');
  assert.equal(log.json[0].attempts, 1);
  assert.equal(log.json[0].id, d.headers['x-service-delivery']);
});
