// The OAuth sign-in as a person sees it, in the system Chromium through playwright-core: a relying party
// (a tiny HTTP server on 127.0.0.1 started here) sends the browser to /oauth/authorize; the user signs in,
// reads the consent page, presses Allow and lands back on the relying party with code, state and iss. The
// code is exchanged; then the user revokes the app on /en/profile/connected-apps and the access token stops
// working. The Turkish consent page is checked once. Screenshots: build/screenshots/oauth_consent.png,
// oauth_connected_apps.png, oauth_consent_tr.png.
//
// Needs: `npm ci` (playwright-core), /usr/bin/chromium (CHROMIUM_BIN), edge and edge-admin (EDGE_BIN,
// default build/native/edge/edge). Run: node --test tests/browser/
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { chromium } from 'playwright-core';

import {
  assertBinaries,
  chromiumBin,
  chromiumFlags,
  fetchClosing,
  makeTempDir,
  removeTempDir,
  screenshots,
  seed,
  startEdge,
  startRelyingParty,
  stopEdgeCleanly,
} from '../support/edge.mjs';

let tmp;
let edge;
let rp;
let seeded;
let context;
let page;
const pageProblems = [];
const flow = {}; // carried between the steps

const b64url = (bytes) => Buffer.from(bytes).toString('base64url');
const redirectUri = () => `${rp.origin}/callback`;
const clientId = () => seeded.client.clientId;

