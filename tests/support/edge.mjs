// Shared helpers for the JavaScript suites that run against a real edge process: start and stop edge on a
// temporary data directory, seed it with edge-admin --json, make RSA keys with openssl, and play the
// browser's part of a sign-in over plain HTTP (cookie jar, manual redirects, hidden form fields).
//
// Binaries: EDGE_BIN (default build/native/edge/edge); edge-admin is taken from the same folder unless
// EDGE_ADMIN_BIN says otherwise. Chromium: CHROMIUM_BIN (default /usr/bin/chromium).
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const edgeBin = path.resolve(repo, process.env.EDGE_BIN ?? 'build/native/edge/edge');
export const adminBin = path.resolve(
  repo,
  process.env.EDGE_ADMIN_BIN ?? path.join(path.dirname(edgeBin), 'edge-admin'),
);
export const chromiumBin = process.env.CHROMIUM_BIN ?? '/usr/bin/chromium';
export const screenshots = path.join(repo, 'build/screenshots');

// DESIGN.md's headless flags (as in tests/browser/vat_page.test.mjs); playwright adds --headless itself and
// the profile folder comes from launchPersistentContext.
export const chromiumFlags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function assertBinaries() {
  assert.ok(existsSync(edgeBin), `edge binary not found at ${edgeBin}: build the native tree or set EDGE_BIN`);
  assert.ok(existsSync(adminBin), `edge-admin not found at ${adminBin}: build the native tree or set EDGE_ADMIN_BIN`);
}

export async function makeTempDir(prefix) {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}

export async function removeTempDir(dir) {
  if (dir) await rm(dir, { recursive: true, force: true });
}

// The environment for edge and edge-admin: the caller's, without any edge or OAuth setting that could leak
// in from the shell, plus `extra`.
function childEnv(extra = {}) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('EDGE_') || key.startsWith('OAUTH_') || key.startsWith('PLATFORM_SECRET_KEY')) continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

let started = 0;

// Starts edge on `listen` (default a free port) with `dataDir` and `env`, and resolves once it has written
// its port file. The answer's stop() sends SIGTERM and resolves with the exit status.
export async function startEdge({ dataDir, workDir, env = {}, listen = '127.0.0.1:0', args = [] }) {
  const portFile = path.join(workDir, `edge-${process.pid}-${++started}.port`);
  const child = spawn(edgeBin, ['--listen', listen, '--data-dir', dataDir, '--port-file', portFile, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: childEnv(env),
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

  const edge = {
    child,
    exited,
    output: () => output,
    // SIGTERM, then the exit status ({code, signal}); SIGKILL and an error after 10 s.
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = new AbortController(); // a pending 10 s timer would keep node alive after the tests
      const status = await Promise.race([
        exited,
        sleep(10_000, null, { signal: timer.signal }).catch(() => null),
      ]);
      timer.abort();
      if (!status) {
        child.kill('SIGKILL');
        throw new Error(`edge did not stop within 10 s of SIGTERM:\n${output}`);
      }
      return status;
    },
  };

  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const port = await readFile(portFile, 'utf8').catch(() => '');
    if (/^\d+\s*$/.test(port)) {
      edge.port = Number(port.trim());
      edge.baseUrl = `http://127.0.0.1:${edge.port}`;
      return edge;
    }
    const status = await Promise.race([exited, sleep(50).then(() => null)]);
    if (status) throw new Error(`edge exited (${JSON.stringify(status)}) before listening:\n${output}`);
  }
  child.kill('SIGKILL');
  throw new Error(`edge wrote no port file within 15 s:\n${output}`);
}

// Stops edge and asserts a clean exit (status 0 after SIGTERM).
export async function stopEdgeCleanly(edge) {
  if (!edge) return;
  const status = await edge.stop();
  assert.deepEqual(status, { code: 0, signal: null }, `edge did not exit 0 after SIGTERM:\n${edge.output()}`);
}

// Runs `edge-admin --data-dir DIR --json ARGS...` and answers the parsed JSON; a non-zero exit throws.
export function edgeAdmin(dataDir, args, { input } = {}) {
  return new Promise((resolve, reject) => {
    const child = execFile(
      adminBin,
      ['--data-dir', dataDir, '--json', ...args],
      { env: childEnv(), timeout: 15_000 },
      (error, stdout, stderr) => {
        if (error) {
          reject(new Error(`edge-admin ${args.join(' ')} failed (${error.code}): ${stdout}${stderr}`));
          return;
        }
        try {
          resolve(JSON.parse(stdout));
        } catch {
          reject(new Error(`edge-admin ${args.join(' ')} printed no JSON: ${stdout}${stderr}`));
        }
      },
    );
    child.stdin.end(input ?? '');
  });
}

// A company with an owner who signs in with a password, and one confidential OAuth client of the company.
export async function seed(
  dataDir,
  {
    slug = 'acme',
    companyName = 'Acme Inc.',
    email = 'ayse@acme.test',
    userName = 'Ayşe Yılmaz',
    password = 'correct horse battery staple',
    clientName = 'Acme Notes',
    redirectUris,
    postLogoutRedirectUris = [],
    scopes = ['openid', 'profile', 'email'],
    homepage,
  },
) {
  const company = await edgeAdmin(dataDir, ['company', 'create', '--slug', slug, '--name', companyName]);
  const user = await edgeAdmin(
    dataDir,
    ['user', 'create', '--email', email, '--name', userName, '--password-stdin'],
    { input: `${password}\n` },
  );
  const member = await edgeAdmin(dataDir, ['member', 'add', '--company', slug, '--email', email, '--role', 'owner']);
  const clientArgs = ['oauth-client', 'create', '--company', slug, '--name', clientName];
  for (const uri of redirectUris) clientArgs.push('--redirect-uri', uri);
  for (const uri of postLogoutRedirectUris) clientArgs.push('--post-logout-redirect-uri', uri);
  for (const scope of scopes) clientArgs.push('--scope', scope);
  if (homepage) clientArgs.push('--homepage', homepage);
  const client = await edgeAdmin(dataDir, clientArgs);
  assert.match(client.clientId, /^cli_/);
  assert.match(client.clientSecret, /^ocs_/);
  return { company, user, member, client, email, password };
}

