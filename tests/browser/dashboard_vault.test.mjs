// The env vault's dashboard pages (web/dashboard/vault/, docs/env-vault.md) served by a real edge and driven
// in the system Chromium through playwright-core: the owner signs in, finds the project seeded through the API,
// opens production, reads its versions with the key names each changed, diffs an old version with the current
// one (names only: no value ever reaches the page), rolls back (a new version, which the token API then
// serves), creates an env token (shown once) and uses it, revokes it (the API then answers 401), and reads the
// pages in Turkish. Screenshots: build/screenshots/dashboard_vault*.png.
//
// Needs: the native build (EDGE_BIN, edge-admin beside it), `npm ci` (playwright-core), /usr/bin/chromium.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { assertBinaries, edgeAdmin, fetchClosing, makeTempDir, removeTempDir, repo, screenshots, startEdge, stopEdgeCleanly } from '../support/edge.mjs';
import { launchBrowser, watchPage } from '../support/browser.mjs';

const SLUG = 'acme';
const OWNER = { email: 'ayse@acme.test', name: 'Ayşe Yılmaz', password: 'correct horse battery staple' };
const SECRET = 'value-that-must-never-show';

let tmp;
let edge;
let base;
let context;
let page;
let manageToken;
let project;
let ciToken;
const problems = [];
const refusals = [];

