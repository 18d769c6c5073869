// The public status page /p/{slug} (edge/status/public_page_view.cpp, web/status/page.js) served by a real
// edge whose probe worker checks a local target, in Chromium through playwright-core: the branding, the
// overall banner, the components with their 90 daily bars and uptimes; a check that starts failing turns
// the page red without a reload (Server-Sent Events), and a branding change follows the same way; the
// Turkish page on a phone-sized screen; and the page refuses to be framed by another site.
// Screenshots: build/screenshots/status_page*.png.
//
// Needs: the native build (EDGE_BIN), the wasm build (PLATFORM_WASM_DIR), `npm ci` (playwright-core) and
// /usr/bin/chromium. The probe worker probes each check within its first 30 s interval, so the suite takes
// about a minute.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { launchBrowser, watchPage } from '../support/browser.mjs';
import { assertBinaries, makeTempDir, removeTempDir, screenshots, stopEdgeCleanly } from '../support/edge.mjs';
import { createPage, snapshotWhen, startHostPage, startStatusEdge, startTarget } from './status_support.mjs';

let tmp;
let edge;
let base;
let api;
let target;
let browser;
let made;
const watched = { problems: [], refusals: [] };

async function shot(page, name) {
  await mkdir(screenshots, { recursive: true });
  await page.screenshot({ path: path.join(screenshots, `status_page${name}.png`), fullPage: true });
}

// Waits (polling the DOM) until fn() in the page is truthy.
const until = (page, fn, arg, timeout = 75_000) => page.waitForFunction(fn, arg, { timeout, polling: 250 });

before(async () => {
  assertBinaries();
  tmp = await makeTempDir('status-page-');
  target = await startTarget();
  ({ edge, base, api } = await startStatusEdge(tmp));
  made = await createPage(api, target, 'acme', [
    { name: 'API', path: '/api' },
    { name: 'Website', path: '/www' },
  ]);
  await snapshotWhen(base, 'acme', (s) => s.components.every((c) => c.status === 'operational'));
  browser = await launchBrowser(path.join(tmp, 'profile'));
  watchPage(browser.page, watched);
});

after(async () => {
  await browser?.context.close().catch(() => {});
  await stopEdgeCleanly(edge);
  await target?.close();
  await removeTempDir(tmp);
});

describe('public status page', { timeout: 240_000 }, () => {
  test('renders the branding, the overall status and every component with its 90 days', async () => {
    const page = browser.page;
    await page.goto(`${base}/p/acme`);
    assert.equal(await page.title(), 'Acme Cloud · All systems operational');
    assert.equal(await page.textContent('.sp-name'), 'Acme Cloud');
    assert.equal(await page.textContent('.sp-tagline'), 'Every Acme service, live');
    assert.equal(await page.getAttribute('#overall', 'data-status'), 'operational');
    assert.equal(await page.textContent('#overall h1'), 'All systems operational');
    const components = await page.$$eval('.sp-component', (list) =>
      list.map((c) => ({
        name: c.querySelector('.sp-cname').textContent,
        status: c.dataset.status,
        bars: c.querySelectorAll('.sp-bar').length,
        today: c.querySelector('.sp-bar:last-child').className,
        uptime: c.querySelector('.sp-u24').textContent,
      })),
    );
    assert.deepEqual(components, [
      { name: 'API', status: 'operational', bars: 90, today: 'sp-bar s-operational', uptime: '100.00 %' },
      { name: 'Website', status: 'operational', bars: 90, today: 'sp-bar s-operational', uptime: '100.00 %' },
    ]);
    // The bars are drawn: today's is green (--ok), an empty day grey.
    const colors = await page.$$eval('.sp-component:first-child .sp-bar', (bars) =>
      [bars[0], bars.at(-1)].map((b) => getComputedStyle(b).backgroundColor),
    );
    assert.notEqual(colors[0], colors[1]);
    assert.equal(colors[1], 'rgb(31, 157, 85)');
    // The brand colour reaches the header.
    assert.equal(await page.$eval('.sp-header', (h) => getComputedStyle(h).borderTopColor), 'rgb(15, 118, 110)');
    assert.ok(await page.isVisible('#subscribe-form'));
    await until(page, () => window.statusPage?.connected === true);
    assert.equal(await page.getAttribute('#live', 'data-state'), 'live');
    await shot(page, '');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, '_dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  test('a check that starts failing turns the page red without a reload', async () => {
    const page = browser.page;
    await page.evaluate(() => (window.notReloaded = true));
    const before = await page.evaluate(() => window.statusPage.updates);
    target.statuses['/api'] = 503;
    await until(page, () => document.getElementById('overall').dataset.status === 'down');
    assert.equal(await page.evaluate(() => window.notReloaded), true);
    assert.ok((await page.evaluate(() => window.statusPage.updates)) > before);
    assert.equal(await page.textContent('#overall h1'), 'Service disruption');
    assert.equal(await page.title(), 'Acme Cloud · Service disruption');
    const apiRow = page.locator(`.sp-component[data-id="${made.components[0].id}"]`);
    assert.equal(await apiRow.getAttribute('data-status'), 'down');
    assert.equal(await apiRow.locator('.sp-status').textContent(), 'Down');
    assert.equal(await apiRow.locator('.sp-bar').last().getAttribute('class'), 'sp-bar s-down');
    assert.equal(await page.locator('.sp-component').count(), 2);
    // The page and the JSON agree.
    const snapshot = await (await fetch(`${base}/api/v1/status/acme`)).json();
    assert.equal(snapshot.overall, 'down');
    await shot(page, '_down');

    // A branding change reaches the open page the same way.
    await api('PATCH', `/pages/${made.page.id}`, { branding: { tagline: 'We are on it' } });
    await until(page, () => document.querySelector('.sp-tagline')?.textContent === 'We are on it', undefined, 15_000);
    assert.equal(await page.evaluate(() => window.notReloaded), true);
  });

  test('Turkish on a phone-sized screen', async () => {
    const page = await browser.context.newPage();
    watchPage(page, watched);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${base}/p/acme?lang=tr`);
    assert.equal(await page.getAttribute('html', 'lang'), 'tr');
    assert.equal(await page.textContent('#overall h1'), 'Hizmet kesintisi');
    assert.equal(await page.textContent('#components h2'), 'Bileşenler');
    assert.equal(await page.locator('.sp-component .sp-status').first().textContent(), 'Kesinti');
    // Nothing sticks out of a narrow screen.
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true);
    await until(page, () => window.statusPage?.connected === true, undefined, 15_000);
    assert.equal(await page.textContent('#live'), 'Canlı');
    await shot(page, '_tr_mobile');
    await page.close();
  });

  test('another site cannot frame the page', async () => {
    const host = await startHostPage(`<!doctype html><iframe id="f" src="${base}/p/acme"></iframe>`);
    try {
      const page = await browser.context.newPage();
      await page.goto(host.url); // resolves after the frame's load too
      const frame = page.frames().find((f) => f !== page.mainFrame());
      const framed = frame ? await frame.evaluate(() => !!document.getElementById('overall')).catch(() => false) : false;
      assert.equal(framed, false);
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
