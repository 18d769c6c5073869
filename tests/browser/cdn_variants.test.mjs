// The public CDN in Chromium (docs/storage-cdn.md): an image uploaded public through the storage API and shown
// by <img> elements at its `url` and a named quality. Chromium's own Accept header picks AVIF; the variant has
// the quality's width, the spec's cache headers and no EXIF; the browser's second look is a cache hit or a 304;
// a private item draws nothing (404). Also the same URLs with curl, whose Accept (*/*) gets the legacy format.
//
// Needs: the native build (EDGE_BIN, edge-admin beside it), `npm ci` (playwright-core), /usr/bin/chromium,
// `vips` (libvips-tools) to make the photo.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { assertBinaries, edgeAdmin, makeTempDir, removeTempDir, startEdge, stopEdgeCleanly } from '../support/edge.mjs';
import { launchBrowser, watchPage } from '../support/browser.mjs';

let tmp;
let edge;
let base;
let token;
let context;
let page;
let publicId;
let privateId;
const problems = [];
const refusals = [];

const gallery = () => `<!doctype html><body style="margin:0">
  <img id="thumb" src="${base}/f/${publicId}/thumb" alt="thumb">
  <img id="small" src="${base}/f/${publicId}/small" alt="small">
  <img id="hidden" src="${base}/f/${privateId}/thumb" alt="hidden"></body>`;

async function api(method, url, { body, headers = {} } = {}) {
  const res = await fetch(`${base}${url}`, { method, body, headers: { Authorization: `Bearer ${token}`, ...headers } });
  return { status: res.status, json: await res.json() };
}

async function upload(bytes, name, isPublic) {
  const r = await api('POST', `/api/companies/acme/buckets/site/media?filename=${name}&contentType=image/jpeg&isPublic=${isPublic}`, {
    body: bytes,
    headers: { 'Content-Type': 'application/octet-stream' },
  });
  assert.equal(r.status, 201, JSON.stringify(r.json));
  return r.json.data;
}

before(async () => {
  assertBinaries();
  tmp = await makeTempDir('cdn-variants-');
  const dataDir = path.join(tmp, 'data');
  await edgeAdmin(dataDir, ['company', 'create', '--slug', 'acme', '--name', 'Acme Inc.']);
  const created = await edgeAdmin(dataDir, ['token', 'create', '--company', 'acme', '--name', 'cdn test',
    '--permission', 'storage.view', '--permission', 'buckets.create', '--permission', 'media.upload']);
  token = created.token;
  edge = await startEdge({ dataDir, workDir: tmp });
  base = edge.baseUrl;
  // A 1600 × 1200 photo-like JPEG with a camera make in its EXIF.
  const photo = path.join(tmp, 'photo.jpg');
  execFileSync('vips', ['gaussnoise', path.join(tmp, 'noise.v'), '1600', '1200', '--mean', '128', '--sigma', '40']);
  execFileSync('vips', ['colourspace', path.join(tmp, 'noise.v'), path.join(tmp, 'srgb.v'), 'srgb']);
  execFileSync('vips', ['copy', path.join(tmp, 'srgb.v'), `${photo}[Q=90]`]);
  const bytes = await readFile(photo);
  assert.equal((await api('POST', '/api/companies/acme/buckets', {
    body: JSON.stringify({ slug: 'site', name: 'Site', visibility: 'public' }),
    headers: { 'Content-Type': 'application/json' },
  })).status, 201);
  const shown = await upload(bytes, 'photo.jpg', true);
  const hidden = await upload(bytes, 'secret.jpg', false);
  publicId = shown.id;
  privateId = hidden.id;
  assert.equal(shown.url, `${base}/f/${publicId}`);
  ({ context, page } = await launchBrowser(path.join(tmp, 'profile')));
  watchPage(page, { problems, refusals });
});

after(async () => {
  await context?.close();
  await stopEdgeCleanly(edge);
  await removeTempDir(tmp);
});

describe('CDN variants in Chromium', { timeout: 120_000 }, () => {
  test('an <img> of a named quality gets the AVIF variant at its width, with the immutable cache headers', async () => {
    const answers = new Map();
    page.on('response', (r) => answers.set(new URL(r.url()).pathname, r));
    await page.setContent(gallery());
    await page.waitForFunction(() => [...document.images].every((i) => i.complete));
    const sizes = await page.evaluate(() => [...document.images].map((i) => [i.id, i.naturalWidth, i.naturalHeight]));
    assert.deepEqual(sizes, [['thumb', 200, 150], ['small', 480, 360], ['hidden', 0, 0]]);
    const thumb = answers.get(`/f/${publicId}/thumb`);
    assert.equal(thumb.status(), 200);
    const h = thumb.headers();
    assert.equal(h['content-type'], 'image/avif');
    assert.equal(h['x-image-format'], 'avif');
    assert.equal(h['vary'], 'Accept');
    assert.equal(h['cache-control'], 'public, max-age=31536000, immutable');
    assert.match(h['etag'], /^"/);
    // The private item's 404 is the platform's JSON envelope, which Chromium's opaque-response blocking
    // (ORB) withholds from an <img>: the request fails and nothing is drawn.
    assert.deepEqual(problems, [`request failed: ${base}/f/${privateId}/thumb`]);
    problems.length = 0;
  });

  test('the same page again is served from the browser cache or answered 304, never remade', async () => {
    const statuses = [];
    const listener = (r) => {
      if (new URL(r.url()).pathname === `/f/${publicId}/thumb`) statuses.push(r.status());
    };
    page.on('response', listener);
    await page.setContent(gallery());
    await page.waitForFunction(() => [...document.images].every((i) => i.complete));
    page.off('response', listener);
    // The private item fails again, as in the first test.
    for (let i = problems.length - 1; i >= 0; i -= 1) if (problems[i] === `request failed: ${base}/f/${privateId}/thumb`) problems.splice(i, 1);
    assert.equal(await page.evaluate(() => document.getElementById('thumb').naturalWidth), 200);
    // An immutable response is reused without asking (200 from the cache) or revalidated (304).
    for (const s of statuses) assert.ok(s === 200 || s === 304, `status ${s}`);
  });

  test('curl: */* gets the legacy JPEG, Range and If-None-Match work on the variant', () => {
    const url = `${base}/f/${publicId}/thumb`;
    const head = execFileSync('curl', ['-s', '-D', '-', '-o', '/dev/null', url], { encoding: 'utf8' });
    assert.match(head, /^HTTP\/1\.1 200/);
    assert.match(head, /\r\ncontent-type: image\/jpeg\r\n/i);
    assert.match(head, /\r\nx-image-format: jpeg\r\n/i);
    const etag = /\r\netag: ("[^"]+")\r\n/i.exec(head)[1];
    const again = execFileSync('curl', ['-s', '-D', '-', '-o', '/dev/null', '-H', `If-None-Match: ${etag}`, url], { encoding: 'utf8' });
    assert.match(again, /^HTTP\/1\.1 304/);
    const range = execFileSync('curl', ['-s', '-D', '-', '-o', '/dev/null', '-r', '0-99', url], { encoding: 'utf8' });
    assert.match(range, /^HTTP\/1\.1 206/);
    assert.match(range, /\r\ncontent-range: bytes 0-99\/\d+\r\n/i);
  });

  test('no page errors', () => {
    assert.deepEqual(problems, []);
  });
});
