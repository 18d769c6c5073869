// The auth-project pages of the dashboard (web/dashboard/auth/, docs/dashboard.md "Auth project pages")
// served by a real edge and driven in the system Chromium through playwright-core: sign in as the company's
// owner, create a project, change its settings (the API's refusal of a bad redirect URL beside its field, a
// verified mail domain as the sender, passkeys), create an API key (plaintext once), rotate the signing key,
// then sign a user up through the end-user API with that key and manage them from Users (badges, search,
// sessions, disable, end sessions, MFA reset, delete), the social-login section, Turkish, and deleting the
// project. Screenshots go to build/screenshots/dashboard-auth-*.png.
//
// Needs: the native build (EDGE_BIN), `npm ci` (playwright-core), /usr/bin/chromium and dnsmasq
// (dnsmasq-base, for the mail domain the sender is picked from).
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';


import {
  assertBinaries,
  edgeAdmin,
  fetchClosing,
  makeTempDir,
  removeTempDir,
  repo,
  screenshots,
  generateRsaKey,
  startEdge,
  stopEdgeCleanly,
} from '../support/edge.mjs';
import { launchBrowser, watchPage } from '../support/browser.mjs';
import { freeDnsPort, optionsFor, startZone } from './dns_zone.mjs';

const SLUG = 'acme';
const EMAIL = 'ayse@acme.test';
const PASSWORD = 'correct horse battery staple';
const DOMAIN = 'notes.acme.example.test';
const PROJECT = 'acme-notes';
const END_USER = { email: 'deniz@example.com', password: 'Sunny-day 42', name: 'Deniz Kaya' };

let tmp;
let edge;
let base;
let zone;
let context;
let page;
let token; // a company access token, for the mail domain the sender uses
let domainId;
let projectId;
let apiKey; // the project's aps_ key, read from the page that showed it once
let userId;
const problems = [];
const refusals = []; // every answer >= 400 the pages got
const expectedRefusals = []; // the ones the tests caused on purpose, in order

