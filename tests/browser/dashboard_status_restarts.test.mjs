// The status dashboard's Restart targets and SLA tabs (web/dashboard/status/, docs/status-dashboard.md) against
// the real API of a real edge (docs/status-restart.md, docs/status-api.md "SLA report"), driven in the system
// Chromium: an HTTP restart target bound to a check (a threshold of 0 refused beside Threshold), fired by Test
// fire at a receiver this test runs (the receiver sees the method and the auth header; the outcome and the
// firing history are shown as the API recorded them, a success and then a 500), deleted after a confirmation;
// the SLA report of a chosen period (rows and figures as the API gives them) and its CSV link. Screenshots:
// build/screenshots/dashboard-status-{restarts,sla}.png.
//
// Needs: a native build (EDGE_BIN, edge-admin beside it or EDGE_ADMIN_BIN), `npm ci` (playwright-core),
// /usr/bin/chromium.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { assertBinaries, edgeAdmin, fetchClosing, makeTempDir, removeTempDir, repo, screenshots, startEdge, stopEdgeCleanly } from '../support/edge.mjs';
import { launchBrowser, watchPage } from '../support/browser.mjs';

const SLUG = 'acme';
const OWNER = { email: 'ayse@acme.test', name: 'Ayşe Yılmaz', password: 'correct horse battery staple' };
const SECRET = 'Bearer restart-s3cret';

let tmp;
let edge;
let base;
let token;
let receiver; // the check's target and the restart endpoint
let restartStatus = 200;
const received = []; // {method, url, authorization} of each restart request
let context;
let page;
const problems = [];
const refusals = [];
const expectedRefusals = [];
const ids = {}; // pageId, apiId, websiteId, checkId, targetId

const statusApi = (rest = '') => `/api/v1/dashboard/companies/${SLUG}${rest}`;
const pagesUrl = () => `${base}/dashboard/${SLUG}/status/pages`;
const tabUrl = (tab) => `${pagesUrl()}/${ids.pageId}/${tab}`;
const number = (n) => new Intl.NumberFormat('en').format(n);

