// Passkeys of an auth project as an app's users meet them, in the system Chromium through playwright-core
// with a CDP virtual authenticator (ctap2, internal, resident keys, user verification). A small node "app"
// on http://localhost:<port> (a secure context) holds the project key server-side: its page calls the
// app's backend, which calls the edge's passkey API and hands options and results between the browser and
// the edge. The user signs up with a password, adds a passkey, signs out, and signs in with the passkey
// alone; the sign count the authenticator keeps is the one the edge stored. Screenshot:
// build/screenshots/auth_passkeys.png.
//
// Needs: `npm ci` (playwright-core), /usr/bin/chromium (CHROMIUM_BIN), edge and edge-admin (EDGE_BIN,
// default build/native/edge/edge). Run: node --test tests/browser/auth_passkeys.test.mjs
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
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
  makeTempDir,
  removeTempDir,
  screenshots,
  startEdge,
  stopEdgeCleanly,
} from '../support/edge.mjs';

const email = 'deniz@shop.test';
const password = 'correct horse battery staple';

let tmp;
let edge;
let app;
let project; // {id, slug, key}
let manager; // acme's access token with auth-projects.manage
let context;
let page;
let cdp;
let authenticatorId;
const pageProblems = [];
const flow = {};

// The edge's answer to a JSON call: {status, data, error}.
async function edgeCall(method, urlPath, { token, body } = {}) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetchClosing(`${edge.baseUrl}${urlPath}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json();
  return { status: response.status, data: json.data, error: json.error };
}

// The app's page: plain HTML, and a script that moves binary members between base64url (the API's JSON)
// and ArrayBuffers (navigator.credentials) in both directions.
const pageHtml = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Shop</title>
<style>body{font:16px system-ui;margin:2rem;max-width:32rem} input,button{display:block;margin:.4rem 0;font:inherit}</style>
</head>
<body>
<h1>Shop</h1>
<p>Signed in as: <strong id="who">nobody</strong></p>
<form id="signup">
  <input id="email" type="email" placeholder="Email" required>
  <input id="password" type="password" placeholder="Password" required>
  <button id="signup-button" type="submit">Sign up</button>
</form>
<button id="add-passkey" type="button">Add a passkey</button>
<button id="signout" type="button">Sign out</button>
<button id="passkey-signin" type="button">Sign in with a passkey</button>
<p id="status"></p>
<script type="module" src="/app.js"></script>
</body>
</html>`;

const pageScript = `
const toBuffer = (text) => {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((text.length + 3) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)).buffer;
};
const toBase64url = (buffer) => {
  let binary = '';
  for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
};
const descriptors = (list = []) => list.map((d) => ({ ...d, id: toBuffer(d.id) }));

async function api(path, body = {}) {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error ?? response.status);
  return answer;
}

const status = document.querySelector('#status');
const who = document.querySelector('#who');
function action(name, run) {
  return async (event) => {
    event?.preventDefault();
    status.textContent = '';
    try {
      await run();
      status.textContent = 'ok: ' + name;
    } catch (error) {
      status.textContent = 'error: ' + name + ': ' + error.message;
    }
  };
}
const show = (me) => (who.textContent = me?.email ?? 'nobody');

document.querySelector('#signup').addEventListener('submit', action('sign up', async () => {
  show(await api('/api/signup', {
    email: document.querySelector('#email').value,
    password: document.querySelector('#password').value,
  }));
}));

document.querySelector('#add-passkey').addEventListener('click', action('add passkey', async () => {
  const { options, ceremonyId } = await api('/api/passkeys/register/options');
  const credential = await navigator.credentials.create({
    publicKey: {
      ...options,
      challenge: toBuffer(options.challenge),
      user: { ...options.user, id: toBuffer(options.user.id) },
      excludeCredentials: descriptors(options.excludeCredentials),
    },
  });
  await api('/api/passkeys/register/verify', {
    ceremonyId,
    credential: {
      id: credential.id,
      rawId: toBase64url(credential.rawId),
      type: credential.type,
      response: {
        clientDataJSON: toBase64url(credential.response.clientDataJSON),
        attestationObject: toBase64url(credential.response.attestationObject),
        transports: credential.response.getTransports?.() ?? [],
      },
    },
  });
}));

document.querySelector('#signout').addEventListener('click', action('sign out', async () => {
  await api('/api/signout');
  show(null);
}));

document.querySelector('#passkey-signin').addEventListener('click', action('passkey sign-in', async () => {
  const { options, ceremonyId } = await api('/api/passkeys/login/options');
  const credential = await navigator.credentials.get({
    publicKey: {
      ...options,
      challenge: toBuffer(options.challenge),
      allowCredentials: descriptors(options.allowCredentials),
    },
  });
  const r = credential.response;
  show(await api('/api/passkeys/login/verify', {
    ceremonyId,
    credential: {
      id: credential.id,
      rawId: toBase64url(credential.rawId),
      type: credential.type,
      response: {
        clientDataJSON: toBase64url(r.clientDataJSON),
        authenticatorData: toBase64url(r.authenticatorData),
        signature: toBase64url(r.signature),
        userHandle: r.userHandle ? toBase64url(r.userHandle) : null,
      },
    },
  }));
}));

fetch('/api/me').then((r) => r.json()).then(show);
`;

// The app's backend: its own session cookie, the end user's tokens kept server-side, the project key
// never sent to the browser.
async function startApp() {
  const sessions = new Map(); // sid -> {accessToken, refreshToken, user}
  const auth = (p) => `/api/v1/auth/${project.slug}${p}`;
  const callEdge = (p, body) => edgeCall('POST', auth(p), { token: project.key, body });
  const sidOf = (req) => /(?:^|;\s*)sid=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];

  const server = http.createServer(async (req, res) => {
    const reply = (status, body, headers = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    const forward = ({ status, data, error }) => (status < 300 ? reply(200, data) : reply(status, { error }));
    const signIn = ({ status, data, error }) => {
      if (status >= 300) return reply(status, { error });
      const sid = randomBytes(16).toString('hex');
      sessions.set(sid, { accessToken: data.accessToken, refreshToken: data.refreshToken, user: data.user });
      return reply(200, { email: data.user.email }, { 'set-cookie': `sid=${sid}; Path=/; HttpOnly; SameSite=Lax` });
    };
    try {
      const url = new URL(req.url, 'http://localhost');
      if (req.method === 'GET' && url.pathname === '/') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(pageHtml);
      }
      if (url.pathname === '/favicon.ico') return res.writeHead(204).end();
      if (req.method === 'GET' && url.pathname === '/app.js') {
        res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
        return res.end(pageScript);
      }
      const session = sessions.get(sidOf(req));
      if (req.method === 'GET' && url.pathname === '/api/me') {
        // 200 either way: a 401 would be a console error in the page.
        return reply(200, { email: session?.user.email ?? null });
      }
      if (req.method !== 'POST') return reply(404, { error: 'not found' });
      let raw = '';
      for await (const chunk of req) raw += chunk;
      const body = raw ? JSON.parse(raw) : {};
      switch (url.pathname) {
        case '/api/signup':
          return signIn(await callEdge('/signup', { email: body.email, password: body.password, name: 'Deniz' }));
        case '/api/passkeys/register/options':
          if (!session) return reply(401, { error: 'signed out' });
          return forward(await callEdge('/passkeys/register/options', { accessToken: session.accessToken }));
        case '/api/passkeys/register/verify':
          return forward(await callEdge('/passkeys/register/verify', body));
        case '/api/signout':
          if (session) {
            sessions.delete(sidOf(req));
            await callEdge('/logout', { refreshToken: session.refreshToken });
          }
          return reply(200, {}, { 'set-cookie': 'sid=; Path=/; Max-Age=0' });
        case '/api/passkeys/login/options':
          return forward(await callEdge('/passkeys/login/options', {}));
        case '/api/passkeys/login/verify':
          return signIn(await callEdge('/passkeys/login/verify', body));
        default:
          return reply(404, { error: 'not found' });
      }
    } catch (error) {
      return reply(500, { error: String(error) });
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://localhost:${server.address().port}`,
    sessions,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

// Clicks `selector` and answers the page's status line once the action has finished.
async function act(selector) {
  await page.evaluate(() => (document.querySelector('#status').textContent = ''));
  await page.click(selector);
  await page.waitForFunction(() => document.querySelector('#status').textContent !== '', null, { timeout: 15_000 });
  return page.locator('#status').textContent();
}

async function virtualCredentials() {
  return (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
}

before(async () => {
  assertBinaries();
  tmp = await makeTempDir('auth-passkeys-');
  const dataDir = path.join(tmp, 'data');
  await mkdir(dataDir);
  await edgeAdmin(dataDir, ['company', 'create', '--slug', 'acme', '--name', 'Acme Inc.']);
  manager = (
    await edgeAdmin(dataDir, [
      'token', 'create', '--company', 'acme', '--name', 'passkey test', '--permission', 'auth-projects.manage',
    ])
  ).token;
  assert.match(manager, /^stk_/);
  edge = await startEdge({ dataDir, workDir: tmp });
  project = { slug: 'shop' };
  app = await startApp();

  const created = await edgeCall('POST', '/api/companies/acme/auth-projects', {
    token: manager,
    body: {
      name: 'Shop',
      slug: project.slug,
      signInMethods: { password: true, passkey: true },
      passkeys: { rpId: 'localhost', rpName: 'Shop', origins: [app.origin] },
    },
  });
  assert.equal(created.status, 201, created.error);
  project.id = created.data.id;
  const key = await edgeCall('POST', `/api/companies/acme/auth-projects/${project.id}/keys`, {
    token: manager,
    body: { name: 'shop backend' },
  });
  assert.equal(key.status, 201, key.error);
  project.key = key.data.key;

  context = await chromium.launchPersistentContext(path.join(tmp, 'profile'), {
    executablePath: chromiumBin,
    headless: true,
    args: chromiumFlags,
    viewport: { width: 700, height: 600 },
    locale: 'en-US',
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (error) => pageProblems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') pageProblems.push(`console error: ${message.text()}`);
  });
  cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  ({ authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  }));
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

describe('passkeys of an auth project in Chromium', { timeout: 90_000 }, () => {
  test('the app on localhost is a secure context and starts signed out', async () => {
    await page.goto(app.origin);
    assert.equal(await page.title(), 'Shop');
    assert.equal(await page.evaluate(() => window.isSecureContext), true);
    assert.equal(await page.evaluate(() => typeof PublicKeyCredential), 'function');
    await page.waitForFunction(() => document.querySelector('#who').textContent === 'nobody');
  });

  test('signing up with a password signs the user in', async () => {
    await page.fill('#email', email);
    await page.fill('#password', password);
    assert.equal(await act('#signup-button'), 'ok: sign up');
    assert.equal(await page.locator('#who').textContent(), email);
    const users = await edgeCall('GET', `/api/companies/acme/auth-projects/${project.id}/users`, { token: manager });
    assert.equal(users.data.length, 1);
    flow.userId = users.data[0].id;
    assert.equal(users.data[0].hasPassword, true);
  });

  test('adding a passkey: the authenticator holds a discoverable credential the edge stored', async () => {
    assert.deepEqual(await virtualCredentials(), []);
    assert.equal(await act('#add-passkey'), 'ok: add passkey');
    const credentials = await virtualCredentials();
    assert.equal(credentials.length, 1);
    const [held] = credentials;
    assert.equal(held.isResidentCredential, true);
    assert.equal(held.rpId, 'localhost');
    // The user handle is the edge's random handle: 64 bytes, neither the user id nor the email.
    const handle = Buffer.from(held.userHandle, 'base64');
    assert.equal(handle.length, 64);
    assert.ok(!handle.toString('latin1').includes(flow.userId));
    assert.ok(!handle.toString('latin1').includes(email));

    const stored = await edgeCall('GET', `/api/companies/acme/auth-projects/${project.id}/users/${flow.userId}/passkeys`, {
      token: manager,
    });
    assert.equal(stored.status, 200);
    assert.equal(stored.data.length, 1);
    const [passkey] = stored.data;
    assert.equal(passkey.credentialId, Buffer.from(held.credentialId, 'base64').toString('base64url'));
    assert.equal(passkey.alg, -7);
    assert.equal(passkey.signCount, held.signCount);
    assert.deepEqual(passkey.transports, ['internal']);
    assert.equal(passkey.lastUsedAt, null);
    flow.credentialId = passkey.credentialId;
  });

  test('signing out, then in with the passkey alone (no email, no password)', async () => {
    assert.equal(await act('#signout'), 'ok: sign out');
    assert.equal(await page.locator('#who').textContent(), 'nobody');
    assert.equal(app.sessions.size, 0);
    await page.reload();
    await page.waitForFunction(() => document.querySelector('#who').textContent === 'nobody');
    assert.equal(await page.inputValue('#password'), '');

    assert.equal(await act('#passkey-signin'), 'ok: passkey sign-in');
    assert.equal(await page.locator('#who').textContent(), email);
    // The page was reloaded signed in: the app's session came from the passkey sign-in.
    await page.reload();
    await page.waitForFunction((expected) => document.querySelector('#who').textContent === expected, email);
    const sessions = await edgeCall('GET', `/api/v1/auth/${project.slug}/users/${flow.userId}/sessions`, {
      token: project.key,
    });
    assert.equal(sessions.status, 200);
    assert.equal(sessions.data.length, 1); // the password session ended at sign-out
    assert.equal(sessions.data[0].amr, 'passkey');
    await mkdir(screenshots, { recursive: true });
    const file = path.join(screenshots, 'auth_passkeys.png');
    await page.screenshot({ path: file, fullPage: true });
    assert.ok(existsSync(file));
  });

  test('the sign count the authenticator keeps is the one the edge stored, and it moves on', async () => {
    let [held] = await virtualCredentials();
    let [passkey] = (
      await edgeCall('GET', `/api/companies/acme/auth-projects/${project.id}/users/${flow.userId}/passkeys`, {
        token: manager,
      })
    ).data;
    assert.ok(held.signCount > 0);
    assert.equal(passkey.signCount, held.signCount);
    assert.notEqual(passkey.lastUsedAt, null);

    assert.equal(await act('#signout'), 'ok: sign out');
    assert.equal(await act('#passkey-signin'), 'ok: passkey sign-in');
    const before = held.signCount;
    [held] = await virtualCredentials();
    [passkey] = (
      await edgeCall('GET', `/api/companies/acme/auth-projects/${project.id}/users/${flow.userId}/passkeys`, {
        token: manager,
      })
    ).data;
    assert.ok(held.signCount > before);
    assert.equal(passkey.signCount, held.signCount);
  });

  test('the page met no errors', () => {
    assert.deepEqual(pageProblems, []);
  });
});