// A new 2048-bit RSA private key (PKCS#8 PEM) written by openssl to `file`; answers the PEM text.
export function generateRsaKey(file) {
  return new Promise((resolve, reject) => {
    execFile(
      'openssl',
      ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', file],
      { timeout: 30_000 },
      async (error, _stdout, stderr) => {
        if (error) reject(new Error(`openssl genpkey failed: ${stderr}`));
        else resolve(await readFile(file, 'utf8'));
      },
    );
  });
}

// fetch with `Connection: close`. edge finishes open connections when it stops, and an idle keep-alive
// connection of node's fetch holds it there for about 3 s (cpp-httplib's keep-alive wait); closing each
// connection after its response lets every stop take milliseconds. Also given to openid-client as its
// customFetch.
export function fetchClosing(url, init = {}) {
  const headers = new Headers(init.headers);
  headers.set('connection', 'close');
  return fetch(url, { ...init, headers });
}

// A cookie jar for one host, enough for edge's cookies: name=value, removed by Max-Age=0.
export class CookieJar {
  #cookies = new Map();

  store(response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age\s*=\s*0\s*$/i.test(a));
      if (expired) this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }

  get(name) {
    return this.#cookies.get(name);
  }

  header() {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

// One request as a browser makes it: the jar's cookies go out, Set-Cookie comes back into the jar,
// redirects are not followed.
export async function browserFetch(jar, url, { method = 'GET', form, headers = {} } = {}) {
  const init = { method, redirect: 'manual', headers: { ...headers } };
  const cookie = jar.header();
  if (cookie) init.headers.cookie = cookie;
  if (form) {
    init.body = new URLSearchParams(form).toString();
    init.headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  const response = await fetchClosing(url, init);
  jar.store(response);
  return response;
}

function decodeEntities(text) {
  return text.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_, entity) => {
    return { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'" }[entity];
  });
}

function attribute(tag, name) {
  const match = tag.match(new RegExp(`\\s${name}="([^"]*)"`));
  return match ? decodeEntities(match[1]) : undefined;
}

// The hidden inputs of the first form posting to `action`, in document order, as [name, value] pairs.
export function hiddenFields(html, action) {
  const forms = [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)];
  const form = forms.find(([, attrs]) => attribute(` ${attrs}`, 'action') === action);
  assert.ok(form, `no form posting to ${action} in:\n${html}`);
  const fields = [];
  for (const [tag] of form[2].matchAll(/<input\b[^>]*>/g)) {
    if (attribute(tag, 'type') !== 'hidden') continue;
    fields.push([attribute(tag, 'name'), attribute(tag, 'value') ?? '']);
  }
  return fields;
}

// Follows an authorize URL like a browser would, signing in on /login when edge asks for it and pressing
// Allow on the consent page when it appears. Answers the URL edge finally redirects to (the client's
// redirect_uri with code, state and iss) and what happened on the way.
export async function authorizeInBrowser(jar, authorizationUrl, { email, password, decision = 'allow' }) {
  const steps = [];
  const base = new URL(authorizationUrl).origin;
  let response = await browserFetch(jar, authorizationUrl);
  if (response.status === 302 && new URL(response.headers.get('location'), base).pathname === '/login') {
    const loginUrl = new URL(response.headers.get('location'), base);
    steps.push('login');
    const page = await browserFetch(jar, loginUrl);
    assert.equal(page.status, 200);
    const html = await page.text();
    const fields = Object.fromEntries(hiddenFields(html, '/login'));
    assert.ok(jar.get('login_csrf'), 'GET /login set no login_csrf cookie');
    assert.equal(fields.csrf, jar.get('login_csrf'));
    const signIn = await browserFetch(jar, new URL('/login', base), {
      method: 'POST',
      form: { ...fields, email, password },
    });
    assert.equal(signIn.status, 303, `POST /login answered ${signIn.status}: ${await signIn.text()}`);
    assert.ok(jar.get('platform_session'), 'POST /login set no session cookie');
    const next = new URL(signIn.headers.get('location'), base);
    assert.equal(next.pathname, '/oauth/authorize');
    response = await browserFetch(jar, next);
  }
  if (response.status === 200) {
    steps.push('consent');
    const html = await response.text();
    const fields = hiddenFields(html, '/oauth/authorize');
    response = await browserFetch(jar, new URL('/oauth/authorize', base), {
      method: 'POST',
      form: [...fields, ['decision', decision]],
    });
  }
  assert.equal(response.status, 302, `authorize ended with ${response.status}: ${await response.text()}`);
  return { location: new URL(response.headers.get('location')), steps };
}

// A tiny relying party on 127.0.0.1: records every request's URL and answers "signed in".
export async function startRelyingParty() {
  const http = await import('node:http');
  const requests = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, `http://${req.headers.host}`);
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    requests.push(url);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Relying party</title><h1 id="rp">signed in</h1>');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
