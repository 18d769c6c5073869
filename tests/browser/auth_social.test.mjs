// Social sign-in for an auth project as a person sees it (docs/auth-social.md), in the system Chromium
// through playwright-core. A tiny app (a node HTTP server on localhost started here) holds the project key
// on its server side: its page has a "Sign in with Platform" button; its backend calls /social/{id}/start
// and redirects the browser to the platform's /oauth/authorize; the person signs in with a platform account
// and consents; the platform sends the browser back to the app's callback, whose backend calls
// /social/callback and shows the signed-in end user. Everything is set up through the real interfaces:
// edge-admin seeds the company, the platform account, an access token and the app's OAuth client; the
// dashboard API creates the auth project, its key and the provider (the platform itself, by its issuer URL).
// Screenshot: build/screenshots/auth_social_signed_in.png.
//
// Needs: `npm ci` (playwright-core), /usr/bin/chromium (CHROMIUM_BIN), edge and edge-admin (EDGE_BIN,
// default build/native/edge/edge). Run: node --test tests/browser/auth_social.test.mjs
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { chromium } from 'playwright-core';

import {
  assertBinaries,
  chromiumBin,
  chromiumFlags,
  edgeAdmin,
  fetchClosing,
  generateRsaKey,
  makeTempDir,
  removeTempDir,
  screenshots,
  seed,
  startEdge,
  stopEdgeCleanly,
} from '../support/edge.mjs';

let tmp;
let edge;
let app;
let seeded;
let context;
let page;
const pageProblems = [];
const setup = {}; // project, key, provider: made in before()

const entities = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => entities[c]);

function appPage(title, body) {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
    `<body>${body}</body></html>`
  );
}

// The app's backend calling the auth project API with the project key (never sent to the browser).
async function projectCall(pathname, body) {
  const response = await fetchClosing(`${edge.baseUrl}/api/v1/auth/${setup.slug}${pathname}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${setup.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

// The dashboard API, with the company's access token.
async function dashboard(method, pathname, body) {
  const response = await fetchClosing(`${edge.baseUrl}/api/companies/acme${pathname}`, {
    method,
    headers: { authorization: `Bearer ${setup.accessToken}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json();
  assert.ok(response.status < 300, `${method} ${pathname} answered ${response.status}: ${JSON.stringify(json)}`);
  return json.data;
}

// The relying app: "/" has the button, POST "/login/platform" starts the sign-in, "/callback" finishes it. The
// state is also kept in a cookie of the app's own, so a callback in another browser (login CSRF) fails.
function startApp() {
  const calls = [];
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, `http://${req.headers.host}`);
    const cookies = Object.fromEntries(
      (req.headers.cookie ?? '')
        .split(/;\s*/)
        .filter(Boolean)
        .map((c) => [c.slice(0, c.indexOf('=')), c.slice(c.indexOf('=') + 1)]),
    );
    try {
      if (url.pathname === '/favicon.ico') {
        res.writeHead(204).end();
      } else if (url.pathname === '/') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          appPage(
            'Recipe Box',
            '<h1>Recipe Box</h1><form method="post" action="/login/platform">' +
              '<button id="sign-in">Sign in with Platform</button></form>',
          ),
        );
      } else if (url.pathname === '/login/platform' && req.method === 'POST') {
        const started = await projectCall(`/social/${setup.providerId}/start`, {
          redirectUri: `${app.origin}/callback`,
        });
        calls.push({ path: 'start', status: started.status });
        assert.equal(started.status, 200, JSON.stringify(started.body));
        res.writeHead(303, {
          location: started.body.data.authorizationUrl,
          'set-cookie': `social_state=${started.body.data.state}; Path=/callback; HttpOnly; SameSite=Lax; Max-Age=600`,
        });
        res.end();
      } else if (url.pathname === '/callback') {
        const state = url.searchParams.get('state');
        if (!state || state !== cookies.social_state) {
          res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
          res.end(appPage('Sign-in failed', '<p id="error">This sign-in was not started in this browser.</p>'));
          return;
        }
        const finished = await projectCall('/social/callback', {
          state,
          code: url.searchParams.get('code'),
          iss: url.searchParams.get('iss') ?? undefined,
        });
        calls.push({ path: 'callback', status: finished.status, body: finished.body });
        res.writeHead(finished.status === 200 ? 200 : 401, {
          'content-type': 'text/html; charset=utf-8',
          'set-cookie': 'social_state=; Path=/callback; Max-Age=0',
        });
        if (finished.status === 200) {
          const { user } = finished.body.data;
          const who = `<span id="email">${escapeHtml(user.email)}</span>`;
          res.end(appPage('Signed in', `<h1>Welcome</h1><p>Signed in as ${who}</p>`));
        } else {
          res.end(appPage('Sign-in failed', `<p id="error">${escapeHtml(finished.body.error)}</p>`));
        }
      } else {
        res.writeHead(404).end();
      }
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    }
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({ origin: `http://localhost:${port}`, calls, close: () => new Promise((done) => server.close(done)) });
    });
  });
}

