// What the status page browser tests share (status_page.test.mjs, status_embed.test.mjs) and the embed
// benchmark (bench/status_embed.mjs): an edge serving this checkout's web/ and bindings/ with the wasm build,
// a company with a status.manage token, a local probe target whose answers the test switches, a page whose
// checks probe it, and a waiting helper for the probe worker's verdicts.
import assert from 'node:assert/strict';
import http from 'node:http';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { edgeAdmin, fetchClosing, repo, startEdge } from '../support/edge.mjs';

export const SLUG = 'acme';
export const wasmRoot = path.resolve(repo, process.env.PLATFORM_WASM_DIR ?? 'build/wasm/wasm');

// A local HTTP server that answers every path with the status `statuses[path]` (200 by default).
export async function startTarget() {
  const statuses = {};
  const server = http.createServer((req, res) => {
    res.writeHead(statuses[req.url] ?? 200, { 'content-type': 'text/plain', connection: 'close' });
    res.end('ok');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { statuses, url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

// Serves one HTML document (a third-party page that frames ours) on its own origin.
export async function startHostPage(html) {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', connection: 'close' });
    res.end(html);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://localhost:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) };
}

// Edge on a fresh data directory with company acme and a token holding status.manage. Answers {edge, base,
// api}: api(method, path, body) calls the dashboard API under /api/v1/dashboard/companies/acme.
export async function startStatusEdge(tmp, { args = [] } = {}) {
  const dataDir = path.join(tmp, 'data');
  await edgeAdmin(dataDir, ['company', 'create', '--slug', SLUG, '--name', 'Acme Ltd.']);
  const { token } = await edgeAdmin(dataDir, ['token', 'create', '--company', SLUG, '--name', 'status tests', '--permission', 'status.manage']);
  const edge = await startEdge({
    dataDir,
    workDir: tmp,
    args: ['--web-root', path.join(repo, 'web'), '--bindings-root', path.join(repo, 'bindings'), '--wasm-root', wasmRoot, ...args],
  });
  const base = edge.baseUrl;
  const api = async (method, route, body) => {
    const response = await fetchClosing(`${base}/api/v1/dashboard/companies/${SLUG}${route}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = await response.json().catch(() => null);
    assert.ok(response.ok, `${method} ${route}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  return { edge, base, api };
}

// A branded page `slug` with one component per entry of `components` ({name, path}), each with a 30 s check
// of target.url + path. Answers {page, components: [{id, name, check}]}.
export async function createPage(api, target, slug, components, branding = {}) {
  const page = await api('POST', '/pages', { name: 'Acme', slug });
  await api('PATCH', `/pages/${page.id}`, {
    branding: { displayName: 'Acme Cloud', primaryColor: '#0f766e', tagline: 'Every Acme service, live', ...branding },
    subscribersEnabled: true,
  });
  const made = [];
  for (const c of components) {
    const component = await api('POST', `/pages/${page.id}/components`, { name: c.name });
    const check = await api('POST', `/pages/${page.id}/components/${component.id}/checks`, {
      name: `${c.name} health`,
      url: `${target.url}${c.path}`,
      intervalSeconds: 30,
      timeoutMs: 5000,
    });
    made.push({ id: component.id, name: c.name, check: check.id });
  }
  return { page, components: made };
}

// The public snapshot once `ready(snapshot)` holds; the probe worker probes each check within its first
// 30 s interval, so this waits up to 75 s.
export async function snapshotWhen(base, slug, ready, timeout = 75_000) {
  const deadline = Date.now() + timeout;
  let snapshot;
  while (Date.now() < deadline) {
    const response = await fetchClosing(`${base}/api/v1/status/${slug}`, { cache: 'no-store' });
    snapshot = await response.json();
    if (ready(snapshot)) return snapshot;
    await sleep(500);
  }
  assert.fail(`the snapshot of ${slug} never got ready: ${JSON.stringify(snapshot?.components?.map((c) => c.status))}`);
}
