// The status dashboard's Incidents, Maintenance and Subscribers tabs (web/dashboard/status/, docs/status-
// dashboard.md) against the real API of a real edge (docs/status-incidents.md, docs/status-subscribers.md),
// driven in the system Chromium: an incident opened with English and Turkish texts on a component, updated
// through identified, monitoring and resolved (a step back refused beside Status), a maintenance window
// scheduled, started now and marked complete, another cancelled (an end already past refused beside End),
// and a webhook subscriber (subscribed through the public API to a receiver this test runs) and an e-mail one
// (awaiting confirmation) listed with type, topic, components, language and state, then removed. Screenshots:
// build/screenshots/dashboard-status-{incidents,maintenance,subscribers}.png.
//
// Needs: the native build of this branch (EDGE_BIN, edge-admin beside it), `npm ci` (playwright-core),
// /usr/bin/chromium.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { assertBinaries, edgeAdmin, makeTempDir, removeTempDir, repo, screenshots, startEdge, stopEdgeCleanly } from '../support/edge.mjs';
import { launchBrowser, watchPage } from '../support/browser.mjs';

const SLUG = 'acme';
const PAGE_SLUG = 'acme-status';
const OWNER = { email: 'ayse@acme.test', name: 'Ayşe Yılmaz', password: 'correct horse battery staple' };

let tmp;
let edge;
let base;
let receiver; // the webhook subscriber's receiver
let context;
let page;
const problems = [];
const refusals = [];
const expectedRefusals = [];
const ids = {}; // pageId, websiteId, apiId, incidentId

const statusApi = (rest = '') => `/api/v1/dashboard/companies/${SLUG}${rest}`;
const pagesUrl = () => `${base}/dashboard/${SLUG}/status/pages`;
const tabUrl = (tab) => `${pagesUrl()}/${ids.pageId}/${tab}`;

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

// A datetime-local value (the browser's and this process's local time) `minutes` from now.
function localTime(minutes) {
  const d = new Date(Date.now() + minutes * 60_000);
  const p = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

before(async () => {
  assertBinaries();
  tmp = await makeTempDir('dashboard-status-incidents-');
  const dataDir = path.join(tmp, 'data');
  await edgeAdmin(dataDir, ['company', 'create', '--slug', SLUG, '--name', 'Acme Inc.']);
  await edgeAdmin(dataDir, ['user', 'create', '--email', OWNER.email, '--name', OWNER.name, '--password-stdin'], { input: `${OWNER.password}\n` });
  await edgeAdmin(dataDir, ['member', 'add', '--company', SLUG, '--email', OWNER.email, '--role', 'owner']);
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(204);
      res.end();
    });
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  edge = await startEdge({ dataDir, workDir: tmp, args: [
      '--web-root', path.join(repo, 'web'), '--mail-delivery-workers', '0',
      // E-mail subscriptions need a relay; with no sender the confirmation mail stays queued (never sent).
      '--status-smtp-relay', '127.0.0.1:9', '--status-subscriber-workers', '0',
    ],
  });
  base = edge.baseUrl;
  ({ context, page } = await launchBrowser(path.join(tmp, 'profile')));
  watchPage(page, { problems, refusals });
});

after(async () => {
  await context?.close();
  await stopEdgeCleanly(edge);
  await new Promise((resolve) => receiver?.close(resolve) ?? resolve());
  await removeTempDir(tmp);
});

