// The company's access tokens page of the dashboard (web/dashboard/company/, docs/dashboard.md "Company
// pages") served by a real edge and driven in the system Chromium through playwright-core: the owner signs
// in, creates a till's token (two permissions and a limit to one restaurant branch), reads its plaintext from
// the page and calls the restaurant API with it (only that branch answers), revokes it (the API then answers
// 401), filters revoked tokens, reads the page in Turkish, and a member is refused a permission they do not
// hold (the server's 403 beside the picker). Screenshots: build/screenshots/dashboard_tokens*.png.
//
// Needs: the native build (EDGE_BIN, edge-admin beside it), `npm ci` (playwright-core), /usr/bin/chromium.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';


import {
  assertBinaries,
  edgeAdmin,
  fetchClosing,
  makeTempDir,
  removeTempDir,
  repo,
  screenshots,
  startEdge,
  stopEdgeCleanly,
} from '../support/edge.mjs';
import { launchBrowser, watchPage } from '../support/browser.mjs';

const SLUG = 'acme';
const OWNER = { email: 'ayse@acme.test', name: 'Ayşe Yılmaz', password: 'correct horse battery staple' };
const MEMBER = { email: 'deniz@acme.test', name: 'Deniz Kaya', password: 'another horse battery staple' };
const TILL = 'Till: Front counter';

let tmp;
let edge;
let base;
let context;
let page;
let seedToken; // restaurant.manage, made with edge-admin: seeds the branches
const branches = {}; // name -> id
let till; // { id, plaintext } of the token the page creates
const problems = [];
const refusals = []; // every answer >= 400 the pages got
const expectedRefusals = []; // the ones the tests caused on purpose, in order