function authorizeUrl({ state, nonce, verifier, extra = {} }) {
  const url = new URL('/oauth/authorize', edge.baseUrl);
  const params = {
    response_type: 'code',
    client_id: clientId(),
    redirect_uri: redirectUri(),
    scope: 'openid profile email',
    state,
    nonce,
    code_challenge: b64url(createHash('sha256').update(verifier).digest()),
    code_challenge_method: 'S256',
    ...extra,
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.href;
}

function newRequest() {
  return { state: b64url(randomBytes(16)), nonce: b64url(randomBytes(16)), verifier: b64url(randomBytes(32)) };
}

const texts = (selector) => page.locator(selector).allTextContents();
const text = (selector) => page.locator(selector).textContent();

async function userinfo(accessToken) {
  return fetchClosing(`${edge.baseUrl}/oauth/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } });
}

async function screenshot(name) {
  await mkdir(screenshots, { recursive: true });
  const file = path.join(screenshots, name);
  await page.screenshot({ path: file, fullPage: true });
  assert.ok(existsSync(file));
}

before(async () => {
  assertBinaries();
  tmp = await makeTempDir('oauth-consent-');
  rp = await startRelyingParty();
  const dataDir = path.join(tmp, 'data');
  await mkdir(dataDir);
  seeded = await seed(dataDir, {
    redirectUris: [`${rp.origin}/callback`],
    postLogoutRedirectUris: [`${rp.origin}/signed-out`],
    homepage: 'https://notes.acme.test',
    scopes: ['openid', 'profile', 'email', 'offline_access'],
  });
  edge = await startEdge({ dataDir, workDir: tmp });
  context = await chromium.launchPersistentContext(path.join(tmp, 'profile'), {
    executablePath: chromiumBin,
    headless: true,
    args: chromiumFlags,
    viewport: { width: 900, height: 900 },
    locale: 'en-US',
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (error) => pageProblems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      pageProblems.push(`console ${message.type()}: ${message.text()} (${message.location().url})`);
  });
  page.on('requestfailed', (request) => pageProblems.push(`request failed: ${request.url()}`));
  page.on('response', (response) => {
    if (response.status() >= 400) pageProblems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
});

after(async () => {
  try {
    await context?.close();
  } finally {
    await rp?.close();
    try {
      await stopEdgeCleanly(edge);
    } finally {
      await removeTempDir(tmp);
    }
  }
});

describe('OAuth sign-in and consent in Chromium', { timeout: 60_000 }, () => {
  test('authorize sends a signed-out browser to the sign-in page', async () => {
    flow.request = newRequest();
    const response = await page.goto(authorizeUrl(flow.request));
    assert.equal(response.status(), 200);
    const url = new URL(page.url());
    assert.equal(url.pathname, '/login');
    assert.equal(new URL(url.searchParams.get('next'), edge.baseUrl).pathname, '/oauth/authorize');
    assert.equal(await page.title(), 'Sign in · Platform');
    assert.equal(await text('h1'), 'Sign in');
  });

  test('signing in shows the consent page: client name, homepage, scopes in words, the account', async () => {
    await page.fill('#email', seeded.email);
    await page.fill('#password', seeded.password);
    await Promise.all([page.waitForURL((u) => u.pathname === '/oauth/authorize'), page.click('button[type=submit]')]);
    assert.equal(await page.title(), 'Allow access? · Platform');
    assert.equal(await text('h1'), 'Acme Notes wants to access your account');
    assert.equal(await page.getAttribute('a[rel~=noopener]', 'href'), 'https://notes.acme.test');
    assert.equal(await text('a[rel~=noopener]'), 'Application website: notes.acme.test');
    // In reading order: openid, profile, email.
    assert.deepEqual(await texts('ul.scopes li'), [
      'Recognise you (your user id)',
      'Your profile: name, username and picture',
      'Your email address',
    ]);
    assert.equal(await text('p.muted >> nth=1'), `Signed in as ${seeded.email}`);
    assert.equal(await text('button[value=allow]'), 'Allow');
    assert.equal(await text('button[value=deny]'), 'Deny');
    await screenshot('oauth_consent.png');
  });

  test('Allow lands on the redirect_uri with code, state and iss (RFC 9207), and nothing else', async () => {
    await Promise.all([page.waitForURL((u) => u.origin === rp.origin), page.click('#allow')]);
    assert.equal(await text('#rp'), 'signed in');
    assert.equal(rp.requests.length, 1);
    const landed = rp.requests[0];
    assert.equal(landed.pathname, '/callback');
    assert.deepEqual([...landed.searchParams.keys()], ['code', 'state', 'iss']);
    assert.match(landed.searchParams.get('code'), /^oac_[A-Za-z0-9_-]+$/);
    assert.equal(landed.searchParams.get('state'), flow.request.state);
    assert.equal(landed.searchParams.get('iss'), edge.baseUrl);
    flow.code = landed.searchParams.get('code');
  });

  test('the code exchange (Basic auth, PKCE verifier) gives an access token that userinfo accepts', async () => {
    const basic = Buffer.from(`${clientId()}:${seeded.client.clientSecret}`).toString('base64');
    const response = await fetchClosing(`${edge.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: flow.code,
        redirect_uri: redirectUri(),
        code_verifier: flow.request.verifier,
      }),
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const body = await response.json();
    assert.deepEqual(Object.keys(body).sort(), ['access_token', 'expires_in', 'id_token', 'scope', 'token_type']);
    assert.match(body.access_token, /^oat_/);
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body.expires_in, 3600);
    assert.equal(body.scope, 'email openid profile');
    const claims = JSON.parse(Buffer.from(body.id_token.split('.')[1], 'base64url'));
    assert.equal(claims.nonce, flow.request.nonce);
    assert.equal(claims.aud, clientId());
    assert.equal(claims.sub, seeded.user.id);
    const info = await userinfo(body.access_token);
    assert.equal(info.status, 200);
    assert.equal((await info.json()).email, seeded.email);
    flow.accessToken = body.access_token;
  });

  test('connected apps lists the app with its scopes; Revoke removes it and the token stops working', async () => {
    const response = await page.goto(`${edge.baseUrl}/en/profile/connected-apps`);
    assert.equal(response.status(), 200);
    assert.equal(await page.title(), 'Connected apps · Platform');
    assert.equal(await text('h1'), 'Connected apps');
    const app = page.locator(`li.app[data-client-id="${clientId()}"]`);
    assert.equal(await page.locator('li.app').count(), 1);
    assert.equal(await app.locator('strong').textContent(), 'Acme Notes');
    const today = new Date().toISOString().slice(0, 10);
    assert.equal(await app.locator('div.muted').textContent(), `Allowed on ${today}`);
    assert.deepEqual(await app.locator('ul.scopes li').allTextContents(), [
      'Recognise you (your user id)',
      'Your profile: name, username and picture',
      'Your email address',
    ]);
    await screenshot('oauth_connected_apps.png');

    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/en/profile/connected-apps') && r.request().method() === 'GET'),
      app.locator('button', { hasText: 'Revoke' }).click(),
    ]);
    assert.equal(new URL(page.url()).pathname, '/en/profile/connected-apps');
    assert.equal(await page.locator('li.app').count(), 0);
    assert.equal(await text('#no-apps'), 'No application has access to your account.');

    const info = await userinfo(flow.accessToken);
    assert.equal(info.status, 401);
    assert.deepEqual(await info.json(), {
      error: 'invalid_token',
      error_description: 'access token has been revoked',
    });
  });

  test('after the revocation authorize asks again, in Turkish with ui_locales=tr; Reddet denies', async () => {
    const request = newRequest();
    const response = await page.goto(authorizeUrl({ ...request, extra: { ui_locales: 'tr' } }));
    assert.equal(response.status(), 200);
    assert.equal(response.headers()['content-language'], 'tr');
    assert.equal(new URL(page.url()).pathname, '/oauth/authorize'); // still signed in: no sign-in page
    assert.equal(await page.title(), 'Erişime izin verilsin mi? · Platform');
    assert.equal(await text('h1'), 'Acme Notes hesabınıza erişmek istiyor');
    assert.equal(await text('a[rel~=noopener]'), 'Uygulamanın web sitesi: notes.acme.test');
    assert.deepEqual(await texts('ul.scopes li'), [
      'Sizi tanıması (kullanıcı kimliğiniz)',
      'Profiliniz: adınız, kullanıcı adınız ve fotoğrafınız',
      'E-posta adresiniz',
    ]);
    assert.equal(await text('p.muted >> nth=1'), `Oturum açan hesap ${seeded.email}`);
    assert.equal(await text('button[value=allow]'), 'İzin ver');
    assert.equal(await text('button[value=deny]'), 'Reddet');
    await screenshot('oauth_consent_tr.png');

    await Promise.all([page.waitForURL((u) => u.origin === rp.origin), page.click('button[value=deny]')]);
    const landed = rp.requests.at(-1);
    assert.deepEqual(Object.fromEntries(landed.searchParams), {
      error: 'access_denied',
      error_description: 'the user denied access',
      state: request.state,
      iss: edge.baseUrl,
    });
  });

  test('the Turkish consent page declares its language: <html lang="tr">', async () => {
    // Screen readers and hyphenation follow the lang attribute (WCAG 2.1 SC 3.1.1); the page says
    // Content-Language: tr, but the markup must say it too.
    const request = newRequest();
    await page.goto(authorizeUrl({ ...request, extra: { ui_locales: 'tr' } }));
    assert.equal(await page.title(), 'Erişime izin verilsin mi? · Platform');
    assert.equal(await page.getAttribute('html', 'lang'), 'tr');
  });

  test('end-session without id_token_hint asks first; Sign out lands on the post-logout URI, signed out', async () => {
    // RP-Initiated Logout §3: with only client_id the provider asks the user before signing out.
    const query = new URLSearchParams({
      client_id: clientId(),
      post_logout_redirect_uri: `${rp.origin}/signed-out`,
      state: 'bye',
    });
    const response = await page.goto(`${edge.baseUrl}/oauth/end-session?${query}`);
    assert.equal(response.status(), 200);
    assert.equal(await page.title(), 'Sign out? · Platform');
    assert.equal(await text('h1'), 'Acme Notes asks to sign you out.');
    assert.equal(await text('p.muted >> nth=1'), `Signed in as ${seeded.email}`);
    assert.equal(await text('#sign-out'), 'Sign out');
    await screenshot('oauth_end_session.png');

    await Promise.all([page.waitForURL((u) => u.origin === rp.origin), page.click('#sign-out')]);
    const landed = rp.requests.at(-1);
    assert.equal(landed.pathname, '/signed-out');
    assert.deepEqual(Object.fromEntries(landed.searchParams), { state: 'bye' });
    // The platform session ended: authorize sends the browser to the sign-in page again.
    await page.goto(authorizeUrl(newRequest()));
    assert.equal(new URL(page.url()).pathname, '/login');
  });

  test('the Turkish end-session confirmation page', async () => {
    await page.fill('#email', seeded.email);
    await page.fill('#password', seeded.password);
    await Promise.all([page.waitForURL((u) => u.pathname === '/oauth/authorize'), page.click('button[type=submit]')]);
    const query = new URLSearchParams({ client_id: clientId(), ui_locales: 'tr' });
    await page.goto(`${edge.baseUrl}/oauth/end-session?${query}`);
    assert.equal(await page.getAttribute('html', 'lang'), 'tr');
    assert.equal(await page.title(), 'Oturum kapatılsın mı? · Platform');
    assert.equal(await text('h1'), 'Acme Notes oturumunuzu kapatmak istiyor.');
    assert.equal(await text('#sign-out'), 'Oturumu kapat');
  });

  test('no page showed an error, a failed request or an HTTP error status', () => {
    assert.deepEqual(pageProblems, []);
  });
});