before(async () => {
  assertBinaries();
  tmp = await makeTempDir('auth-social-');
  app = await startApp();
  const dataDir = path.join(tmp, 'data');
  await mkdir(dataDir);
  // The platform account the person signs in with, and the app's OAuth client at the platform.
  seeded = await seed(dataDir, {
    redirectUris: [`${app.origin}/callback`],
    clientName: 'Recipe Box',
    homepage: 'https://recipes.acme.test',
  });
  const token = await edgeAdmin(dataDir, [
    'token', 'create', '--company', 'acme', '--name', 'auth setup', '--permission', 'auth-projects.manage',
  ]);
  setup.accessToken = token.token;
  // RS256: social sign-in verifies id_tokens with the provider's published keys.
  const pem = await generateRsaKey(path.join(tmp, 'oauth.pem'));
  edge = await startEdge({ dataDir, workDir: tmp, env: { OAUTH_RSA_PRIVATE_KEY: pem } });

  setup.slug = 'recipe-box';
  const project = await dashboard('POST', '/auth-projects', {
    name: 'Recipe Box',
    slug: setup.slug,
    allowedRedirectUrls: [`${app.origin}/callback`],
    signInMethods: { password: true, social: true },
  });
  setup.projectId = project.id;
  setup.key = (await dashboard('POST', `/auth-projects/${project.id}/keys`, { name: 'app backend' })).key;
  const provider = await dashboard('POST', `/auth-projects/${project.id}/providers`, {
    name: 'Platform',
    issuer: edge.baseUrl,
    clientId: seeded.client.clientId,
    clientSecret: seeded.client.clientSecret,
  });
  assert.equal(provider.clientSecret, undefined);
  setup.providerId = provider.id;

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
    if (message.type() === 'error') pageProblems.push(`console error: ${message.text()} (${message.location().url})`);
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
    await app?.close();
    try {
      await stopEdgeCleanly(edge);
    } finally {
      await removeTempDir(tmp);
    }
  }
});

describe('Social sign-in to an auth project in Chromium', { timeout: 90_000 }, () => {
  test('the app button leads to the platform sign-in page, through /social/{id}/start', async () => {
    await page.goto(`${app.origin}/`);
    assert.equal(await page.title(), 'Recipe Box');
    await Promise.all([
      page.waitForURL((u) => u.origin === edge.baseUrl && u.pathname === '/login'),
      page.click('text=Sign in with Platform'),
    ]);
    assert.deepEqual(app.calls.map((c) => [c.path, c.status]), [['start', 200]]);
    assert.equal(await page.title(), 'Sign in · Platform');
  });

  test('signing in and consenting at the platform lands on the app signed in as the new end user', async () => {
    await page.fill('#email', seeded.email);
    await page.fill('#password', seeded.password);
    await Promise.all([page.waitForURL((u) => u.pathname === '/oauth/authorize'), page.click('button[type=submit]')]);
    assert.equal(await page.title(), 'Allow access? · Platform');
    assert.equal(await page.locator('h1').textContent(), 'Recipe Box wants to access your account');
    await Promise.all([
      page.waitForURL((u) => u.origin === app.origin && u.pathname === '/callback'),
      page.click('#allow'),
    ]);
    assert.equal(await page.title(), 'Signed in');
    assert.equal(await page.locator('#email').textContent(), seeded.email);
    const finished = app.calls.at(-1);
    assert.equal(finished.path, 'callback');
    assert.equal(finished.status, 200);
    assert.equal(finished.body.data.newUser, true);
    assert.equal(finished.body.data.user.hasPassword, false);
    assert.match(finished.body.data.refreshToken, /^apr_/);
    const claims = JSON.parse(Buffer.from(finished.body.data.accessToken.split('.')[1], 'base64url'));
    assert.deepEqual(claims.amr, ['social']);
    assert.equal(claims.email, seeded.email);
    setup.userId = finished.body.data.user.id;
    await mkdir(screenshots, { recursive: true });
    const file = path.join(screenshots, 'auth_social_signed_in.png');
    await page.screenshot({ path: file, fullPage: true });
    assert.ok(existsSync(file));
  });

  test('the dashboard lists the one end user, created password-less', async () => {
    const users = await dashboard('GET', `/auth-projects/${setup.projectId}/users`);
    assert.deepEqual(users.map((u) => [u.id, u.email, u.hasPassword]), [[setup.userId, seeded.email, false]]);
  });

  test('signing in again goes straight through (platform session, consent remembered) to the same user', async () => {
    await page.goto(`${app.origin}/`);
    await Promise.all([
      page.waitForURL((u) => u.origin === app.origin && u.pathname === '/callback'),
      page.click('text=Sign in with Platform'),
    ]);
    assert.equal(await page.locator('#email').textContent(), seeded.email);
    const finished = app.calls.at(-1);
    assert.equal(finished.status, 200);
    assert.equal(finished.body.data.newUser, false);
    assert.equal(finished.body.data.user.id, setup.userId);
  });

  test('the used callback\'s state and code, replayed by a backend, are refused (a state answers once)', async () => {
    // The app cleared its state cookie already; the platform refuses the replay on its own as well.
    const search = new URL(page.url()).searchParams;
    const replay = await projectCall('/social/callback', { state: search.get('state'), code: search.get('code') });
    assert.equal(replay.status, 401);
    assert.equal(replay.body.error, 'the state is unknown, expired or already used');
  });

  test('no page showed an error, a failed request or an HTTP error status', () => {
    assert.deepEqual(pageProblems, []);
  });
});
