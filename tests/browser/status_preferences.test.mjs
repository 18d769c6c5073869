// The subscriber's preferences page /p/{slug}/preferences?token= (docs/status-subscribers.md, "Pages") in
// Chromium: a webhook subscriber opens it with its management token, changes topic and components with the
// form (its CSRF token travels in the form), sees them saved in Turkish and English, and unsubscribes. Leaves a
// screenshot in build/screenshots/status_preferences.png.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { launchBrowser, watchPage } from '../support/browser.mjs';
import {
  assertBinaries,
  edgeAdmin,
  fetchClosing,
  makeTempDir,
  removeTempDir,
  screenshots,
  startEdge,
  stopEdgeCleanly,
} from '../support/edge.mjs';

let workDir;
let edge;
let browser;
let token;
let dash;
let pageId;
let components;

async function api(method, apiPath, body, bearer = edge.token) {
  const headers = { 'content-type': 'application/json' };
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  const res = await fetchClosing(`${edge.baseUrl}${apiPath}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

before(async () => {
  assertBinaries();
  workDir = await makeTempDir('status-prefs-');
  const dataDir = path.join(workDir, 'data');
  await edgeAdmin(dataDir, ['company', 'create', '--slug', 'acme', '--name', 'Acme']);
  const created = await edgeAdmin(dataDir, [
    'token', 'create', '--company', 'acme', '--name', 'tests', '--permission', 'status.manage',
  ]);
  edge = await startEdge({ dataDir, workDir, args: ['--status-probe-workers', '0'] });
  edge.token = created.token;
  dash = '/api/v1/dashboard/companies/acme';
  const page = await api('POST', `${dash}/pages`, { name: 'Acme Cloud', slug: 'acme-cloud', subscribersEnabled: true });
  assert.equal(page.status, 201);
  pageId = page.json.id;
  components = [];
  for (const name of ['API', 'Dashboard']) {
    const c = await api('POST', `${dash}/pages/${pageId}/components`, { name });
    assert.equal(c.status, 201);
    components.push(c.json);
  }
  const sub = await api(
    'POST',
    '/api/v1/status/acme-cloud/subscribe',
    { type: 'webhook', webhookUrl: 'https://hooks.example.test/status', lang: 'tr' },
    null,
  );
  assert.equal(sub.status, 201);
  token = sub.json.managementToken;
  browser = await launchBrowser(path.join(workDir, 'profile'));
});

after(async () => {
  await browser?.context.close();
  await stopEdgeCleanly(edge);
  await removeTempDir(workDir);
});

test('the preferences page changes the filters and unsubscribes', async () => {
  const { page } = browser;
  const { problems, refusals } = watchPage(page);
  const url = `${edge.baseUrl}/p/acme-cloud/preferences?token=${token}`;
  await page.goto(url);
  assert.equal(await page.getAttribute('html', 'lang'), 'tr');
  assert.equal(await page.textContent('h1'), 'Bildirim tercihleri');
  assert.equal(await page.isChecked('input[name=topic][value=all]'), true);
  assert.equal(await page.isChecked(`input[name=component_${components[0].id}]`), false);

  await page.check('input[name=topic][value=incidents]');
  await page.check(`input[name=component_${components[1].id}]`);
  await Promise.all([page.waitForNavigation(), page.click('#save-button')]);
  assert.equal(await page.isVisible('#saved'), true);
  assert.equal(await page.textContent('#saved'), 'Tercihleriniz kaydedildi.');
  assert.equal(await page.isChecked('input[name=topic][value=incidents]'), true);
  assert.equal(await page.isChecked(`input[name=component_${components[1].id}]`), true);

  const subs = await api('GET', `${dash}/pages/${pageId}/subscribers`);
  assert.equal(subs.status, 200);
  assert.equal(subs.json[0].topic, 'incidents');
  assert.deepEqual(subs.json[0].componentIds, [components[1].id]);

  await page.goto(`${url}&lang=en`);
  assert.equal(await page.textContent('h1'), 'Notification preferences');
  await mkdir(screenshots, { recursive: true });
  await page.screenshot({ path: path.join(screenshots, 'status_preferences.png'), fullPage: true });

  await Promise.all([page.waitForNavigation(), page.click('#unsubscribe-button')]);
  assert.equal(await page.isVisible('#unsubscribed'), true);
  const after = await api('GET', `${dash}/pages/${pageId}/subscribers`);
  assert.deepEqual(after.json, []);

  // The token is spent: the page now answers 404 with the invalid-link text.
  const gone = await page.goto(url);
  assert.equal(gone.status(), 404);
  assert.equal(await page.isVisible('#invalid'), true);
  assert.deepEqual(problems, []);
  assert.deepEqual(refusals, ['404 GET /p/acme-cloud/preferences']);
});
