// Time to the first interactive screen of the offline till (docs/performance.md, "Offline till: first
// screen"), in Chromium through playwright-core against a real edge serving this checkout's web/ and
// bindings/ with the wasm build. "Interactive" is the till's own mark `till:interactive` (app.js): the screen
// is drawn from the local data with its handlers attached, after the wasm core, IndexedDB and the first read
// of the menu, tables and queue. The figure is that mark's time since the navigation started, as the page
// itself measures it. Runs:
//   cold, fresh profile   a new Chromium profile each run: no service worker, no HTTP cache, not paired
//                         (the first screen is "Pair this device", which also asks GET /api/session)
//   cold, paired          a paired till whose service worker, Cache Storage and HTTP cache were cleared:
//                         every file comes over the network, the local data is IndexedDB's (tables screen)
//   warm, reload          the same till reloaded with its service worker in control (tables screen)
//   warm, offline         the same, with the network cut (context.setOffline): the shell from the cache
// Needs: EDGE_BIN, PLATFORM_WASM_DIR (as the browser tests), playwright-core, /usr/bin/chromium.
// Run: node bench/till_first_screen.mjs [runs]      (default 7 runs of each; prints a table and JSON)
import path from 'node:path';

import { makeTempDir, removeTempDir, stopEdgeCleanly } from '../tests/support/edge.mjs';
import { TILL, launchTill, pairTill, seedRestaurant, startTillEdge, tillReady } from '../tests/browser/till_support.mjs';

const runs = Number(process.argv[2] ?? 7);
const tmp = await makeTempDir('till-bench-');
const { edge, base, api } = await startTillEdge(tmp);
const results = {};

async function measure(page) {
  await tillReady(page);
  return page.evaluate(() => {
    const mark = performance.getEntriesByName('till:interactive')[0];
    const at = (name) => performance.getEntriesByName(name)[0]?.startTime ?? null;
    const resources = performance.getEntriesByType('resource');
    const navigation = performance.getEntriesByType('navigation')[0];
    const bytes = resources.reduce((sum, r) => sum + r.transferSize, navigation?.transferSize ?? 0);
    return {
      ms: mark.startTime,
      core: at('till:core'),
      data: at('till:data'),
      domContentLoaded: navigation?.domContentLoadedEventEnd ?? null,
      bytes,
      screen: document.documentElement.dataset.screen,
      requests: resources.length + 1,
    };
  });
}

function record(name, sample) {
  (results[name] ??= []).push(sample);
}

try {
  const menu = await seedRestaurant(api);

  // Cold, fresh profile.
  for (let i = 0; i < runs; i += 1) {
    const till = await launchTill(path.join(tmp, `fresh-${i}`));
    await till.page.goto(`${base}${TILL}`);
    record('cold, fresh profile', await measure(till.page));
    await till.context.close();
  }

  // One paired till for the rest, with an open order on a table so the tables screen has data to draw.
  const till = await launchTill(path.join(tmp, 'paired'));
  const { page, context } = till;
  await pairTill(page, base, { branchName: 'Moda', deviceName: 'Bench' });
  await page.click(`.table-tile[data-table="${menu.tables.T1.id}"]`);
  await page.click(`.product-button[data-product="${menu.products.lemonade.id}"]`);
  await page.waitForSelector('.ticket-line');
  await page.goto(`${base}${TILL}#/tables`);
  await tillReady(page);
  const cdp = await context.newCDPSession(page);

  for (let i = 0; i < runs; i += 1) {
    await page.evaluate(async () => {
      for (const registration of await navigator.serviceWorker.getRegistrations()) await registration.unregister();
      for (const name of await caches.keys()) await caches.delete(name);
    });
    await cdp.send('Network.clearBrowserCache');
    await page.reload();
    record('cold, paired', await measure(page));
  }
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await page.reload();
  await tillReady(page);

  for (let i = 0; i < runs; i += 1) {
    await page.reload();
    record('warm, reload (service worker)', await measure(page));
  }
  await context.setOffline(true);
  for (let i = 0; i < runs; i += 1) {
    await page.reload();
    record('warm, offline (service worker)', await measure(page));
  }
  await context.setOffline(false);
  await context.close();
  if (till.problems.length) throw new Error(till.problems.join('\n'));
} finally {
  await stopEdgeCleanly(edge);
  await removeTempDir(tmp);
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
console.log(`till first interactive screen, ${runs} runs each (ms since navigation start; bytes over the network)`);
console.log('| run | screen | median ms | min-max ms | core ready (median) | data read (median) | requests | bytes transferred (median) |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|');
const summary = {};
for (const [name, samples] of Object.entries(results)) {
  const ms = samples.map((s) => s.ms);
  const core = median(samples.map((s) => s.core));
  const data = median(samples.map((s) => s.data ?? s.ms));
  summary[name] = { median: median(ms), min: Math.min(...ms), max: Math.max(...ms), core, data, bytes: median(samples.map((s) => s.bytes)), screen: samples[0].screen, samples: ms };
  console.log(
    `| ${name} | ${samples[0].screen} | ${summary[name].median.toFixed(0)} | ${Math.min(...ms).toFixed(0)}-${Math.max(...ms).toFixed(0)} | ${core.toFixed(0)} | ${data.toFixed(0)} | ${samples[0].requests} | ${summary[name].bytes} |`,
  );
}
console.log(JSON.stringify(summary));