async function companyApi(method, route, body) {
  const response = await fetchClosing(`${base}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const envelope = await response.json();
  return { status: response.status, data: envelope.data, error: envelope.error };
}

// The end-user API of the project, as an app's backend calls it.
async function endUserApi(method, route, body, credential = apiKey) {
  const response = await fetchClosing(`${base}/api/v1/auth/${PROJECT}${route}`, {
    method,
    headers: {
      ...(credential ? { authorization: `Bearer ${credential}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
      'user-agent': 'AcmeNotesBackend/1.0',
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const envelope = await response.json();
  return { status: response.status, data: envelope.data, error: envelope.error };
}

// The dashboard API with the page's own session (the auth-projects routes are dashboard-only).
function sessionGet(route) {
  return page.evaluate(async (r) => (await fetch(r)).json(), route);
}

const dashboard = (rest = '') => `${base}/dashboard/${SLUG}/auth/projects${rest ? `/${rest}` : ''}`;
// RFC 6238 with SHA-1, 6 digits, 30 s: what an authenticator app shows for a base32 `secret` now.
function totp(secret, nowMs = Date.now()) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of secret.replace(/=+$/, '')) bits += alphabet.indexOf(c).toString(2).padStart(5, '0');
  const key = Buffer.from(bits.match(/.{8}/g).map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(nowMs / 1000 / 30)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

const projectPath = (...rest) => `/api/companies/${SLUG}/auth-projects/${[projectId, ...rest].join('/')}`;

async function shot(name) {
  await mkdir(screenshots, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(250); // transitions settle
  const file = path.join(screenshots, `dashboard-auth-${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  assert.ok(existsSync(file));
}

// The page the shell mounted, once its data is in (tables mark themselves busy while loading).
async function pageReady() {
  await page.waitForSelector('.page-body[data-page="auth/projects"]');
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"], .loading-block'), null, { timeout: 15_000 });
}

async function openTab(id) {
  await page.click(`.project-tabs [data-tab="${id}"]`);
  await page.waitForSelector(`.tab-panel[data-panel="${id}"]:not([hidden])`);
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"], .loading-block'));
}

async function confirm() {
  await page.waitForSelector('dialog[open]');
  await page.click('dialog[open] [data-action="confirm"]');
  await page.waitForSelector('dialog[open]', { state: 'detached' });
}

async function toast(pattern) {
  await page.waitForFunction((source) => [...document.querySelectorAll('.toast')].some((el) => new RegExp(source).test(el.textContent)), pattern.source);
}

before(async () => {
  assertBinaries();
  tmp = await makeTempDir('dashboard-auth-');
  const dataDir = path.join(tmp, 'data');
  await edgeAdmin(dataDir, ['company', 'create', '--slug', SLUG, '--name', 'Acme Inc.']);
  await edgeAdmin(dataDir, ['user', 'create', '--email', EMAIL, '--name', 'Ayşe Yılmaz', '--password-stdin'], { input: `${PASSWORD}\n` });
  await edgeAdmin(dataDir, ['member', 'add', '--company', SLUG, '--email', EMAIL, '--role', 'owner']);
  token = (await edgeAdmin(dataDir, ['token', 'create', '--company', SLUG, '--name', 'auth browser test', '--permission', 'domains.manage'])).token;
  const dnsPort = await freeDnsPort();
  // An RS256 key, so the platform's own provider can stand in as the social provider the settings add.
  const pem = await generateRsaKey(path.join(tmp, 'oauth.pem'));
  edge = await startEdge({
    dataDir,
    workDir: tmp,
    env: { OAUTH_RSA_PRIVATE_KEY: pem },
    args: [
      '--web-root', path.join(repo, 'web'),
      '--node-modules-root', path.join(repo, 'node_modules'),
      '--mail-nameserver', `127.0.0.1:${dnsPort}`,
      '--mail-delivery-workers', '0',
    ],
  });
  base = edge.baseUrl;

  // A verified sending domain for the project's mails: its records published in a real zone.
  const domain = await companyApi('POST', `/api/companies/${SLUG}/domains`, { name: DOMAIN });
  assert.equal(domain.status, 201, domain.error);
  domainId = domain.data.id;
  zone = await startZone(dnsPort, optionsFor(domain.data.dnsRecords));
  const verified = await companyApi('POST', `/api/companies/${SLUG}/domains/${domainId}/verify`);
  assert.equal(verified.data?.status, 'verified', JSON.stringify(verified));

  ({ context, page } = await launchBrowser(path.join(tmp, 'profile'), { clipboardOrigin: base }));
  watchPage(page, { problems, refusals });
});

after(async () => {
  await context?.close();
  await zone?.stop();
  await stopEdgeCleanly(edge);
  await removeTempDir(tmp);
});

describe('auth projects dashboard', { timeout: 180_000 }, () => {
  test('the owner signs in and finds no project yet', async () => {
    await page.goto(dashboard());
    assert.equal(new URL(page.url()).pathname, '/login');
    await page.fill('#email', EMAIL);
    await page.fill('#password', PASSWORD);
    await Promise.all([page.waitForURL(dashboard()), page.click('button[type="submit"]')]);
    await pageReady();
    assert.equal(await page.locator('h1').textContent(), 'Auth projects');
    assert.equal(await page.locator('.empty-title').textContent(), 'No auth projects yet');
    assert.equal(await page.locator('.nav-link[aria-current="page"]').textContent(), 'Projects');
    // Every product is in the navigation, each under its own title.
    assert.deepEqual(await page.locator('.nav-title').allTextContents(), ['Mail', 'Auth projects', 'Status', 'Storage', 'Env vault', 'Company']);
    assert.equal(await page.title(), 'Projects · Acme Inc. · Platform');
    await shot('projects-empty');
  });

  test('creates a project from its name; the slug follows the name; a taken slug is refused beside its field', async () => {
    await page.click('[data-action="new-project"]');
    await page.click('#create-project [data-role="submit"]');
    assert.equal(await page.locator('#create-project .field-error >> nth=0').textContent(), 'Required.');
    await page.fill('#create-project input[name="name"]', 'Acme Notes');
    assert.equal(await page.inputValue('#create-project input[name="slug"]'), PROJECT);
    await page.click('#create-project [data-role="submit"]');
    await page.waitForURL(/\/auth\/projects\/apj_[^/]+$/);
    projectId = new URL(page.url()).pathname.split('/').pop();
    await pageReady();
    assert.equal(await page.locator('h1').textContent(), 'Acme Notes');
    assert.equal(await page.locator('.project-slug').textContent(), PROJECT);
    await toast(/Project Acme Notes created/);
    // Overview: how to call it.
    assert.equal(await page.locator('.project-tabs [aria-selected="true"]').textContent(), 'Overview');
    const issuer = `${base}/api/v1/auth/${PROJECT}`;
    assert.equal(await page.locator('#how-to-call .call-issuer .copyable-text').textContent(), issuer);
    assert.equal(await page.locator('#how-to-call .call-jwks .copyable-text').textContent(), `${issuer}/jwks.json`);
    assert.ok(await page.locator('#how-to-call tr[data-endpoint="/signup"]').isVisible());
    await shot('project-overview');

    // The list shows it; a second project with the same slug is refused by the server, beside the slug.
    await page.click('.back-link');
    await pageReady();
    const row = page.locator(`tr[data-project="${PROJECT}"]`);
    assert.equal(await row.locator('.row-anchor').textContent(), 'Acme Notes');
    assert.deepEqual(await row.locator('.chip-method').allTextContents(), ['Password']);
    await page.click('[data-action="new-project"]');
    await page.fill('#create-project input[name="name"]', 'Acme Notes again');
    await page.fill('#create-project input[name="slug"]', PROJECT);
    await page.click('#create-project [data-role="submit"]');
    await page.waitForSelector('#create-project .has-error .field-error:not([hidden])');
    expectedRefusals.push(`409 POST /api/companies/${SLUG}/auth-projects`);
    assert.equal(
      await page.locator('#create-project .has-error .field-error').textContent(),
      `an auth project with slug '${PROJECT}' already exists`,
    );
    assert.equal(await page.locator('#create-project .has-error input').getAttribute('name'), 'slug');
    await shot('projects-list');
  });

  test('settings: the API refuses a bad redirect URL beside the field, then every setting saves', async () => {
    await page.goto(dashboard(`${projectId}/settings`));
    await pageReady();
    assert.equal(await page.locator('.project-tabs [aria-selected="true"]').textContent(), 'Settings');
    const form = page.locator('#project-settings');
    assert.equal(await form.locator('input[name="accessTokenTtlSeconds"]').inputValue(), '900');
    assert.equal(await form.locator('[data-section="tokens"] .field-hint >> nth=0').textContent(), '15 minutes');
    assert.equal(await form.locator('input[name="signInMethods.password"]').isChecked(), true);

    await form.locator('textarea[name="allowedRedirectUrls"]').fill('notes.example.test/verify');
    assert.equal(await page.locator('.form-dirty').isVisible(), true);
    await form.locator('[data-role="submit"]').click();
    const urlField = form.locator('.field.has-error');
    await urlField.waitFor();
    expectedRefusals.push(`400 PATCH /api/companies/${SLUG}/auth-projects/${projectId}`);
    assert.equal(await urlField.locator('textarea').getAttribute('name'), 'allowedRedirectUrls');
    assert.equal(await urlField.locator('.field-error').textContent(), 'URL must start with http:// or https://');
    assert.equal(await form.locator('.form-error').textContent(), 'URL must start with http:// or https://');
    await shot('settings-refused');

    await form.locator('textarea[name="allowedRedirectUrls"]').fill('https://notes.example.test/verify\nhttps://notes.example.test/reset');
    assert.equal(await urlField.count(), 0, 'editing the field clears its message');
    await form.locator('input[name="accessTokenTtlSeconds"]').fill('600');
    assert.equal(await form.locator('[data-section="tokens"] .field-hint >> nth=0').textContent(), '10 minutes');
    await form.locator('input[name="refreshReuseIntervalSeconds"]').fill('0');
    assert.match(await form.locator('[data-section="tokens"] .field-hint >> nth=2').textContent(), /Strict/);
    await form.locator('input[name="passwordPolicy.minLength"]').fill('10');
    await form.locator('label[for]', { hasText: 'Needs a digit' }).click();
    await form.locator('label[for]', { hasText: 'Authenticator app' }).click();
    // The sender: a verified domain of the company, the address on it.
    await form.locator('label[for]', { hasText: 'Send verification and reset mails' }).click();
    assert.equal(await page.locator('#mail-fields').isVisible(), true);
    await form.locator('select[name="mail.domainId"]').selectOption(domainId);
    assert.equal(await form.locator('[data-section="mail"] .input-suffix').textContent(), `@${DOMAIN}`);
    await form.locator('input[name="mail.from"]').fill('no-reply');
    await form.locator('input[name="mail.fromName"]').fill('Acme Notes');
    // Passkeys: the relying party and its origins.
    await form.locator('label[for]', { hasText: 'Set up passkeys' }).click();
    await form.locator('input[name="passkeys.rpId"]').fill('notes.example.test');
    await form.locator('textarea[name="passkeys.origins"]').fill('https://notes.example.test');
    await form.locator('label[for]', { hasText: 'Passkeys' }).first().click();
    await form.locator('[data-role="submit"]').click();
    await toast(/Settings saved/);
    assert.equal(await page.locator('.form-dirty').isVisible(), false);

    const saved = (await sessionGet(projectPath())).data;
    assert.deepEqual(saved.allowedRedirectUrls, ['https://notes.example.test/verify', 'https://notes.example.test/reset']);
    assert.equal(saved.accessTokenTtlSeconds, 600);
    assert.equal(saved.refreshReuseIntervalSeconds, 0);
    assert.deepEqual(saved.passwordPolicy, { minLength: 10, requireLetter: false, requireDigit: true, requireSymbol: false });
    assert.deepEqual(saved.signInMethods, { password: true, passkey: true, social: false, totp: true });
    assert.deepEqual(saved.mail, { domainId, from: `no-reply@${DOMAIN}`, fromName: 'Acme Notes' });
    assert.deepEqual(saved.passkeys, { rpId: 'notes.example.test', rpName: 'Acme Notes', origins: ['https://notes.example.test'] });
    await shot('settings');

    // The overview follows the saved settings.
    await openTab('overview');
    assert.match(await page.locator('#at-a-glance').textContent(), /access 10 minutes, refresh 30 days/);
    assert.match(await page.locator('#at-a-glance').textContent(), new RegExp(`Acme Notes <no-reply@${DOMAIN}>`));
    assert.equal(new URL(page.url()).pathname, `/dashboard/${SLUG}/auth/projects/${projectId}/overview`);
  });

  test('creates an API key: the plaintext is shown once, with a copy button', async () => {
    await openTab('keys');
    assert.equal(await page.locator('.tab-panel[data-panel="keys"] .empty-title').textContent(), 'No API keys yet');
    await page.fill('#create-key input[name="name"]', 'Test backend');
    await page.click('#create-key [data-role="submit"]');
    await page.waitForSelector('#new-key .secret-value');
    apiKey = await page.locator('#new-key .secret-value .copyable-text').textContent();
    assert.match(apiKey, /^aps_[0-9a-f]{48}$/);
    assert.match(await page.locator('#new-key').textContent(), /only time it is shown/);
    await page.click('#new-key .btn-copy');
    await page.waitForSelector('#new-key .btn-copy[data-state="copied"]');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), apiKey);
    const row = page.locator('tr[data-state="active"]');
    await row.waitFor();
    assert.equal(await row.locator('td >> nth=0').textContent(), 'Test backend');
    assert.ok(apiKey.startsWith((await row.locator('td >> nth=1').textContent()).replace('…', '')));
    await shot('key-created');
    await page.click('[data-action="dismiss-key"]');
    assert.equal(await page.locator('#new-key').textContent(), '');
    // Opened again, the page knows only the prefix.
    await page.goto(dashboard(`${projectId}/keys`));
    await pageReady();
    assert.equal((await page.content()).includes(apiKey), false);
  });

  test('rotates the signing key after asking; the old key stays published', async () => {
    await openTab('signing');
    const rows = page.locator('#signing-keys tbody tr');
    assert.equal(await rows.count(), 1);
    const first = await rows.first().getAttribute('data-kid');
    assert.equal(await rows.first().getAttribute('data-current'), 'true');
    // Cancelling changes nothing.
    await page.click('[data-action="rotate"]');
    await page.click('dialog[open] [data-action="cancel"]');
    assert.equal(await rows.count(), 1);
    await page.click('[data-action="rotate"]');
    await confirm();
    await toast(/Signing key rotated/);
    await page.waitForFunction(() => document.querySelectorAll('#signing-keys tbody tr').length === 2);
    const states = await rows.evaluateAll((trs) => trs.map((tr) => [tr.dataset.kid, tr.dataset.current]));
    assert.equal(states.find(([, current]) => current === 'true')[0] !== first, true);
    assert.deepEqual(states.find(([kid]) => kid === first), [first, 'false']);
    const jwks = await (await fetchClosing(`${base}/api/v1/auth/${PROJECT}/jwks.json`)).json();
    assert.deepEqual(jwks.keys.map((k) => k.kid).sort(), states.map(([kid]) => kid).sort());
    await shot('signing-keys');
  });

  test('a user who signs up through the end-user API shows in Users, with search', async () => {
    const signup = await endUserApi('POST', '/signup', END_USER);
    assert.equal(signup.status, 201, signup.error);
    userId = signup.data.user.id;
    await openTab('users');
    const row = page.locator(`tr[data-user="${END_USER.email}"]`);
    await row.waitFor();
    assert.equal(await row.locator('td >> nth=1').textContent(), END_USER.name);
    assert.deepEqual(await row.locator('[data-badge]').evaluateAll((els) => els.map((e) => e.dataset.badge)), ['unverified']);
    await shot('users');
    await page.fill('#user-search input[name="q"]', 'nobody');
    await page.click('#user-search [data-role="submit"]');
    await page.waitForSelector('#users-table .empty-title');
    assert.equal(await page.locator('#users-table .empty-title').textContent(), 'No users match “nobody”');
    assert.equal(new URL(page.url()).searchParams.get('q'), 'nobody');
    await page.fill('#user-search input[name="q"]', 'deniz');
    await page.click('#user-search [data-role="submit"]');
    await row.waitFor();
  });

  test("a user's page: sessions, disable (which ends them), end all, MFA reset, delete", async () => {
    await page.click(`tr[data-user="${END_USER.email}"] .row-anchor`);
    await page.waitForURL(new RegExp(`/users/${userId}$`));
    await pageReady();
    assert.equal(await page.locator('h1').innerText().then((s) => s.split('\n')[0]), END_USER.email);
    const sessions = page.locator('#sessions tbody tr');
    assert.equal(await sessions.count(), 1);
    const cells = await sessions.first().locator('td').allTextContents();
    assert.equal(cells[2], 'Password');
    assert.equal(cells[3], 'AcmeNotesBackend/1.0');
    assert.equal(cells[4], '127.0.0.1');
    await shot('user');

    // Disable: asked first; the account refuses sign-in and its sessions are gone.
    await page.click('[data-action="disable"]');
    await confirm();
    await page.waitForSelector('h1 [data-badge="disabled"]');
    await page.waitForSelector('#sessions .empty-title');
    assert.equal(await page.locator('#sessions .empty-title').textContent(), 'No active sessions');
    assert.ok(await page.locator('[data-note="disabled"]').isVisible());
    const refused = await endUserApi('POST', '/login', { email: END_USER.email, password: END_USER.password });
    assert.equal(refused.status, 403);
    await shot('user-disabled');

    // Enable, sign in twice, end every session at once.
    await page.click('[data-action="enable"]');
    await page.waitForSelector('h1 [data-badge="disabled"]', { state: 'detached' });
    for (let i = 0; i < 2; i++) {
      const login = await endUserApi('POST', '/login', { email: END_USER.email, password: END_USER.password });
      assert.equal(login.status, 200, login.error);
    }
    await page.reload();
    await pageReady();
    assert.equal(await sessions.count(), 2);
    await page.click('#sessions [data-session] [data-action="revoke-session"] >> nth=0');
    await confirm();
    await toast(/Session ended/);
    await page.waitForFunction(() => document.querySelectorAll('#sessions tbody tr').length === 1);
    await page.click('[data-action="revoke-all"]');
    await confirm();
    await toast(/1 session ended/);
    await page.waitForSelector('#sessions .empty-title');

    // Mark the address verified.
    await page.click('[data-action="mark-verified"]');
    await page.waitForSelector('h1 [data-badge="verified"]');

    // MFA reset: the button is off without an authenticator app. The user enrolls one through the end-user
    // API (codes computed here with node's crypto, an implementation independent of the server's), then the
    // administrator resets it.
    assert.equal(await page.locator('[data-action="mfa-reset"]').isDisabled(), true);
    const signedIn = await endUserApi('POST', '/login', { email: END_USER.email, password: END_USER.password });
    assert.equal(signedIn.status, 200, signedIn.error);
    const accessToken = signedIn.data.accessToken;
    const enrolled = await endUserApi('POST', '/mfa/totp/enroll', { accessToken });
    assert.equal(enrolled.status, 200, enrolled.error);
    const confirmed = await endUserApi('POST', '/mfa/totp/confirm', { accessToken, code: totp(enrolled.data.secret) });
    assert.equal(confirmed.status, 200, confirmed.error);
    await page.reload();
    await pageReady();
    await page.waitForFunction(() => document.querySelector('[data-action="mfa-reset"]')?.disabled === false);
    await page.click('[data-action="mfa-reset"]');
    const reset = page.waitForResponse((r) => r.request().method() === 'DELETE' && r.url().endsWith('/mfa'));
    await confirm();
    assert.equal((await reset).status(), 200);
    await page.waitForFunction(() => document.querySelector('[data-action="mfa-reset"]')?.disabled === true);
    assert.equal((await sessionGet(projectPath('users', userId))).data.mfa.totp, false);
    assert.equal(await page.locator('h1').innerText().then((s) => s.split('\n')[0]), END_USER.email);
    await shot('user-mfa-reset');

    // Delete, after asking: back to the empty list.
    await page.click('[data-action="delete-user"]');
    await confirm();
    await page.waitForURL(new RegExp(`/projects/${projectId}/users$`));
    await pageReady();
    assert.equal(await page.locator('#users-table .empty-title').textContent(), 'No users yet');
    assert.equal((await endUserApi('POST', '/login', { email: END_USER.email, password: END_USER.password })).status, 401);
  });

  test('social login: providers are added, edited without showing the secret, and deleted', async () => {
    await openTab('providers');
    assert.ok(await page.locator('[data-note="social-off"]').isVisible());
    await page.click('[data-action="add-provider"]');
    await page.fill('#provider-form input[name="name"]', 'Google');
    await page.fill('#provider-form input[name="issuer"]', base);
    await page.fill('#provider-form input[name="clientId"]', 'notes-client');
    await page.fill('#provider-form input[name="clientSecret"]', 'notes-secret');
    await page.click('#provider-form [data-role="submit"]');
    await page.waitForSelector('tr[data-provider="Google"]');
    assert.equal((await page.content()).includes('notes-secret'), false);
    await page.click('tr[data-provider="Google"] [data-action="edit-provider"]');
    assert.equal(await page.inputValue('#provider-form input[name="clientSecret"]'), '');
    await shot('providers');
    await page.click('#provider-form .form-actions .btn-ghost');
    assert.equal(await page.locator('#provider-form-card').isVisible(), false);
    await page.click('tr[data-provider="Google"] [data-action="delete-provider"]');
    await confirm();
    await page.waitForSelector('tr[data-provider="Google"]', { state: 'detached' });
  });

  test('Turkish: the pages speak it, and English comes back', async () => {
    await openTab('settings');
    await page.click('.lang-switch [data-lang="tr"]');
    await page.waitForFunction(() => document.documentElement.lang === 'tr');
    await pageReady();
    assert.equal(await page.locator('.project-tabs [data-tab="settings"]').textContent(), 'Ayarlar');
    await page.click('.nav-link[data-page="auth/projects"]');
    await pageReady();
    assert.equal(await page.locator('h1').textContent(), 'Kimlik projeleri');
    assert.equal(await page.locator('.nav-link[aria-current="page"]').textContent(), 'Projeler');
    assert.equal(await page.locator('th >> nth=2').textContent(), 'Giriş yöntemleri');
    await shot('projects-tr');
    await page.click('.lang-switch [data-lang="en"]');
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    await pageReady();
    assert.equal(await page.locator('h1').textContent(), 'Auth projects');
  });

  test('a phone-sized screen: the tabs scroll and the tables stack', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(dashboard(`${projectId}/overview`));
    await pageReady();
    assert.equal(await page.locator('.sidenav').isVisible(), false);
    // Nothing is wider than the screen but the tab strip, which scrolls by itself.
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= 390, `the page is ${wide} px wide`);
    await shot('mobile-overview');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(dashboard());
    await pageReady();
  });

  test('deletes the project after asking; its end-user API is gone', async () => {
    await page.click(`tr[data-project="${PROJECT}"] [data-action="delete-project"]`);
    await page.waitForSelector('dialog[open]');
    assert.equal(await page.locator('dialog[open] .dialog-title').textContent(), 'Delete Acme Notes?');
    await confirm();
    await toast(/Acme Notes deleted/);
    await page.waitForSelector('.empty-title');
    assert.equal(await page.locator('.empty-title').textContent(), 'No auth projects yet');
    assert.equal((await endUserApi('POST', '/login', { email: END_USER.email, password: END_USER.password })).status, 404);
    // An old address of it says so instead of breaking.
    await page.goto(dashboard(`${projectId}/users`));
    await pageReady();
    assert.equal(await page.locator('.empty-title').textContent(), 'Project not found');
    expectedRefusals.push(`404 GET /api/companies/${SLUG}/auth-projects/${projectId}`);


    assert.deepEqual(problems, []);
    assert.deepEqual(refusals, expectedRefusals);
  });
});
