// The status dashboard (web/dashboard/status/, docs/status-dashboard.md) served by a real edge and driven in
// the system Chromium through playwright-core: the owner opens {status_url}/d, signs in and lands on Status ›
// Status pages; creates a page (the server's slug refusal beside the slug), adds two components and reorders
// them, creates a check (the server's interval and timeout refusals beside their fields) against a local HTTP
// server this test starts, sees the probe worker's results on the check's page, edits the check, sets the
// page's branding (the colour refusal beside the field), reads the pages in Turkish and at tablet and phone
// widths, and deletes the check, a component and the page, each after a confirmation (the API then answers
// 404). Screenshots: build/screenshots/dashboard-status-*.png.
//
// Needs: the native build of this branch (EDGE_BIN, edge-admin beside it: the /d route), `npm ci`
// (playwright-core), /usr/bin/chromium.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { assertBinaries, edgeAdmin, makeTempDir, removeTempDir, repo, screenshots, startEdge, stopEdgeCleanly } from '../support/edge.mjs';
import { launchBrowser, watchPage } from '../support/browser.mjs';

const SLUG = 'acme';
const OWNER = { email: 'ayse@acme.test', name: 'Ayşe Yılmaz', password: 'correct horse battery staple' };

let tmp;
let edge;
let base;
let target; // the local HTTP server the check probes
let targetHits = 0;
let context;
let page;
const problems = [];
const refusals = [];
const expectedRefusals = [];
const ids = {}; // pageId, websiteId, apiId, checkId

const statusApi = (rest = '') => `/api/v1/dashboard/companies/${SLUG}${rest}`;
const pagesUrl = () => `${base}/dashboard/${SLUG}/status/pages`;

// The status API with the page's own session cookie: {status, body}.
function sessionGet(route) {
  return page.evaluate(async (r) => {
    const response = await fetch(r);
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  }, route);
}

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
  await page.waitForFunction(() => !document.querySelector('.page-body [aria-busy="true"], .page-body .loading-block'));
}

async function toast(pattern) {
  await page.waitForFunction((source) => [...document.querySelectorAll('.toast')].some((el) => new RegExp(source).test(el.textContent)), pattern.source);
}

async function confirm() {
  await page.click('dialog[open] [data-action="confirm"]');
  await page.waitForSelector('dialog[open]', { state: 'detached' });
}

const fieldError = (form, name) => page.locator(`${form} [name="${name}"]`).locator('xpath=ancestor::div[contains(@class,"field")][1]').locator('.field-error');

// No part of the page is wider than the screen (tablet and phone widths).
async function assertFits() {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
}

