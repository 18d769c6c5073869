// The VAT calculator page (/web/tools/vat.html) served by a real edge, driven in the system Chromium through
// playwright-core. It checks the figures the wasm core puts on the page and leaves a screenshot in
// build/screenshots/vat_page.png.
//
// Needs: the wasm build (build/wasm/wasm/), `npm ci` (playwright-core), /usr/bin/chromium, and the edge binary
// (EDGE_BIN, default build/native/edge/edge). Run: node --test tests/browser/
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const edgeBin = path.resolve(repo, process.env.EDGE_BIN ?? 'build/native/edge/edge');
const wasmRoot = path.resolve(repo, process.env.PLATFORM_WASM_DIR ?? 'build/wasm/wasm');
const chromiumBin = process.env.CHROMIUM_BIN ?? '/usr/bin/chromium';
const screenshots = path.join(repo, 'build/screenshots');

// DESIGN.md's headless flags; playwright adds --headless itself and the profile folder comes from
// launchPersistentContext.
const chromiumFlags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let tmp;
let edge;
let edgeOutput = '';
let baseUrl;
let context;
let page;
const pageProblems = [];

// Starts the edge on a free port and answers its base URL once it has written the port file.
async function startEdge() {
  const portFile = path.join(tmp, 'port');
  const dataDir = path.join(tmp, 'data');
  await mkdir(dataDir);
  edge = spawn(
    edgeBin,
    [
      '--listen', '127.0.0.1:0',
      '--data-dir', dataDir,
      '--port-file', portFile,
      '--web-root', path.join(repo, 'web'),
      '--wasm-root', wasmRoot,
      '--bindings-root', path.join(repo, 'bindings'),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  edge.stdout.on('data', (chunk) => (edgeOutput += chunk));
  edge.stderr.on('data', (chunk) => (edgeOutput += chunk));
  const exited = new Promise((resolve) => edge.once('exit', (code, signal) => resolve({ code, signal })));

  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const port = await readFile(portFile, 'utf8').catch(() => '');
    if (/^\d+\s*$/.test(port)) return `http://127.0.0.1:${port.trim()}`;
    const status = await Promise.race([exited, sleep(50).then(() => null)]);
    if (status) throw new Error(`edge exited (${JSON.stringify(status)}) before listening:\n${edgeOutput}`);
  }
  throw new Error(`edge wrote no port file within 15 s:\n${edgeOutput}`);
}

async function stopEdge() {
  if (!edge || edge.exitCode !== null || edge.signalCode !== null) return;
  const exited = new Promise((resolve) => edge.once('exit', resolve));
  edge.kill('SIGTERM');
  // An abortable timer: a pending one would keep node alive for its full 10 s after the tests end.
  const timer = new AbortController();
  const stopped = await Promise.race([
    exited.then(() => true),
    sleep(10_000, undefined, { signal: timer.signal }).then(
      () => false,
      () => true,
    ),
  ]);
  timer.abort();
  if (!stopped) {
    edge.kill('SIGKILL');
    throw new Error('edge did not stop within 10 s of SIGTERM');
  }
}

const text = (selector) => page.locator(selector).textContent();

before(async () => {
  assert.ok(existsSync(edgeBin), `edge binary not found at ${edgeBin}: build the native tree or set EDGE_BIN`);
  assert.ok(existsSync(path.join(wasmRoot, 'platform_restaurant.wasm')), `no wasm build in ${wasmRoot}: see docs/wasm.md`);
  tmp = await mkdtemp(path.join(os.tmpdir(), 'vat-page-'));
  baseUrl = await startEdge();
  context = await chromium.launchPersistentContext(path.join(tmp, 'profile'), {
    executablePath: chromiumBin,
    headless: true,
    args: chromiumFlags,
    viewport: { width: 900, height: 1100 },
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (error) => pageProblems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') pageProblems.push(`console error: ${message.text()}`);
    // Emscripten warns (not errors) when streaming compilation fails, e.g. on a wrong .wasm content type.
    if (message.type() === 'warning') pageProblems.push(`console warning: ${message.text()}`);
  });
  page.on('requestfailed', (request) => pageProblems.push(`request failed: ${request.url()}`));
  page.on('response', (response) => {
    if (response.status() >= 400) pageProblems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
});

after(async () => {
  await context?.close();
  await stopEdge();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('/web/tools/vat.html', { timeout: 60_000 }, () => {
  test('loads the wasm core through the bindings and shows the default split', async () => {
    const response = await page.goto(`${baseUrl}/web/tools/vat.html`);
    assert.equal(response.status(), 200);
    // Pages under /web/ carry the dashboard's policy: the wasm core still loads under it.
    const policy = response.headers()['content-security-policy'];
    assert.match(policy, /script-src 'self' 'wasm-unsafe-eval';/);
    assert.match(policy, /frame-ancestors 'none'/);
    await page.waitForFunction(() => document.body.dataset.ready === 'true', null, { timeout: 15_000 });
    assert.equal(await page.title(), 'VAT calculator · Platform tools');
    assert.equal(await text('#core-status'), 'Platform core loaded: results update as you type.');
    // 11800 at 18 %: 1800 VAT exactly.
    assert.equal(await text('#net'), '10,000');
    assert.equal(await text('#vat'), '1,800');
    assert.equal(await text('#gross-out'), '11,800');
    assert.equal(await text('#net-major'), '100.00');
    assert.equal(await text('#vat-major'), '18.00');
    assert.equal(await text('#gross-major'), '118.00');
    assert.equal(await page.locator('button[data-bps="1800"]').getAttribute('aria-pressed'), 'true');
  });

  test('recomputes as the user types, rounding VAT half up', async () => {
    await page.fill('#gross', '100');
    await page.fill('#rate', '2000');
    assert.equal(await text('#net'), '83'); // 16.67 -> 17
    assert.equal(await text('#vat'), '17');
    assert.equal(await text('#vat-major'), '0.17');
    await page.fill('#gross', '12345');
    await page.click('button[data-bps="800"]');
    assert.equal(await page.inputValue('#rate'), '800');
    assert.equal(await text('#vat'), '914'); // 914.44 -> 914
    assert.equal(await text('#net'), '11,431');
    await page.click('button[data-bps="2000"]');
    assert.equal(await text('#vat'), '2,058'); // 2057.5 -> 2058
    assert.equal(await text('#net'), '10,287');
    assert.equal(await page.locator('#vat-error').isHidden(), true);
  });

  test("shows the core's error for a rate outside 0..10000 bps and for a fractional amount", async () => {
    await page.fill('#rate', '20000');
    assert.equal(await page.locator('#vat-error').isVisible(), true);
    assert.equal(
      await text('#vat-error'),
      'VAT rate must be an integer from 0 to 10000 basis points, got 20000 (vat_rate_invalid)',
    );
    assert.equal(await text('#net'), '–');
    await page.fill('#rate', '2000');
    await page.fill('#gross', '12.5');
    assert.match(await text('#vat-error'), /\(invalid_amount\)$/);
    await page.fill('#gross', '11800');
    assert.equal(await page.locator('#vat-error').isHidden(), true);
    assert.equal(await text('#vat'), '1,967'); // 11800 / 6 = 1966.67 -> 1967
  });

  test('a sale at 02:30 with cutoff 4 belongs to the previous business day', async () => {
    await page.fill('#local-time', '2026-03-15T02:30');
    await page.fill('#cutoff', '4');
    assert.equal(await text('#business-date'), '2026-03-14');
    assert.equal(await text('#business-date-note'), 'Before 04:00, so it counts for the previous business day.');
    await page.fill('#local-time', '2026-03-15T04:00');
    assert.equal(await text('#business-date'), '2026-03-15');
    assert.equal(await text('#business-date-note'), 'At or after 04:00, so it counts for the same calendar day.');
    await page.fill('#cutoff', '24');
    assert.equal(await text('#date-error'), 'dayCutoffHour must be from 0 to 23, got 24 (invalid_cutoff_hour)');
    assert.equal(await text('#business-date'), '–');
  });

  test('looks finished: screenshot of a filled-in page without errors', async () => {
    await page.fill('#gross', '11800');
    await page.click('button[data-bps="1800"]');
    await page.fill('#local-time', '2026-03-15T02:30');
    await page.fill('#cutoff', '4');
    await mkdir(screenshots, { recursive: true });
    const file = path.join(screenshots, 'vat_page.png');
    await page.screenshot({ path: file, fullPage: true });
    assert.ok(existsSync(file));
    assert.deepEqual(pageProblems, []);
  });
});