async function api(method, route, { token, body } = {}) {
  const response = await fetchClosing(`${base}${route}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const envelope = await response.json();
  return { status: response.status, data: envelope.data, error: envelope.error };
}

async function shot(name) {
  await mkdir(screenshots, { recursive: true });
  await page.waitForTimeout(250);
  const file = path.join(screenshots, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  assert.ok(existsSync(file));
}

async function ready() {
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"], .loading-block'), null, { timeout: 15_000 });
}

async function toast(pattern) {
  await page.waitForFunction((source) => [...document.querySelectorAll('.toast')].some((el) => new RegExp(source).test(el.textContent)), pattern.source);
}

const listPage = (query = '') => `${base}/dashboard/${SLUG}/vault/projects${query}`;

before(async () => {
  assertBinaries();
  tmp = await makeTempDir('dashboard-vault-');
  const dataDir = path.join(tmp, 'data');
  await edgeAdmin(dataDir, ['company', 'create', '--slug', SLUG, '--name', 'Acme Inc.']);
  await edgeAdmin(dataDir, ['user', 'create', '--email', OWNER.email, '--name', OWNER.name, '--password-stdin'], { input: `${OWNER.password}\n` });
  await edgeAdmin(dataDir, ['member', 'add', '--company', SLUG, '--email', OWNER.email, '--role', 'owner']);
  manageToken = (await edgeAdmin(dataDir, ['token', 'create', '--company', SLUG, '--name', 'Vault setup', '--permission', 'env-vault.manage'])).token;
  edge = await startEdge({ dataDir, workDir: tmp, args: ['--web-root', path.join(repo, 'web'), '--mail-delivery-workers', '0'] });
  base = edge.baseUrl;

  const made = await api('POST', `/api/companies/${SLUG}/env-vault/projects`, { token: manageToken, body: { name: 'Billing API' } });
  assert.equal(made.status, 201, JSON.stringify(made));
  project = made.data;
  const tok = await api('POST', `/api/companies/${SLUG}/env-vault/projects/${project.id}/tokens`, {
    token: manageToken,
    body: { name: 'CI deploy', environment: 'production' },
  });
  assert.equal(tok.status, 201);
  ciToken = tok.data.token;
  for (const variables of [{ DB_URL: SECRET, PORT: '8080' }, { DB_URL: `${SECRET}-2`, STRIPE_KEY: 'sk_live_x' }]) {
    const pushed = await api('POST', '/api/env-vault/push', { token: ciToken, body: { variables } });
    assert.equal(pushed.status, 200, JSON.stringify(pushed));
  }

  ({ context, page } = await launchBrowser(path.join(tmp, 'profile'), { clipboardOrigin: base }));
  watchPage(page, { problems, refusals });
});

after(async () => {
  await context?.close();
  await stopEdgeCleanly(edge);
  await removeTempDir(tmp);
});

describe('env vault dashboard', { timeout: 180_000 }, () => {
  test('the owner signs in and finds the project with its environments and versions', async () => {
    await page.goto(listPage());
    assert.equal(new URL(page.url()).pathname, '/login');
    await page.fill('#email', OWNER.email);
    await page.fill('#password', OWNER.password);
    await Promise.all([page.waitForURL(listPage()), page.click('button[type="submit"]')]);
    await ready();
    assert.equal(await page.locator('h1').textContent(), 'Vault projects');
    assert.ok((await page.locator('.nav-title').allTextContents()).includes('Env vault'));
    const row = page.locator(`tr[data-project="${project.id}"]`);
    assert.match(await row.textContent(), /Billing API/);
    assert.match(await row.textContent(), /production · v2/);
    await shot('dashboard_vault_list');

    await row.locator('a').first().click();
    await page.waitForSelector('#versions-card');
    await ready();
    assert.equal(await page.locator('h1').textContent(), 'Billing API');
    assert.equal(await page.locator('.vault-env-tabs [aria-selected="true"]').textContent(), 'production · v2');
    assert.deepEqual(await page.locator('#versions-card tr[data-version]').evaluateAll((rows) => rows.map((r) => r.dataset.version)), ['2', '1']);
    const v2 = page.locator('#versions-card tr[data-version="2"]');
    assert.deepEqual(await v2.locator('.vault-key').evaluateAll((els) => els.map((e) => `${e.dataset.change}:${e.dataset.key}`)), [
      'added:STRIPE_KEY',
      'changed:DB_URL',
    ]);
    assert.ok(!(await page.content()).includes(SECRET));
  });

  test('a diff names keys only, and a rollback makes a new version the token API serves', async () => {
    await page.click('#versions-card tr[data-version="1"] [data-action="diff"]');
    await page.waitForSelector('#vault-diff [data-diff="1-2"]');
    assert.deepEqual(await page.locator('#vault-diff .vault-key').evaluateAll((els) => els.map((e) => `${e.dataset.change}:${e.dataset.key}`)), [
      'added:STRIPE_KEY',
      'changed:DB_URL',
    ]);
    assert.ok(!(await page.content()).includes(SECRET));
    await shot('dashboard_vault_diff');

    await page.click('#versions-card tr[data-version="1"] [data-action="rollback"]');
    await page.click('dialog[open] [data-action="confirm"]');
    await toast(/version 3 made/);
    await page.waitForSelector('#versions-card tr[data-version="3"]');
    assert.match(await page.locator('#versions-card tr[data-version="3"]').textContent(), /rollback to 1/);
    const fetched = await api('POST', '/api/env-vault/fetch', { token: ciToken });
    assert.equal(fetched.status, 200);
    assert.equal(fetched.data.version, 3);
    assert.deepEqual(fetched.data.variables, { DB_URL: { value: SECRET, public: false }, PORT: { value: '8080', public: false } });
  });

  test('an env token is shown once, works, and stops working when revoked', async () => {
    await page.fill('#create-env-token input[name="name"]', 'Browser');
    await page.selectOption('#create-env-token select[name="access"]', 'read');
    await page.click('#create-env-token button[type="submit"]');
    const secret = page.locator('#new-env-token .secret-value .copyable-text');
    await secret.waitFor();
    const plaintext = (await secret.textContent()).trim();
    assert.match(plaintext, /^stk_env_[0-9a-f]{48}$/);
    await shot('dashboard_vault_token');
    assert.equal((await api('POST', '/api/env-vault/fetch', { token: plaintext })).status, 200);
    const pushed = await api('POST', '/api/env-vault/push', { token: plaintext, body: { variables: {} } });
    assert.equal(pushed.status, 403); // a read token

    const id = (await api('GET', `/api/companies/${SLUG}/env-vault/projects/${project.id}/tokens`, { token: manageToken })).data.find((k) => k.name === 'Browser').id;
    const row = page.locator(`#env-tokens-card tr[data-token="${id}"]`);
    await row.locator('[data-action="revoke-token"]').click();
    await page.click('dialog[open] [data-action="confirm"]');
    await toast(/Browser revoked/);
    await page.waitForSelector(`#env-tokens-card tr[data-token="${id}"][data-state="revoked"]`);
    const refused = await api('POST', '/api/env-vault/fetch', { token: plaintext });
    assert.equal(refused.status, 401);
    assert.equal(refused.error, 'env vault token revoked');
  });

  test('the pages read in Turkish', async () => {
    await page.goto(listPage('?lang=tr'));
    await ready();
    assert.equal(await page.locator('h1').textContent(), 'Kasa projeleri');
    await shot('dashboard_vault_tr');
    assert.deepEqual(problems, []);
    assert.deepEqual(refusals, []);
  });
});