describe('status dashboard: incidents, maintenance, subscribers', { timeout: 240_000 }, () => {
  test('signs in, creates a page with two components and turns subscriptions on', async () => {
    await page.goto(`${base}/login?next=${encodeURIComponent(`/dashboard/${SLUG}/status/pages`)}`);
    await page.fill('#email', OWNER.email);
    await page.fill('#password', OWNER.password);
    await Promise.all([page.waitForURL(pagesUrl()), page.click('button[type="submit"]')]);
    await settled();
    await page.click('[data-action="new-page"]');
    await page.fill('#create-page-form [name="name"]', 'Acme Status');
    await page.fill('#create-page-form [name="slug"]', PAGE_SLUG);
    await page.click('#create-page-form [data-role="submit"]');
    await page.waitForURL(/\/status\/pages\/pg_[^/]+\/components$/);
    ids.pageId = new URL(page.url()).pathname.split('/')[5];
    await settled();
    for (const name of ['Website', 'API']) {
      await page.fill('#add-component-form [name="name"]', name);
      await page.click('#add-component-form [data-role="submit"]');
      await toast(`Component “${name}” added`);
    }
    const list = (await sessionGet(statusApi(`/pages/${ids.pageId}/components`))).body;
    ids.websiteId = list.find((c) => c.name === 'Website').id;
    ids.apiId = list.find((c) => c.name === 'API').id;

    await page.goto(tabUrl('settings'));
    await settled();
    await page.check('#page-settings-form [name="subscribersEnabled"]');
    await page.click('#page-settings-form [data-role="submit"]');
    await toast('Settings saved');
    assert.equal((await sessionGet(statusApi(`/pages/${ids.pageId}`))).body.subscribersEnabled, true);
  });

  test('opens an incident with English and Turkish texts on a component', async () => {
    await page.goto(tabUrl('incidents'));
    await settled();
    assert.equal(await page.locator('.tab[aria-selected="true"]').textContent(), 'Incidents');
    assert.equal(await page.locator('#incidents-list .empty-title').textContent(), 'No incidents');

    await page.click('[data-action="new-incident"]');
    const form = '#incident-form';
    await page.fill(`${form} [name="title_en"]`, 'Website unreachable');
    await page.fill(`${form} [name="title_tr"]`, 'Web sitesine erişilemiyor');
    await page.selectOption(`${form} [name="impact"]`, 'major');
    await page.check(`${form} input[data-component="${ids.websiteId}"]`);
    await page.fill(`${form} [name="body_en"]`, 'We are looking into it.');
    await page.fill(`${form} [name="body_tr"]`, 'İnceliyoruz.');
    await page.click(`${form} [data-role="submit"]`);
    await toast('Incident opened.');
    await page.waitForSelector('.incident-card');
    await settled();

    const incidents = (await sessionGet(statusApi(`/pages/${ids.pageId}/incidents`))).body;
    assert.equal(incidents.length, 1);
    const stored = incidents[0];
    ids.incidentId = stored.id;
    assert.deepEqual(stored.title, { tr: 'Web sitesine erişilemiyor', en: 'Website unreachable' });
    assert.equal(stored.impact, 'major');
    assert.equal(stored.status, 'investigating');
    assert.equal(stored.source, 'manual');
    assert.deepEqual(stored.affectedComponentIds, [ids.websiteId]);
    assert.deepEqual(stored.updates.map((u) => u.body), [{ tr: 'İnceliyoruz.', en: 'We are looking into it.' }]);

    const card = page.locator(`.incident-card[data-incident="${ids.incidentId}"]`);
    assert.equal(await card.getAttribute('data-state'), 'investigating');
    assert.equal(await card.locator('.card-title').textContent(), 'Website unreachable');
    assert.deepEqual(await card.locator('.incident-meta .pill').allTextContents(), ['Investigating', 'Major']);
    assert.equal(await card.locator('.incident-components').textContent(), 'Affected components: Website');
    assert.deepEqual(await card.locator('.update .update-body').allTextContents(), ['We are looking into it.', 'İnceliyoruz.']);
    assert.equal(await page.locator('#incidents-list h3').first().textContent(), 'Open incidents (1)');
  });

  async function postUpdate(status, en, tr) {
    const card = page.locator(`.incident-card[data-incident="${ids.incidentId}"]`);
    await card.locator('[data-action="post-update"]').click();
    await card.locator('.update-form [name="status"]').selectOption(status);
    await card.locator('.update-form [name="body_en"]').fill(en);
    await card.locator('.update-form [name="body_tr"]').fill(tr);
    await card.locator('.update-form [data-role="submit"]').click();
  }

  test('posts updates through identified, monitoring and resolved; a step back is refused beside Status', async () => {
    const card = page.locator(`.incident-card[data-incident="${ids.incidentId}"]`);
    const steps = [
      ['identified', 'Identified', 'A bad deploy; rolling back.', 'Hatalı bir sürüm; geri alıyoruz.'],
      ['monitoring', 'Monitoring', 'Rolled back; watching.', 'Geri alındı; izliyoruz.'],
    ];
    for (const [status, word, en, tr] of steps) {
      await postUpdate(status, en, tr);
      await toast('Update posted.');
      await page.waitForFunction(([id, s]) => document.querySelector(`.incident-card[data-incident="${id}"]`)?.dataset.state === s, [ids.incidentId, status]);
      await settled();
      assert.equal(await card.locator('.incident-meta .pill').first().textContent(), word);
      assert.equal(await card.locator('.update').first().getAttribute('data-state'), status);
      assert.deepEqual(await card.locator('.update').first().locator('.update-body').allTextContents(), [en, tr]);
    }

    // Back to investigating: the server's 409 beside Status, and nothing changes.
    const updatesPath = statusApi(`/pages/${ids.pageId}/incidents/${ids.incidentId}/updates`);
    expectedRefusals.push(`409 POST ${updatesPath}`);
    await postUpdate('investigating', 'Looking again.', 'Yeniden bakıyoruz.');
    await page.waitForSelector('.update-form .field.has-error');
    assert.equal(await fieldError('.update-form', 'status').textContent(), 'an incident cannot go back from monitoring to investigating');
    assert.equal(await page.evaluate(() => document.activeElement?.name), 'status');
    assert.equal((await sessionGet(statusApi(`/pages/${ids.pageId}/incidents/${ids.incidentId}`))).body.updates.length, 3);
    await shot('dashboard-status-incidents');

    await card.locator('.update-form [name="status"]').selectOption('resolved');
    await card.locator('.update-form [name="body_en"]').fill('Fixed.');
    await card.locator('.update-form [name="body_tr"]').fill('Düzeldi.');
    await card.locator('.update-form [data-role="submit"]').click();
    await toast('Update posted.');
    await page.waitForFunction((id) => document.querySelector(`.incident-card[data-incident="${id}"]`)?.dataset.state === 'resolved', ids.incidentId);
    await settled();
    assert.deepEqual(await page.locator('#incidents-list h3').allTextContents(), ['Open incidents (0)', 'Resolved']);
    assert.equal(await page.locator('#incidents-list p.muted').first().textContent(), 'Nothing is open. All quiet.');
    assert.equal(await card.locator('[data-action="post-update"]').count(), 0);
    assert.deepEqual(await card.locator('.update').evaluateAll((els) => els.map((el) => el.dataset.state)), ['resolved', 'monitoring', 'identified', 'investigating']);
    assert.deepEqual(await card.locator('.update').first().locator('.update-body').allTextContents(), ['Fixed.', 'Düzeldi.']);
    const stored = (await sessionGet(statusApi(`/pages/${ids.pageId}/incidents?state=resolved`))).body;
    assert.deepEqual(stored.map((i) => [i.id, i.status]), [[ids.incidentId, 'resolved']]);
    assert.ok(stored[0].resolvedAt);

    // In Turkish: the title and the newest body in Turkish, the English beneath.
    await page.goto(`${tabUrl('incidents')}?lang=tr`);
    await settled();
    assert.equal(await card.locator('.card-title').textContent(), 'Web sitesine erişilemiyor');
    assert.deepEqual(await card.locator('.incident-meta .pill').allTextContents(), ['Çözüldü', 'Büyük']);
    assert.deepEqual(await card.locator('.update').first().locator('.update-body').allTextContents(), ['Düzeldi.', 'Fixed.']);
    await page.goto(`${tabUrl('incidents')}?lang=en`);
    await settled();
  });

  async function schedule(en, tr, start, end) {
    await page.click('[data-action="new-maintenance"]');
    const form = '#maintenance-form';
    await page.fill(`${form} [name="title_en"]`, en);
    await page.fill(`${form} [name="title_tr"]`, tr);
    await page.fill(`${form} [name="scheduledStart"]`, start);
    await page.fill(`${form} [name="end"]`, end);
  }

  const row = (id) => page.locator(`#maintenance-list tr[data-maintenance="${id}"]`);
  async function rowState(id, state) {
    await page.waitForFunction(([i, s]) => document.querySelector(`#maintenance-list tr[data-maintenance="${i}"]`)?.dataset.state === s, [id, state]);
    await settled();
  }

  test('schedules a window, starts it now and marks it complete; an end already past is refused beside End', async () => {
    await page.goto(tabUrl('maintenance'));
    await settled();
    assert.equal(await page.locator('#maintenance-list .empty-title').textContent(), 'No maintenance windows');

    const path_ = statusApi(`/pages/${ids.pageId}/maintenances`);
    expectedRefusals.push(`422 POST ${path_}`);
    await schedule('Database upgrade', 'Veritabanı güncellemesi', localTime(-180), localTime(-120));
    await page.click('#maintenance-form [data-role="submit"]');
    await page.waitForSelector('#maintenance-form .field.has-error');
    assert.equal(await fieldError('#maintenance-form', 'end').textContent(), 'the end must be in the future');
    assert.equal((await sessionGet(path_)).body.length, 0);

    await page.fill('#maintenance-form [name="scheduledStart"]', localTime(120));
    await page.fill('#maintenance-form [name="end"]', localTime(240));
    await page.fill('#maintenance-form [name="description_en"]', 'Ten minutes of read-only mode.');
    await page.fill('#maintenance-form [name="description_tr"]', 'On dakika yalnızca okuma.');
    await page.check(`#maintenance-form input[data-component="${ids.apiId}"]`);
    await page.click('#maintenance-form [data-role="submit"]');
    await toast('Maintenance scheduled.');
    await page.waitForSelector('#maintenance-list tr[data-maintenance]');
    await settled();
    const windows = (await sessionGet(path_)).body;
    assert.equal(windows.length, 1);
    ids.windowId = windows[0].id;
    assert.deepEqual(windows[0].title, { tr: 'Veritabanı güncellemesi', en: 'Database upgrade' });
    assert.deepEqual(windows[0].description, { tr: 'On dakika yalnızca okuma.', en: 'Ten minutes of read-only mode.' });
    assert.deepEqual(windows[0].affectedComponentIds, [ids.apiId]);
    assert.equal(windows[0].status, 'scheduled');
    const r = row(ids.windowId);
    assert.equal(await r.getAttribute('data-state'), 'scheduled');
    assert.equal(await r.locator('td').nth(0).locator('.strong').textContent(), 'Database upgrade');
    assert.equal(await r.locator('td').nth(0).locator('.cell-note').textContent(), 'Ten minutes of read-only mode.');
    assert.equal(await r.locator('td').nth(1).locator('.pill').textContent(), 'Scheduled');
    assert.equal(await r.locator('td').nth(4).textContent(), 'API');
    assert.deepEqual(await r.locator('td').nth(5).locator('button').allTextContents(), ['Start', 'Cancel window']);

    await r.locator('[data-action="maintenance-start"]').click();
    await toast('Maintenance started.');
    await rowState(ids.windowId, 'in_progress');
    assert.equal(await r.locator('td').nth(1).locator('.pill').textContent(), 'In progress');
    assert.match(await r.locator('[data-happened="startedAt"]').textContent(), /^Began /);
    assert.deepEqual(await r.locator('td').nth(5).locator('button').allTextContents(), ['Mark complete']);
    const started = (await sessionGet(`${path_}/${ids.windowId}`)).body;
    assert.equal(started.status, 'in_progress');
    assert.ok(started.manualStartAt && started.startedAt);
    await shot('dashboard-status-maintenance');

    await r.locator('[data-action="maintenance-complete"]').click();
    await toast('Maintenance completed.');
    await rowState(ids.windowId, 'completed');
    assert.equal(await r.locator('td').nth(1).locator('.pill').textContent(), 'Completed');
    assert.equal(await r.locator('[data-happened]').count(), 2);
    assert.equal(await r.locator('td').nth(5).locator('button').count(), 0);
    assert.equal((await sessionGet(`${path_}/${ids.windowId}`)).body.status, 'completed');
  });

  test('cancels another window after a confirmation and filters by status; the three tabs fit a phone', async () => {
    const path_ = statusApi(`/pages/${ids.pageId}/maintenances`);
    await schedule('Network work', 'Ağ çalışması', localTime(24 * 60), localTime(25 * 60));
    await page.click('#maintenance-form [data-role="submit"]');
    await toast('Maintenance scheduled.');
    await page.waitForFunction(() => document.querySelectorAll('#maintenance-list tr[data-maintenance]').length === 2);
    await settled();
    const other = (await sessionGet(`${path_}?status=scheduled`)).body;
    assert.equal(other.length, 1);
    ids.otherId = other[0].id;
    assert.equal(other[0].description, null);
    // Newest scheduledStart first.
    assert.deepEqual(await page.locator('#maintenance-list tr[data-maintenance]').evaluateAll((els) => els.map((el) => el.dataset.maintenance)), [ids.otherId, ids.windowId]);

    const r = row(ids.otherId);
    await r.locator('[data-action="maintenance-cancel"]').click();
    assert.equal(await page.locator('dialog[open] .dialog-title').textContent(), 'Cancel “Network work”?');
    await page.click('dialog[open] [data-action="cancel"]');
    await page.waitForSelector('dialog[open]', { state: 'detached' });
    assert.equal((await sessionGet(`${path_}/${ids.otherId}`)).body.status, 'scheduled');
    await r.locator('[data-action="maintenance-cancel"]').click();
    await confirm();
    await toast('Maintenance cancelled.');
    await rowState(ids.otherId, 'cancelled');
    assert.equal(await r.locator('td').nth(1).locator('.pill').textContent(), 'Cancelled');
    assert.match(await r.locator('[data-happened="cancelledAt"]').textContent(), /^Cancelled /);
    assert.equal(await r.locator('td').nth(4).textContent(), '—');
    const cancelled = (await sessionGet(`${path_}/${ids.otherId}`)).body;
    assert.equal(cancelled.status, 'cancelled');
    assert.ok(cancelled.cancelledAt);

    await page.selectOption('[data-filter="maintenance-status"]', 'cancelled');
    await page.waitForFunction(() => document.querySelectorAll('#maintenance-list tr[data-maintenance]').length === 1);
    await settled();
    assert.equal(await page.locator('#maintenance-list tr[data-maintenance]').getAttribute('data-maintenance'), ids.otherId);
    await page.selectOption('[data-filter="maintenance-status"]', 'completed');
    await page.waitForFunction((id) => document.querySelector('#maintenance-list tr[data-maintenance]')?.dataset.maintenance === id, ids.windowId);
    await settled();
    assert.equal(await page.locator('#maintenance-list tr[data-maintenance]').count(), 1);
    await page.selectOption('[data-filter="maintenance-status"]', 'in_progress');
    await page.waitForSelector('#maintenance-list .empty-title');
    await settled();
    assert.equal(await page.locator('#maintenance-list .empty-title').textContent(), 'No maintenance windows');

    // The three tabs fit a phone's width.
    await page.setViewportSize({ width: 390, height: 844 });
    for (const tab of ['incidents', 'maintenance', 'subscribers']) {
      await page.goto(tabUrl(tab));
      await settled();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${tab}: the page is ${overflow}px wider than the screen`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test('lists a webhook and an e-mail subscriber with type, topic, components, language and state, and removes them', async () => {
    const hook = `http://127.0.0.1:${receiver.address().port}/hooks/status`;
    const subscribed = await fetch(`${base}/api/v1/status/${PAGE_SLUG}/subscribe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'webhook', webhookUrl: hook, topic: 'incidents', componentIds: [ids.websiteId], lang: 'tr' }),
    });
    assert.equal(subscribed.status, 201);
    const created = await subscribed.json();
    assert.equal(created.status, 'verified');
    const mailed = await fetch(`${base}/api/v1/status/${PAGE_SLUG}/subscribe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'email', email: 'ops@example.com', lang: 'en' }),
    });
    assert.equal(mailed.status, 201);
    const pending = await mailed.json();
    assert.equal(pending.status, 'pending');

    await page.goto(tabUrl('subscribers'));
    await settled();
    assert.equal(await page.locator('[data-note="subscribers-off"]').count(), 0);
    const r = page.locator(`#subscribers-list tr[data-subscriber="${created.id}"]`);
    await r.waitFor();
    assert.equal(await r.getAttribute('data-type'), 'webhook');
    assert.equal(await r.getAttribute('data-state'), 'verified');
    const cells = await r.locator('td').allTextContents();
    assert.deepEqual(cells.slice(0, 6), ['Webhook', hook, 'Incidents', 'Website', 'Turkish', 'Confirmed']);
    const m = page.locator(`#subscribers-list tr[data-subscriber="${pending.id}"]`);
    assert.equal(await m.getAttribute('data-state'), 'pending');
    assert.deepEqual((await m.locator('td').allTextContents()).slice(0, 6), ['E-mail', 'ops@example.com', 'Everything', 'All', 'English', 'Awaiting confirmation']);
    // Oldest first, as the API lists them.
    assert.deepEqual(await page.locator('#subscribers-list tr[data-subscriber]').evaluateAll((els) => els.map((el) => el.dataset.subscriber)), [created.id, pending.id]);
    await shot('dashboard-status-subscribers');

    await page.goto(`${tabUrl('subscribers')}?lang=tr`);
    await settled();
    assert.deepEqual((await r.locator('td').allTextContents()).slice(0, 6), ['Webhook', hook, 'Olaylar', 'Website', 'Türkçe', 'Onaylı']);
    await page.goto(`${tabUrl('subscribers')}?lang=en`);
    await settled();

    await r.locator('[data-action="remove-subscriber"]').click();
    assert.equal(await page.locator('dialog[open] .dialog-title').textContent(), `Remove ${hook}?`);
    await confirm();
    await toast(`${hook} removed.`);
    await r.waitFor({ state: 'detached' });
    assert.deepEqual((await sessionGet(statusApi(`/pages/${ids.pageId}/subscribers`))).body.map((x) => x.id), [pending.id]);
    await m.locator('[data-action="remove-subscriber"]').click();
    assert.equal(await page.locator('dialog[open] .dialog-title').textContent(), 'Remove ops@example.com?');
    await confirm();
    await page.waitForSelector('#subscribers-list .empty-title');
    assert.equal(await page.locator('#subscribers-list .empty-title').textContent(), 'No subscribers yet');
    assert.deepEqual((await sessionGet(statusApi(`/pages/${ids.pageId}/subscribers`))).body, []);
  });

  test('no page error, console error or refusal the tests did not cause', () => {
    assert.deepEqual(problems, []);
    assert.deepEqual(refusals, expectedRefusals);
  });
});