async function api(method, route, { token, body } = {}) {
  const response = await fetchClosing(`${base}${route}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const envelope = await response.json();
  return { status: response.status, data: envelope.data, error: envelope.error };
}

// The dashboard API with the page's own session cookie.
function sessionGet(route) {
  return page.evaluate(async (r) => (await fetch(r)).json(), route);
}

const tokensPage = (query = '') => `${base}/dashboard/${SLUG}/company/tokens${query}`;
const tokensApi = `/api/companies/${SLUG}/access-tokens`;
const branchesApi = `/api/restaurant/companies/${SLUG}/branches`;

async function shot(name) {
  await mkdir(screenshots, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(250); // transitions settle
  const file = path.join(screenshots, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  assert.ok(existsSync(file));
}

async function pageReady() {
  await page.waitForSelector('.page-body[data-page="company/tokens"]');
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"], .loading-block'), null, { timeout: 15_000 });
}

async function signIn(who) {
  await page.goto(tokensPage());
  assert.equal(new URL(page.url()).pathname, '/login');
  await page.fill('#email', who.email);
  await page.fill('#password', who.password);
  await Promise.all([page.waitForURL(tokensPage()), page.click('button[type="submit"]')]);
  await pageReady();
}

async function signOut() {
  await Promise.all([page.waitForURL(/\/login/), page.click('.signout button')]);
}

async function toast(pattern) {
  await page.waitForFunction((source) => [...document.querySelectorAll('.toast')].some((el) => new RegExp(source).test(el.textContent)), pattern.source);
}

// The tokens' rows as the page shows them.
const row = (id) => page.locator(`#tokens-table tr[data-token="${id}"]`);
const chips = (id) => row(id).locator('.chip-permission');

// lastUsedAt is written about once a second (docs/platform-api.md): waits until `token` has one.
async function waitLastUsed(predicate) {
  for (let i = 0; i < 50; i++) {
    const list = (await sessionGet(`${tokensApi}?limit=200`)).data;
    if (list.some(predicate)) return;
    await sleep(100);
  }
  assert.fail('lastUsedAt was not written within 5 s');
}

before(async () => {
  assertBinaries();
  tmp = await makeTempDir('dashboard-tokens-');
  const dataDir = path.join(tmp, 'data');
  await edgeAdmin(dataDir, ['company', 'create', '--slug', SLUG, '--name', 'Acme Inc.']);
  for (const who of [OWNER, MEMBER]) {
    await edgeAdmin(dataDir, ['user', 'create', '--email', who.email, '--name', who.name, '--password-stdin'], { input: `${who.password}\n` });
  }
  await edgeAdmin(dataDir, ['member', 'add', '--company', SLUG, '--email', OWNER.email, '--role', 'owner']);
  // A member who may manage tokens but holds only logs.view to give away.
  await edgeAdmin(dataDir, ['member', 'add', '--company', SLUG, '--email', MEMBER.email, '--role', 'member', '--permission', 'api-keys.manage', '--permission', 'logs.view']);
  seedToken = (await edgeAdmin(dataDir, ['token', 'create', '--company', SLUG, '--name', 'Restaurant setup', '--permission', 'restaurant.manage'])).token;
  edge = await startEdge({ dataDir, workDir: tmp, args: ['--web-root', path.join(repo, 'web'), '--mail-delivery-workers', '0'] });
  base = edge.baseUrl;

  // Two branches, so that "only that branch" means something.
  for (const name of ['Moda', 'Cihangir']) {
    const created = await api('POST', branchesApi, { token: seedToken, body: { name } });
    assert.equal(created.status, 201, JSON.stringify(created));
    branches[name] = created.data.id;
  }

  ({ context, page } = await launchBrowser(path.join(tmp, 'profile'), { clipboardOrigin: base }));
  watchPage(page, { problems, refusals });
});

after(async () => {
  await context?.close();
  await stopEdgeCleanly(edge);
  await removeTempDir(tmp);
});

describe('access tokens dashboard', { timeout: 180_000 }, () => {
  test('the owner signs in and finds Company › Access tokens after the other products', async () => {
    await signIn(OWNER);
    assert.equal(await page.locator('h1').textContent(), 'Access tokens');
    assert.deepEqual(await page.locator('.nav-title').allTextContents(), ['Mail', 'Auth projects', 'Status', 'Storage', 'Env vault', 'Company']);
    assert.equal(await page.locator('.nav-link[aria-current="page"]').textContent(), 'Access tokens');
    assert.equal(await page.title(), 'Access tokens · Acme Inc. · Platform');
    // The seeding token, in words, with the time the branches were made with it.
    const seed = (await sessionGet(tokensApi)).data[0];
    assert.equal(seed.name, 'Restaurant setup');
    assert.deepEqual(await chips(seed.id).allTextContents(), ['Manage every branch']);
    assert.equal(await row(seed.id).locator('[data-status]').textContent(), 'Active');
    await waitLastUsed((k) => k.id === seed.id && k.lastUsedAt);
    await page.reload();
    await pageReady();
    assert.equal(await row(seed.id).locator('td >> nth=4').locator('time').count(), 1);
  });

  test("the picker offers exactly core's permissions, each with English and Turkish words", async () => {
    const source = await readFile(path.join(repo, 'core/permission.cpp'), 'utf8');
    const list = source.match(/kKnownPermissions\[\] = \{([^}]*)\}/)[1];
    const core = [...list.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
    const served = await page.evaluate(async () => {
      const { KNOWN_PERMISSIONS, PERMISSION_GROUPS } = await import('/web/dashboard/company/permissions.js');
      const { companyTexts } = await import('/web/dashboard/company/texts.js');
      const keys = [...KNOWN_PERMISSIONS.map((p) => `company.perm.${p}`), ...PERMISSION_GROUPS.map((g) => `company.group.${g.id}`)];
      return { names: KNOWN_PERMISSIONS, missing: keys.filter((k) => !companyTexts.en[k] || !companyTexts.tr[k]) };
    });
    assert.deepEqual([...served.names].sort(), [...core].sort());
    assert.deepEqual(served.missing, []);
  });

  test("creates a till's token: two permissions and one branch; the plaintext is shown once and works", async () => {
    await page.click('[data-action="new-token"]');
    const form = page.locator('#create-token');
    await form.locator('[data-role="submit"]').click();
    assert.equal(await form.locator('.field-error >> nth=0').textContent(), 'Required.');

    // A manage permission includes the others of its resource; they are not sent on their own.
    const view = form.locator('input[value="domains.view"]');
    await form.locator('label[data-permission="domains.manage"]').click();
    assert.equal(await view.isChecked(), true);
    assert.equal(await view.isDisabled(), true);
    assert.equal(await form.locator('label[data-permission="domains.view"] .permission-included').isVisible(), true);
    await form.locator('label[data-permission="domains.manage"]').click();
    assert.equal(await view.isChecked(), false);
    assert.equal(await view.isDisabled(), false);

    // The server counts the name's bytes: its refusal shows beside the name.
    await form.locator('input[name="name"]').fill('Ş'.repeat(150));
    await form.locator('[data-role="submit"]').click();
    assert.equal(await form.locator('.permission-picker .field-error').textContent(), 'Choose at least one permission or a branch.');
    await form.locator('label[data-permission="send.execute"]').click();
    assert.equal(await form.locator('.permission-picker .field-error').isVisible(), false);
    await form.locator('[data-role="submit"]').click();
    await form.locator('.field.has-error input[name="name"]').waitFor();
    expectedRefusals.push(`400 POST ${tokensApi}`);
    assert.equal(await form.locator('.has-error .field-error').textContent(), "field 'name' must be 1 to 200 characters");

    await form.locator('input[name="name"]').fill(TILL);
    await form.locator('label[data-permission="logs.view"]').click();
    await form.locator('select[name="branch"]').selectOption(branches.Moda);
    assert.deepEqual(await form.locator('select[name="branch"] option').allTextContents(), ['No branch limit', 'Cihangir', 'Moda']);
    await shot('dashboard_tokens-form');
    await form.locator('[data-role="submit"]').click();

    const secret = page.locator('#new-token .secret-value .copyable-text');
    await secret.waitFor();
    const plaintext = await secret.textContent();
    assert.match(plaintext, /^stk_[0-9a-f]{48}$/);
    assert.match(await page.locator('#new-token').textContent(), /Copy the token “Till: Front counter” now.*only time it is shown/);
    assert.equal(await page.locator('#create-token-card').isVisible(), false);
    await toast(/Token Till: Front counter created/);
    await page.click('#new-token .btn-copy');
    await page.waitForSelector('#new-token .btn-copy[data-state="copied"]');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), plaintext);

    // The API accepts it, and it sees only its branch.
    const seen = await api('GET', branchesApi, { token: plaintext });
    assert.equal(seen.status, 200, JSON.stringify(seen));
    assert.deepEqual(seen.data.map((b) => b.name), ['Moda']);
    const stored = (await sessionGet(tokensApi)).data.find((k) => k.name === TILL);
    assert.deepEqual(stored.permissions, ['send.execute', 'logs.view', `restaurant.branch:${branches.Moda}`]);
    till = { id: stored.id, plaintext };

    // The list: newest first, in words, the branch by its name.
    assert.equal(await page.locator('#tokens-table tbody tr >> nth=0').getAttribute('data-token'), till.id);
    assert.equal(await row(till.id).locator('.token-name').textContent(), TILL);
    assert.ok(plaintext.startsWith((await row(till.id).locator('td >> nth=1').textContent()).replace('…', '')));
    assert.deepEqual(await chips(till.id).allTextContents(), ['Send mail', 'View send logs', 'Branch: Moda']);
    assert.equal(await chips(till.id).nth(2).getAttribute('title'), `restaurant.branch:${branches.Moda}`);
    assert.equal(await row(till.id).locator('[data-last-used="never"]').textContent(), 'Never');
    assert.equal(await row(till.id).locator('[data-status]').textContent(), 'Active');
    await page.click('[data-action="dismiss-token"]');
    assert.equal(await page.locator('#new-token').textContent(), '');

    // Used once, the list says when; opened again, the page knows only the prefix.
    await waitLastUsed((k) => k.id === till.id && k.lastUsedAt);
    await page.reload();
    await pageReady();
    assert.equal(await row(till.id).locator('td >> nth=4').locator('time').count(), 1);
    assert.equal((await page.content()).includes(plaintext), false);
  });

  test('revokes the token after asking: the API refuses it and the row says revoked', async () => {
    await row(till.id).locator('[data-action="revoke-token"]').click();
    await page.waitForSelector('dialog[open]');
    assert.equal(await page.locator('dialog[open] .dialog-title').textContent(), `Revoke ${TILL}?`);
    await page.click('dialog[open] [data-action="cancel"]');
    assert.equal(await row(till.id).getAttribute('data-state'), 'active');

    await row(till.id).locator('[data-action="revoke-token"]').click();
    await page.click('dialog[open] [data-action="confirm"]');
    await page.waitForSelector('dialog[open]', { state: 'detached' });
    await toast(/Token Till: Front counter revoked/);
    await page.waitForSelector(`#tokens-table tr[data-token="${till.id}"][data-state="revoked"]`);
    assert.equal(await row(till.id).locator('[data-status]').textContent(), 'Revoked');
    assert.equal(await row(till.id).locator('[data-action="revoke-token"]').count(), 0);
    assert.equal(await row(till.id).locator('.cell-note time').count(), 1);

    const refused = await api('GET', branchesApi, { token: till.plaintext });
    assert.equal(refused.status, 401);
    await shot('dashboard_tokens');

    // "Show revoked" off hides it (and says so in the address); on brings it back.
    await page.click('label[for="show-revoked"]');
    await page.waitForSelector(`#tokens-table tr[data-token="${till.id}"]`, { state: 'detached' });
    assert.equal(new URL(page.url()).searchParams.get('revoked'), 'hide');
    assert.equal(await page.locator('#tokens-table tbody tr').count(), 1);
    await page.reload();
    await pageReady();
    assert.equal(await page.locator('#show-revoked').isChecked(), false);
    await page.click('label[for="show-revoked"]');
    await row(till.id).waitFor();
    assert.equal(new URL(page.url()).searchParams.get('revoked'), null);
  });

  test('Turkish: the page speaks it, and English comes back', async () => {
    await page.click('.lang-switch [data-lang="tr"]');
    await page.waitForFunction(() => document.documentElement.lang === 'tr');
    await pageReady();
    assert.equal(await page.locator('h1').textContent(), 'Erişim anahtarları');
    assert.equal(await page.locator('.nav-title >> nth=5').textContent(), 'Şirket');
    assert.equal(await page.locator('.nav-link[aria-current="page"]').textContent(), 'Erişim anahtarları');
    assert.deepEqual(await page.locator('#tokens-table th').allTextContents(), ['Ad', 'Anahtar', 'İzinler', 'Oluşturulma', 'Son kullanım', 'Durum', 'İşlemler']);
    assert.equal(await row(till.id).locator('[data-status]').textContent(), 'İptal edildi');
    assert.deepEqual(await chips(till.id).allTextContents(), ['E-posta gönderme', 'Gönderim kayıtlarını görme', 'Şube: Moda']);
    assert.equal(await page.locator('label[for="show-revoked"]').textContent(), 'İptal edilenleri göster');
    await page.click('[data-action="new-token"]');
    assert.equal(await page.locator('#create-token-card .card-title').textContent(), 'Erişim anahtarı oluştur');
    assert.equal(await page.locator('#create-token .permission-group[data-group="restaurant"] .permission-group-title').textContent(), 'Restoran');
    assert.equal(await page.locator('#create-token select[name="branch"] option >> nth=0').textContent(), 'Şube sınırı yok');
    await shot('dashboard_tokens-tr');
    await page.click('.lang-switch [data-lang="en"]');
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    await pageReady();
    assert.equal(await page.locator('h1').textContent(), 'Access tokens');
  });

  test('a phone-sized screen: the form and the rows fit', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(tokensPage('?new'));
    await pageReady();
    assert.equal(await page.locator('#create-token-card').isVisible(), true);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= 390, `the page is ${wide} px wide`);
    await shot('dashboard_tokens-mobile');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test('a member may not grant what they do not hold: the 403 shows beside the permissions', async () => {
    await signOut();
    await signIn(MEMBER);
    // The member may not read the restaurant: branch ids stand in for names, and there is no branch select.
    expectedRefusals.push(`403 GET ${branchesApi}`);
    assert.deepEqual(await chips(till.id).allTextContents(), ['Send mail', 'View send logs', `Branch: ${branches.Moda}`]);
    await page.click('[data-action="new-token"]');
    const form = page.locator('#create-token');
    assert.equal(await form.locator('select[name="branch"]').count(), 0);
    await form.locator('input[name="name"]').fill('Member script');
    await form.locator('label[data-permission="send.execute"]').click();
    await form.locator('[data-role="submit"]').click();
    await form.locator('.permission-picker.has-error').waitFor();
    expectedRefusals.push(`403 POST ${tokensApi}`);
    const sentence = "You are not allowed to do this: cannot grant permission 'send.execute' that the caller does not hold";
    assert.equal(await form.locator('.permission-picker .field-error').textContent(), sentence);
    assert.equal(await form.locator('.form-error').textContent(), sentence);
    // What they hold, they may give.
    await form.locator('label[data-permission="send.execute"]').click();
    await form.locator('label[data-permission="logs.view"]').click();
    await form.locator('[data-role="submit"]').click();
    await page.locator('#new-token .secret-value').waitFor();
    assert.equal(await page.locator('#tokens-table tbody tr >> nth=0 >> .token-name').textContent(), 'Member script');

    assert.deepEqual(problems, []);
    assert.deepEqual(refusals, expectedRefusals);
  });
});