before(async () => {
  assertBinaries();
  tmp = await makeTempDir('dashboard-status-');
  const dataDir = path.join(tmp, 'data');
  await edgeAdmin(dataDir, ['company', 'create', '--slug', SLUG, '--name', 'Acme Inc.']);
  await edgeAdmin(dataDir, ['user', 'create', '--email', OWNER.email, '--name', OWNER.name, '--password-stdin'], { input: `${OWNER.password}\n` });
  await edgeAdmin(dataDir, ['member', 'add', '--company', SLUG, '--email', OWNER.email, '--role', 'owner']);

  // The service the check watches: healthy, with a body the check can look for.
  target = http.createServer((req, res) => {
    targetHits += 1;
    if (req.url === '/health') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('all good');
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise((resolve) => target.listen(0, '127.0.0.1', resolve));

  edge = await startEdge({ dataDir, workDir: tmp, args: ['--web-root', path.join(repo, 'web'), '--mail-delivery-workers', '0'] });
  base = edge.baseUrl;
  ({ context, page } = await launchBrowser(path.join(tmp, 'profile')));
  watchPage(page, { problems, refusals });
});

after(async () => {
  await context?.close();
  await stopEdgeCleanly(edge);
  await new Promise((resolve) => target?.close(resolve) ?? resolve());
  await removeTempDir(tmp);
});

describe('status dashboard', { timeout: 240_000 }, () => {
  test('{status_url}/d signs in and opens Status › Status pages of the first company', async () => {
    await page.goto(`${base}/d`);
    assert.equal(new URL(page.url()).pathname, '/login');
    assert.equal(new URL(page.url()).searchParams.get('next'), '/d');
    await page.fill('#email', OWNER.email);
    await page.fill('#password', OWNER.password);
    await Promise.all([page.waitForURL(pagesUrl()), page.click('button[type="submit"]')]);
    await settled();
    assert.equal(await page.locator('h1').textContent(), 'Status pages');
    assert.deepEqual(await page.locator('.nav-title').allTextContents(), ['Mail', 'Auth projects', 'Status', 'Storage', 'Env vault', 'Company']);
    assert.equal(await page.locator('.nav-link[aria-current="page"]').textContent(), 'Status pages');
    assert.equal(await page.locator('#status-pages-table .empty-title').textContent(), 'No status pages yet');

    // A deep link keeps its place and its query.
    const deep = await page.request.get(`${base}/d/${SLUG}/pages?lang=en`, { maxRedirects: 0 });
    assert.equal(deep.status(), 303);
    assert.equal(deep.headers().location, `/dashboard/${SLUG}/status/pages?lang=en`);
  });

  test("creates a page: the server's slug refusal shows beside the slug", async () => {
    await page.click('[data-action="new-page"]');
    const form = '#create-page-form';
    await page.fill(`${form} [name="name"]`, 'Acme Durum Sayfası');
    assert.equal(await page.inputValue(`${form} [name="slug"]`), 'acme-durum-sayfasi');
    await page.fill(`${form} [name="slug"]`, 'Acme--Status');
    expectedRefusals.push(`422 POST ${statusApi('/pages')}`);
    await page.click(`${form} [data-role="submit"]`);
    await page.waitForSelector(`${form} .field.has-error`);
    assert.match(await fieldError(form, 'slug').textContent(), /slug/i);
    assert.equal(await page.evaluate(() => document.activeElement?.name), 'slug');

    await page.fill(`${form} [name="slug"]`, 'acme-status');
    await page.click(`${form} [data-role="submit"]`);
    await page.waitForURL(/\/status\/pages\/pg_[^/]+\/components$/);
    ids.pageId = new URL(page.url()).pathname.split('/')[5];
    await settled();
    assert.equal(await page.locator('h1').textContent(), 'Acme Durum Sayfası');
    assert.equal(await page.locator('[data-public-address]').textContent(), '/p/acme-status');
    assert.equal(await page.locator('.tab[aria-selected="true"]').textContent(), 'Components');
    const stored = await sessionGet(statusApi(`/pages/${ids.pageId}`));
    assert.equal(stored.body.slug, 'acme-status');
  });

  test('adds two components and moves the second above the first', async () => {
    for (const name of ['Website', 'API']) {
      await page.fill('#add-component-form [name="name"]', name);
      await page.click('#add-component-form [data-role="submit"]');
      await toast(new RegExp(`Component “${name}” added`));
      await page.waitForFunction((n) => [...document.querySelectorAll('.component-card .card-title')].some((el) => el.textContent === n), name);
    }
    assert.deepEqual(await page.locator('.component-card .card-title').allTextContents(), ['Website', 'API']);
    const list = (await sessionGet(statusApi(`/pages/${ids.pageId}/components`))).body;
    ids.websiteId = list.find((c) => c.name === 'Website').id;
    ids.apiId = list.find((c) => c.name === 'API').id;

    await page.click(`.component-card[data-component="${ids.apiId}"] [data-action="up"]`);
    await page.waitForFunction(() => document.querySelector('.component-card .card-title')?.textContent === 'API');
    assert.deepEqual(await page.locator('.component-card .card-title').allTextContents(), ['API', 'Website']);
    const reordered = (await sessionGet(statusApi(`/pages/${ids.pageId}/components`))).body.map((c) => c.name);
    assert.deepEqual(reordered, ['API', 'Website']);

    // Rename inline.
    await page.click(`.component-card[data-component="${ids.websiteId}"] [data-action="rename"]`);
    await page.fill(`.component-card[data-component="${ids.websiteId}"] .rename-form [name="name"]`, 'Web site');
    await page.click(`.component-card[data-component="${ids.websiteId}"] .rename-form [data-role="submit"]`);
    await page.waitForFunction((id) => document.querySelector(`.component-card[data-component="${id}"] .card-title`)?.textContent === 'Web site', ids.websiteId);
    assert.equal(await page.locator(`.component-card[data-component="${ids.websiteId}"] .empty-title`).textContent(), 'No checks yet');
    await shot('dashboard-status-components');
  });

  test("creates a check: the server's interval and timeout refusals show beside their fields", async () => {
    await page.click(`.component-card[data-component="${ids.websiteId}"] [data-action="add-check"]`);
    await page.waitForURL(new RegExp(`/checks/${ids.websiteId}/new$`));
    await settled();
    assert.equal(await page.locator('h1').textContent(), 'New check');
    const form = '#check-form';
    // The form's own rule first: name and URL are required.
    await page.click(`${form} [data-role="submit"]`);
    assert.equal(await fieldError(form, 'name').textContent(), 'Required.');

    const checksPath = statusApi(`/pages/${ids.pageId}/components/${ids.websiteId}/checks`);
    await page.fill(`${form} [name="name"]`, 'Home page');
    await page.fill(`${form} [name="url"]`, `http://127.0.0.1:${target.address().port}/health`);
    await page.fill(`${form} [name="intervalSeconds"]`, '10');
    expectedRefusals.push(`422 POST ${checksPath}`);
    await page.click(`${form} [data-role="submit"]`);
    await page.waitForSelector(`${form} .field.has-error`);
    assert.equal(await fieldError(form, 'intervalSeconds').textContent(), 'intervalSeconds must be between 30 and 3600');
    assert.equal(await page.evaluate(() => document.activeElement?.name), 'intervalSeconds');

    await page.fill(`${form} [name="intervalSeconds"]`, '30');
    await page.fill(`${form} [name="timeoutMs"]`, '45000');
    expectedRefusals.push(`422 POST ${checksPath}`);
    await page.click(`${form} [data-role="submit"]`);
    await page.waitForFunction(() => document.querySelector('#check-form [name="timeoutMs"]')?.getAttribute('aria-invalid') === 'true');
    assert.equal(await fieldError(form, 'timeoutMs').textContent(), 'timeoutMs must be positive and at most the interval');
    assert.equal(await fieldError(form, 'intervalSeconds').isVisible(), false);

    await page.fill(`${form} [name="timeoutMs"]`, '5000');
    await page.fill(`${form} [name="expectedBodyContains"]`, 'all good');
    await page.click(`${form} [data-role="submit"]`);
    await page.waitForURL(new RegExp(`/checks/${ids.websiteId}/chk_[^/]+$`));
    ids.checkId = new URL(page.url()).pathname.split('/').pop();
    await settled();
    assert.equal(await page.locator('h1').textContent(), 'Home page');
    assert.equal(await page.locator('#check-status').textContent(), 'No data yet');
    const stored = (await sessionGet(`${checksPath}/${ids.checkId}`)).body;
    assert.equal(stored.intervalSeconds, 30);
    assert.equal(stored.timeoutMs, 5000);
    assert.equal(stored.expectedBodyContains, 'all good');
    assert.equal(stored.method, 'GET');
  });

  test('shows the recent results the probe worker wrote', async () => {
    const resultsPath = statusApi(`/pages/${ids.pageId}/components/${ids.websiteId}/checks/${ids.checkId}/results`);
    // The first probe runs at the check's first grid point, within its 30 s interval.
    let results = [];
    for (let i = 0; i < 90 && !results.length; i++) {
      results = (await sessionGet(resultsPath)).body;
      if (!results.length) await sleep(500);
    }
    assert.ok(results.length > 0, 'no probe result within 45 s');
    assert.ok(targetHits > 0);
    await page.click('[data-action="refresh-results"]');
    await page.waitForSelector('#check-results tr[data-result]');
    const row = page.locator('#check-results tr[data-result]').first();
    assert.equal(await row.getAttribute('data-state'), 'operational');
    assert.equal(await row.locator('.pill').textContent(), 'Operational');
    assert.equal(await row.locator('td >> nth=2').textContent(), 'Answered as expected');
    assert.equal(await row.locator('td >> nth=3').textContent(), '200');
    assert.equal(await page.locator('#check-status').textContent(), 'Operational');
    await shot('dashboard-status-check');

    // The components tab lists the check with its status.
    await page.click('.back-link');
    await page.waitForURL(/\/components$/);
    await settled();
    const checkRow = page.locator(`tr[data-check="${ids.checkId}"]`);
    assert.equal(await checkRow.locator('.pill').textContent(), 'Operational');
    await checkRow.locator('a.row-anchor').click();
    await page.waitForURL(new RegExp(`/checks/${ids.websiteId}/${ids.checkId}$`));
    await settled();
  });

  test('edits the check', async () => {
    const form = '#check-form';
    await page.fill(`${form} [name="name"]`, 'Home page (GET)');
    await page.selectOption(`${form} [name="method"]`, 'HEAD');
    await page.fill(`${form} [name="expectedBodyContains"]`, '');
    await page.click(`${form} [data-role="submit"]`);
    await toast(/Check “Home page \(GET\)” saved/);
    assert.equal(await page.locator('h1').textContent(), 'Home page (GET)');
    const stored = (await sessionGet(statusApi(`/pages/${ids.pageId}/components/${ids.websiteId}/checks/${ids.checkId}`))).body;
    assert.equal(stored.method, 'HEAD');
    assert.equal(stored.expectedBodyContains, null);
  });

  test("sets the page's branding: the colour refusal beside the field, then saved", async () => {
    await page.goto(`${pagesUrl()}/${ids.pageId}/settings`);
    await settled();
    assert.equal(await page.locator('.tab[aria-selected="true"]').textContent(), 'Settings');
    const form = '#page-settings-form';
    await page.fill(`${form} [name="displayName"]`, 'Acme Status');
    await page.fill(`${form} [name="primaryColor"]`, 'blue');
    expectedRefusals.push(`422 PATCH ${statusApi(`/pages/${ids.pageId}`)}`);
    await page.click(`${form} [data-role="submit"]`);
    await page.waitForSelector(`${form} .field.has-error`);
    assert.equal(await fieldError(form, 'primaryColor').textContent(), "field 'primaryColor': a colour is written #rrggbb (six hex digits)");

    await page.fill(`${form} [name="primaryColor"]`, '#1F6FEB');
    await page.check(`${form} [name="subscribersEnabled"]`);
    await page.click(`${form} [data-role="submit"]`);
    await toast(/Settings saved/);
    assert.equal(await page.locator('h1').textContent(), 'Acme Status');
    const stored = (await sessionGet(statusApi(`/pages/${ids.pageId}`))).body;
    assert.equal(stored.branding.primaryColor, '#1f6feb');
    assert.equal(await page.inputValue(`${form} [name="primaryColor"]`), '#1f6feb');
    assert.equal(stored.branding.displayName, 'Acme Status');
    assert.equal(stored.branding.tagline, null);
    assert.equal(stored.subscribersEnabled, true);
    await shot('dashboard-status-settings');

    // The list shows the page with its address and subscriptions on.
    await page.click('.back-link');
    await page.waitForURL(pagesUrl());
    await settled();
    const row = page.locator(`tr[data-status-page="${ids.pageId}"]`);
    assert.equal(await row.locator('td >> nth=0').textContent(), 'Acme Status');
    assert.equal(await row.locator('td >> nth=1').textContent(), '/p/acme-status');
    assert.equal(await row.locator('td >> nth=3').textContent(), 'On');
  });

  test('reads in Turkish, and fits tablet and phone widths', async () => {
    await page.goto(`${pagesUrl()}/${ids.pageId}/components?lang=tr`);
    await settled();
    assert.equal(await page.locator('.nav-link[aria-current="page"]').textContent(), 'Durum sayfaları');
    assert.equal(await page.locator('.tab[aria-selected="true"]').textContent(), 'Bileşenler');
    assert.equal(await page.locator(`tr[data-check="${ids.checkId}"] .pill`).textContent(), 'Çalışıyor');
    assert.equal(await page.locator('#add-component-form [data-role="submit"]').textContent(), 'Bileşen ekle');
    await shot('dashboard-status-tr');
    await page.goto(`${pagesUrl()}/${ids.pageId}/components?lang=en`);
    await settled();

    for (const [name, viewport] of [['tablet', { width: 820, height: 1180 }], ['phone', { width: 390, height: 844 }]]) {
      await page.setViewportSize(viewport);
      await page.goto(`${pagesUrl()}/${ids.pageId}/components`);
      await settled();
      await assertFits();
      await shot(`dashboard-status-${name}`);
      await page.goto(`${pagesUrl()}/${ids.pageId}/checks/${ids.websiteId}/${ids.checkId}`);
      await settled();
      await assertFits();
      await shot(`dashboard-status-check-${name}`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test('deletes the check, a component and the page, each after a confirmation', async () => {
    const checkPath = statusApi(`/pages/${ids.pageId}/components/${ids.websiteId}/checks/${ids.checkId}`);
    await page.goto(`${pagesUrl()}/${ids.pageId}/checks/${ids.websiteId}/${ids.checkId}`);
    await settled();
    // Cancel keeps it.
    await page.click('[data-action="delete-check"]');
    await page.click('dialog[open] [data-action="cancel"]');
    assert.equal((await sessionGet(checkPath)).status, 200);
    await page.click('[data-action="delete-check"]');
    assert.match(await page.locator('dialog[open] .dialog-title').textContent(), /Delete check “Home page \(GET\)”\?/);
    await confirm();
    await page.waitForURL(/\/components$/);
    await settled();
    expectedRefusals.push(`404 GET ${checkPath}`);
    assert.equal((await sessionGet(checkPath)).body.error, 'check_not_found');
    assert.equal(await page.locator(`tr[data-check="${ids.checkId}"]`).count(), 0);

    await page.click(`.component-card[data-component="${ids.apiId}"] [data-action="delete-component"]`);
    await confirm();
    await page.waitForFunction((id) => !document.querySelector(`.component-card[data-component="${id}"]`), ids.apiId);
    await settled();
    assert.deepEqual(await page.locator('.component-card .card-title').allTextContents(), ['Web site']);

    await page.click('[data-action="delete-page"]');
    await confirm();
    await page.waitForURL(pagesUrl());
    await settled();
    assert.equal(await page.locator('#status-pages-table .empty-title').textContent(), 'No status pages yet');
    const pagePath = statusApi(`/pages/${ids.pageId}`);
    expectedRefusals.push(`404 GET ${pagePath}`);
    assert.equal((await sessionGet(pagePath)).body.error, 'page_not_found');

    // A deleted page's address says so instead of failing.
    await page.goto(`${pagesUrl()}/${ids.pageId}`);
    expectedRefusals.push(`404 GET ${pagePath}`);
    await settled();
    assert.equal(await page.locator('.empty-title').textContent(), 'Status page not found');
  });

  test('no page error, console error or refusal the tests did not cause', () => {
    assert.deepEqual(problems, []);
    assert.deepEqual(refusals, expectedRefusals);
  });
});
