// The status embed badge (/p/{slug}/embed, docs/status-public.md): its bytes (HTML, CSS, JavaScript and the
// platform_status wasm module, raw and gzipped) and, in Chromium through playwright-core against a real edge,
// the time to first paint (first-contentful-paint: the badge's frame with the page name) and to the status
// derived by the wasm core (the mark `status-embed:derived` of web/status/embed.js), each since navigation
// start, cold (fresh profile: no HTTP cache) and warm (reload with the cache). Not run by the tests.
// Needs: EDGE_BIN, PLATFORM_WASM_DIR (as the browser tests), playwright-core, /usr/bin/chromium.
// Run: node bench/status_embed.mjs [runs]      (default 7 runs of each; prints a table and JSON)
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import { chromium } from 'playwright-core';

import { chromiumBin, chromiumFlags, makeTempDir, removeTempDir, stopEdgeCleanly } from '../tests/support/edge.mjs';
import { createPage, snapshotWhen, startStatusEdge, startTarget } from '../tests/browser/status_support.mjs';

const runs = Number(process.argv[2] ?? 7);
const tmp = await makeTempDir('status-embed-bench-');
const target = await startTarget();
const { edge, base, api } = await startStatusEdge(tmp);
await createPage(api, target, 'acme', [
  { name: 'API', path: '/api' },
  { name: 'Website', path: '/www' },
  { name: 'Mail', path: '/mail' },
]);
await snapshotWhen(base, 'acme', (s) => s.components.every((c) => c.status !== 'no-data'));
const url = `${base}/p/acme/embed`;

// Bytes of every file the badge loads.
const files = new Map();
async function measure(page) {
  await page.waitForSelector('#badge[data-source="wasm"]');
  return page.evaluate(() => {
    const paint = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null;
    const derived = performance.getEntriesByName('status-embed:derived')[0]?.startTime ?? null;
    return { paint, derived };
  });
}

const results = { cold: [], warm: [] };
for (let i = 0; i < runs; i += 1) {
  const profile = path.join(tmp, `profile-${i}`);
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumBin,
    headless: true,
    args: chromiumFlags,
    viewport: { width: 360, height: 72 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('response', (response) => {
    const p = new URL(response.url()).pathname;
    if (!files.has(p) && response.status() === 200) files.set(p, response.body().catch(() => Buffer.alloc(0)));
  });
  await page.goto(url);
  results.cold.push(await measure(page));
  await page.reload();
  results.warm.push(await measure(page));
  await context.close();
}

const median = (xs) => {
  const s = xs.filter((x) => x !== null).sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : null;
};
let raw = 0;
let gz = 0;
let codeGz = 0;
const sizes = [];
for (const [name, body] of files) {
  const bytes = await body;
  const g = gzipSync(bytes, { level: 9 }).length;
  raw += bytes.length;
  gz += g;
  if (/\.(m?js|wasm)$/.test(name)) codeGz += g;
  sizes.push({ file: name, bytes: bytes.length, gzip: g });
}
console.log('file                                   bytes    gzip');
for (const s of sizes) console.log(`${s.file.padEnd(36)} ${String(s.bytes).padStart(7)} ${String(s.gzip).padStart(7)}`);
console.log(`all files                            ${String(raw).padStart(7)} ${String(gz).padStart(7)}`);
console.log(`JavaScript + wasm gzipped: ${codeGz} B (${(codeGz / 1024).toFixed(1)} KB, limit 60 KB)`);
for (const kind of ['cold', 'warm']) {
  console.log(
    `${kind}: first paint median ${median(results[kind].map((r) => r.paint))?.toFixed(1)} ms, ` +
      `status derived median ${median(results[kind].map((r) => r.derived))?.toFixed(1)} ms (${runs} runs)`,
  );
}
console.log(JSON.stringify({ runs, sizes, codeGzip: codeGz, results }));

await stopEdgeCleanly(edge);
await target.close();
await removeTempDir(tmp);
