// The embeddable badge /p/{slug}/embed (edge/status/embed_page.cpp, web/status/embed.js) in Chromium: it
// fetches the snapshot and derives the overall status with the platform_status wasm module, shows it in
// light and dark by prefers-color-scheme and in Turkish with ?lang=tr, and another site may frame it. The
// JavaScript and wasm it loads are measured gzipped (at most 60 KB). Screenshots:
// build/screenshots/status_embed*.png.
//
// Needs: the native build (EDGE_BIN), the wasm build (PLATFORM_WASM_DIR), `npm ci` (playwright-core) and
// /usr/bin/chromium.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';

import { launchBrowser, watchPage } from '../support/browser.mjs';
import { assertBinaries, makeTempDir, removeTempDir, screenshots, stopEdgeCleanly } from '../support/edge.mjs';
import { createPage, snapshotWhen, startHostPage, startStatusEdge, startTarget } from './status_support.mjs';

let tmp;
let edge;
let base;
let api;
let target;
let browser;
const watched = { problems: [], refusals: [] };

async function shot(page, name) {
  await mkdir(screenshots, { recursive: true });
  await page.screenshot({ path: path.join(screenshots, `status_embed${name}.png`) });
}

// The badge once embed.js has derived a status.
async function derived(page) {
  await page.waitForSelector('#badge[data-source="wasm"]', { timeout: 20_000 });
  return {
    status: await page.getAttribute('#badge', 'data-status'),
    text: await page.textContent('#status-text'),
    name: await page.textContent('.em-name'),
    background: await page.$eval('.em-badge', (b) => getComputedStyle(b).backgroundColor),
    dot: await page.$eval('.em-dot', (d) => getComputedStyle(d).backgroundColor),
  };
}

before(async () => {
  assertBinaries();
  tmp = await makeTempDir('status-embed-');
  target = await startTarget();
  target.statuses['/mail'] = 503;
  ({ edge, base, api } = await startStatusEdge(tmp));
  await createPage(api, target, 'acme', [
    { name: 'API', path: '/api' },
    { name: 'Mail', path: '/mail' },
  ]);
  await snapshotWhen(base, 'acme', (s) => s.components.every((c) => c.status !== 'no-data'));
  browser = await launchBrowser(path.join(tmp, 'profile'), { viewport: { width: 360, height: 72 } });
  watchPage(browser.page, watched);
});

after(async () => {
  await browser?.context.close().catch(() => {});
  await stopEdgeCleanly(edge);
  await target?.close();
  await removeTempDir(tmp);
});

describe('status embed', { timeout: 180_000 }, () => {
  test('light: the status derived by the wasm core matches the server, JS + wasm under 60 KB gzipped', async () => {
    const page = browser.page;
    const loaded = new Map();
    const collect = (response) => {
      const url = new URL(response.url());
      // Revalidated files (304) have no body here; this first load has a fresh profile, so all are 200.
      if (/\.(m?js|wasm)$/.test(url.pathname)) loaded.set(url.pathname, response.body().catch(() => null));
    };
    page.on('response', collect);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`${base}/p/acme/embed`);
    const badge = await derived(page);
    const snapshot = await (await fetch(`${base}/api/v1/status/acme`)).json();
    assert.equal(snapshot.overall, 'down');
    assert.deepEqual(badge, {
      status: 'down',
      text: 'Service disruption',
      name: 'Acme Cloud',
      background: 'rgb(255, 255, 255)',
      dot: 'rgb(220, 38, 38)',
    });
    assert.equal(await page.getAttribute('#badge', 'href'), '/p/acme?lang=en');
    // The rules ran in the platform_status module, which the badge loaded.
    assert.ok(loaded.has('/web/wasm/platform_status.wasm'), [...loaded.keys()].join(', '));
    assert.deepEqual(
      await page.evaluate(async () => {
        const { loadStatus } = await import('/web/bindings/status.js');
        const status = await loadStatus();
        return [status.pageStatus(['operational', 'down']).value, status.componentStatus(['down'], true).value];
      }),
      ['down', 'maintenance'],
    );
    await shot(page, '_light');
    page.off('response', collect);

    let total = 0;
    const sizes = [];
    for (const [name, body] of loaded) {
      const bytes = await body;
      assert.ok(bytes, `${name} was not loaded fresh`);
      const gz = gzipSync(bytes, { level: 9 }).length;
      total += gz;
      sizes.push(`${name} ${gz} B`);
    }
    console.log(`status embed: JavaScript + wasm gzipped ${total} B (${(total / 1024).toFixed(1)} KB): ${sizes.join(', ')}`);
    assert.ok(total <= 60 * 1024, `the embed loads ${total} B gzipped`);
  });

  test('dark by prefers-color-scheme', async () => {
    const page = browser.page;
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${base}/p/acme/embed`);
    const badge = await derived(page);
    assert.equal(badge.status, 'down');
    assert.equal(badge.background, 'rgb(22, 27, 34)');
    assert.equal(badge.dot, 'rgb(240, 82, 82)');
    await shot(page, '_dark');
  });

  test('?lang=tr', async () => {
    const page = browser.page;
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`${base}/p/acme/embed?lang=tr`);
    const badge = await derived(page);
    assert.equal(badge.text, 'Hizmet kesintisi');
    assert.equal(await page.getAttribute('html', 'lang'), 'tr');
    await shot(page, '_tr');
  });

  test('all operational turns the badge green', async () => {
    target.statuses['/mail'] = 200;
    await snapshotWhen(base, 'acme', (s) => s.overall === 'operational');
    const page = browser.page;
    await page.goto(`${base}/p/acme/embed`);
    const badge = await derived(page);
    assert.equal(badge.status, 'operational');
    assert.equal(badge.text, 'All systems operational');
    assert.equal(badge.dot, 'rgb(31, 157, 85)');
    await shot(page, '_operational');
  });

  test('another site frames the badge', async () => {
    const host = await startHostPage(
      `<!doctype html><body style="margin:0"><iframe id="f" src="${base}/p/acme/embed?lang=en" width="340" height="64" style="border:0"></iframe></body>`,
    );
    try {
      const page = await browser.context.newPage();
      watchPage(page, watched);
      await page.goto(host.url);
      const frame = page.frames().find((f) => f !== page.mainFrame());
      assert.ok(frame);
      await frame.waitForSelector('#badge[data-source="wasm"]', { timeout: 20_000 });
      assert.equal(await frame.getAttribute('#badge', 'data-status'), 'operational');
      await page.close();
    } finally {
      await host.close();
    }
  });

  test('nothing failed on the way', () => {
    assert.deepEqual(watched.problems, []);
    assert.deepEqual(watched.refusals, []);
  });
});