// The dashboard API with the token (set-up only; the screens use the session).
async function api(method, route, body) {
  const response = await fetchClosing(`${base}${statusApi(route)}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await response.json().catch(() => null);
  assert.ok(response.ok, `${method} ${route}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

function sessionGet(route) {
  return page.evaluate(async (r) => {
    const response = await fetch(r);
    const text = await response.text();
    return { status: response.status, type: response.headers.get('content-type'), text };
  }, route);
}
const sessionJson = async (route) => JSON.parse((await sessionGet(route)).text);

async function shot(name) {
  await mkdir(screenshots, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(250);
  const file = path.join(screenshots, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  assert.ok(existsSync(file));
}

async function settled() {
  await page.waitForSelector('.page-body[data-page="status/pages"]');
  await page.waitForFunction(() => !document.querySelector('.page-body [aria-busy="true"], .page-body .loading-block, .page-body .is-loading'));
}

async function toast(text) {
  await page.waitForFunction((wanted) => [...document.querySelectorAll('.toast')].some((el) => el.textContent.includes(wanted)), text);
}

async function confirm() {
  await page.click('dialog[open] [data-action="confirm"]');
  await page.waitForSelector('dialog[open]', { state: 'detached' });
}

const fieldError = (form, name) => page.locator(`${form} [name="${name}"]`).locator('xpath=ancestor::div[contains(@class,"field")][1]').locator('.field-error');

before(async () => {
  assertBinaries();
  tmp = await makeTempDir('dashboard-status-restarts-');
  const dataDir = path.join(tmp, 'data');
  await edgeAdmin(dataDir, ['company', 'create', '--slug', SLUG, '--name', 'Acme Inc.']);
  await edgeAdmin(dataDir, ['user', 'create', '--email', OWNER.email, '--name', OWNER.name, '--password-stdin'], { input: `${OWNER.password}\n` });
  await edgeAdmin(dataDir, ['member', 'add', '--company', SLUG, '--email', OWNER.email, '--role', 'owner']);
  ({ token } = await edgeAdmin(dataDir, ['token', 'create', '--company', SLUG, '--name', 'restart setup', '--permission', 'status.manage']));
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/restart') received.push({ method: req.method, url: req.url, authorization: req.headers.authorization });
      res.writeHead(req.url === '/restart' ? restartStatus : 200, { 'content-type': 'text/plain', connection: 'close' });
      res.end('ok');
    });
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  edge = await startEdge({ dataDir, workDir: tmp, args: ['--web-root', path.join(repo, 'web'), '--mail-delivery-workers', '0'] });
  base = edge.baseUrl;

  const statusPage = await api('POST', '/pages', { name: 'Acme Status', slug: 'acme-status' });
  ids.pageId = statusPage.id;
  ids.apiId = (await api('POST', `/pages/${ids.pageId}/components`, { name: 'API' })).id;
  ids.websiteId = (await api('POST', `/pages/${ids.pageId}/components`, { name: 'Website' })).id;
  const check = await api('POST', `/pages/${ids.pageId}/components/${ids.apiId}/checks`, {
    name: 'API health',
    url: `http://127.0.0.1:${receiver.address().port}/health`,
    intervalSeconds: 300,
    timeoutMs: 5000,
  });
  ids.checkId = check.id;

  ({ context, page } = await launchBrowser(path.join(tmp, 'profile')));
  watchPage(page, { problems, refusals });
});

after(async () => {
  await context?.close();
  await stopEdgeCleanly(edge);
  await new Promise((resolve) => receiver?.close(resolve) ?? resolve());
  await removeTempDir(tmp);
});

describe('status dashboard: restart targets and SLA', { timeout: 180_000 }, () => {
  test('signs in and creates an HTTP restart target (threshold 0 refused beside Threshold)', async () => {
    await page.goto(`${base}/login?next=${encodeURIComponent(`/dashboard/${SLUG}/status/pages`)}`);
    await page.fill('#email', OWNER.email);
    await page.fill('#password', OWNER.password);
    await Promise.all([page.waitForURL(pagesUrl()), page.click('button[type="submit"]')]);
    await settled();

    await page.goto(tabUrl('restarts'));
    await settled();
    assert.equal(await page.locator('#restart-targets-list .empty-title').textContent(), 'No restart targets');
    await page.click('[data-action="new-restart-target"]');
    const form = '#restart-target-form';
    await page.fill(`${form} [name="name"]`, 'Restart API');
    await page.selectOption(`${form} [name="checkId"]`, ids.checkId);
    assert.equal(await page.locator(`${form} [name="checkId"] option:checked`).textContent(), 'API › API health');
    await page.fill(`${form} [name="threshold"]`, '0');
    await page.fill(`${form} [name="url"]`, `http://127.0.0.1:${receiver.address().port}/restart`);
    await page.fill(`${form} [name="authHeaderValue"]`, SECRET);
    await page.click(`${form} [data-role="submit"]`);
    expectedRefusals.push(`422 POST ${statusApi(`/pages/${ids.pageId}/restart-targets`)}`);
    await fieldError(form, 'threshold').waitFor();
    assert.equal(await fieldError(form, 'threshold').textContent(), 'threshold must be between 1 and 100 consecutive failures');
    assert.deepEqual(await sessionJson(statusApi(`/pages/${ids.pageId}/restart-targets`)), []);

    await page.fill(`${form} [name="threshold"]`, '2');
    await page.click(`${form} [data-role="submit"]`);
    await toast('Restart target created.');
    await page.waitForSelector('#restart-targets-list tr[data-restart-target]');
    await settled();
    const [target] = await sessionJson(statusApi(`/pages/${ids.pageId}/restart-targets`));
    ids.targetId = target.id;
    assert.equal(target.settings.hasAuthHeader, true);
    assert.equal(target.settings.authHeaderValue, undefined);
    assert.equal(target.settings.method, 'POST');
    const row = page.locator(`#restart-targets-list tr[data-restart-target="${target.id}"]`);
    assert.deepEqual((await row.locator('td').allTextContents()).slice(0, 6), ['Restart API', 'HTTP request', 'API › API health', '2 in a row0 counted now', '600 s', 'Never']);
    assert.equal(await page.locator(form).count(), 0);
  });

  test('Test fire shows the recorded outcome; the receiver got the request with its auth header', async () => {
    const row = page.locator(`#restart-targets-list tr[data-restart-target="${ids.targetId}"]`);
    await row.locator('[data-action="test-fire"]').click();
    await page.waitForSelector('.test-outcome [data-test-outcome]');
    await settled();
    assert.deepEqual(received, [{ method: 'POST', url: '/restart', authorization: SECRET }]);
    const [firing] = await sessionJson(statusApi(`/pages/${ids.pageId}/restart-targets/${ids.targetId}/firings`));
    assert.equal(firing.status, 'succeeded');
    assert.equal(firing.manual, true);
    assert.equal(firing.detail, 'HTTP 200');
    assert.equal(firing.httpStatus, 200);
    assert.equal(await page.locator('.test-outcome [data-test-outcome]').getAttribute('data-test-outcome'), 'succeeded');
    assert.equal(await page.locator('.test-outcome [data-test-outcome]').textContent(), `“Restart API” fired successfully. HTTP 200 · ${number(firing.durationMs)} ms`);

    // The history below the list: the test fire, newest first.
    assert.equal(await page.locator('#restart-firings .card-title').textContent(), 'Firings of “Restart API”');
    let rows = page.locator('#restart-firings tr[data-firing]');
    assert.equal(await rows.count(), 1);
    assert.deepEqual((await rows.first().locator('td').allTextContents()).slice(1), ['Test fire', 'Succeeded', `HTTP 200 · ${number(firing.durationMs)} ms`]);

    // A refusing endpoint: the firing fails, with the API's detail.
    restartStatus = 500;
    await row.locator('[data-action="test-fire"]').click();
    await page.waitForSelector('.test-outcome [data-test-outcome="failed"]');
    await page.waitForFunction(() => document.querySelectorAll('#restart-firings tr[data-firing]').length === 2);
    await settled();
    const [failed, first] = await sessionJson(statusApi(`/pages/${ids.pageId}/restart-targets/${ids.targetId}/firings`));
    assert.equal(first.id, firing.id);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.detail, 'HTTP 500 (expected 200-299)');
    assert.equal(await page.locator('.test-outcome [data-test-outcome]').textContent(), `“Restart API” failed. HTTP 500 (expected 200-299) · ${number(failed.durationMs)} ms`);
    rows = page.locator('#restart-firings tr[data-firing]');
    assert.deepEqual(await rows.evaluateAll((els) => els.map((el) => el.dataset.firing)), [failed.id, firing.id]);
    assert.deepEqual((await rows.first().locator('td').allTextContents()).slice(1), ['Test fire', 'Failed', `HTTP 500 (expected 200-299) · ${number(failed.durationMs)} ms`]);
    assert.equal(received.length, 2);
    // A test fire leaves the threshold count and the cooldown alone.
    const target = await sessionJson(statusApi(`/pages/${ids.pageId}/restart-targets/${ids.targetId}`));
    assert.equal(target.consecutiveFailures, 0);
    assert.equal(target.lastFiredAt, null);
    await shot('dashboard-status-restarts');
  });

  test('deletes the target after a confirmation', async () => {
    const row = page.locator(`#restart-targets-list tr[data-restart-target="${ids.targetId}"]`);
    await row.locator('[data-action="delete-target"]').click();
    assert.equal(await page.locator('dialog[open] .dialog-title').textContent(), 'Delete restart target “Restart API”?');
    await confirm();
    await toast('Restart target “Restart API” deleted.');
    await page.waitForSelector('#restart-targets-list .empty-title');
    assert.equal(await page.locator('#restart-firings tr').count(), 0);
    assert.deepEqual(await sessionJson(statusApi(`/pages/${ids.pageId}/restart-targets`)), []);
    // Its firings stay in the check's history.
    const history = await sessionJson(statusApi(`/pages/${ids.pageId}/components/${ids.apiId}/checks/${ids.checkId}/firings`));
    assert.deepEqual(history.map((f) => f.targetName), ['Restart API', 'Restart API']);
  });

  test('SLA: a chosen period shows each component as the API reports it, and the CSV link', async () => {
    await page.goto(tabUrl('sla'));
    await settled();
    await page.fill('#sla-form [name="from"]', '2026-03-01');
    await page.fill('#sla-form [name="to"]', '2026-03-31');
    await page.click('#sla-form [data-role="submit"]');
    await page.waitForFunction(() => document.querySelector('[data-action="sla-csv"]').getAttribute('href').includes('2026-03-01'));
    await settled();
    const report = await sessionJson(statusApi(`/pages/${ids.pageId}/sla?from=2026-03-01&to=2026-03-31`));
    assert.deepEqual(report.components.map((c) => c.name), ['API', 'Website']);
    const rows = page.locator('#sla-report tr[data-component]');
    assert.deepEqual(await rows.evaluateAll((els) => els.map((el) => el.dataset.component)), [ids.apiId, ids.websiteId]);
    const minutes = (n) => `${number(n)} min`;
    for (const [i, c] of report.components.entries()) {
      assert.deepEqual(await rows.nth(i).locator('td').allTextContents(), [
        c.name,
        String(c.checks),
        c.uptime === null ? '—' : `${number(c.uptime)} %`,
        minutes(c.upMinutes),
        minutes(c.degradedMinutes),
        minutes(c.downMinutes),
        minutes(c.maintenanceMinutes),
        minutes(c.unknownMinutes),
        c.worstDay ? `${c.worstDay.date} (${number(c.worstDay.uptime)} %)` : '—',
      ]);
    }
    // Before the check existed nothing was observed: the API's figures for such a period.
    assert.deepEqual(
      report.components.map((c) => [c.name, c.checks, c.uptime, c.worstDay]),
      [['API', 1, null, null], ['Website', 0, null, null]],
    );
    assert.deepEqual((await rows.first().locator('td').allTextContents()).slice(0, 3), ['API', '1', '—']);

    const href = await page.locator('[data-action="sla-csv"]').getAttribute('href');
    assert.equal(href, statusApi(`/pages/${ids.pageId}/sla?from=2026-03-01&to=2026-03-31&format=csv`));
    const csv = await sessionGet(href);
    assert.equal(csv.status, 200);
    assert.equal(csv.type, 'text/csv; charset=utf-8');
    const lines = csv.text.split('\r\n');
    assert.equal(lines[0], 'component_id,component_name,checks,uptime_percent,up_minutes,degraded_minutes,down_minutes,maintenance_minutes,unknown_minutes,worst_day,worst_day_uptime_percent');
    assert.deepEqual(lines.slice(1, 3).map((l) => l.split(',').slice(0, 4)), [[ids.apiId, 'API', '1', ''], [ids.websiteId, 'Website', '0', '']]);
    await shot('dashboard-status-sla');
  });

  test('no page error, console error or refusal the tests did not cause', () => {
    assert.deepEqual(problems, []);
    assert.deepEqual(refusals, expectedRefusals);
  });
});
