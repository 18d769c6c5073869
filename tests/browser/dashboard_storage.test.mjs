// The storage pages of the dashboard (web/dashboard/storage/, docs/storage-api.md) served by a real edge and
// driven in the system Chromium through playwright-core: the owner creates a bucket (a taken slug is refused
// beside the field), uploads files with a progress bar each (XMLHttpRequest upload progress), sees a file
// whose bytes contradict its type and one past the quota refused with the server's sentence, reads the quota
// bar, filters and sorts the grid, renames the bucket and changes its visibility, deletes a file and the
// bucket, and reads the pages in Turkish. Screenshots: build/screenshots/dashboard_storage*.png.
//
// Needs: the native build (EDGE_BIN, edge-admin beside it), `npm ci` (playwright-core), /usr/bin/chromium.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { assertBinaries, edgeAdmin, makeTempDir, removeTempDir, repo, screenshots, startEdge, stopEdgeCleanly } from '../support/edge.mjs';
import { launchBrowser, watchPage } from '../support/browser.mjs';

const SLUG = 'acme';
const OWNER = { email: 'ayse@acme.test', name: 'Ayşe Yılmaz', password: 'correct horse battery staple' };
const QUOTA = 20_000;

let tmp;
let edge;
let base;
let context;
let page;
const problems = [];
const refusals = [];

const bucketsPage = (query = '') => `${base}/dashboard/${SLUG}/storage/buckets${query}`;

// A PNG header of w x h pixels and some padding: enough for the server's checks.
function png(w, h, pad = 200) {
  const head = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const size = Buffer.alloc(8);
  size.writeUInt32BE(w, 0);
  size.writeUInt32BE(h, 4);
  return Buffer.concat([head, size, Buffer.from([8, 6, 0, 0, 0]), Buffer.alloc(pad, 0x70)]);
}

async function shot(name) {
  await mkdir(screenshots, { recursive: true });
  await page.waitForTimeout(250);
  const file = path.join(screenshots, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  assert.ok(existsSync(file));
}

async function ready() {
  await page.waitForSelector('.page-body[data-page="storage/buckets"]');
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"], .loading-block'), null, { timeout: 15_000 });
}

async function toast(pattern) {
  await page.waitForFunction((source) => [...document.querySelectorAll('.toast')].some((el) => new RegExp(source).test(el.textContent)), pattern.source);
}

const tiles = () => page.locator('#media-grid .media-tile .media-name').allTextContents();

// Uploads `files` through the form and waits until each has its outcome (done or failed).
async function upload(files) {
  const before = await page.locator('#upload-list .upload-item').count();
  await page.setInputFiles('#upload input[type="file"]', files);
  await page.click('#upload [data-role="submit"]');
  await page.waitForFunction((n) => document.querySelectorAll('#upload-list .upload-item:not([data-state="uploading"])').length >= n, before + files.length);
  await ready();
}

before(async () => {
  assertBinaries();
  tmp = await makeTempDir('dashboard-storage-');
  const dataDir = path.join(tmp, 'data');
  await edgeAdmin(dataDir, ['company', 'create', '--slug', SLUG, '--name', 'Acme Inc.']);
  await edgeAdmin(dataDir, ['user', 'create', '--email', OWNER.email, '--name', OWNER.name, '--password-stdin'], { input: `${OWNER.password}\n` });
  await edgeAdmin(dataDir, ['member', 'add', '--company', SLUG, '--email', OWNER.email, '--role', 'owner']);
  await edgeAdmin(dataDir, ['storage', 'quota', '--company', SLUG, '--bytes', String(QUOTA)]);
  edge = await startEdge({ dataDir, workDir: tmp, args: ['--web-root', path.join(repo, 'web'), '--mail-delivery-workers', '0'] });
  base = edge.baseUrl;
  ({ context, page } = await launchBrowser(path.join(tmp, 'profile')));
  watchPage(page, { problems, refusals });
});

after(async () => {
  await context?.close();
  await stopEdgeCleanly(edge);
  await removeTempDir(tmp);
});

describe('storage dashboard', { timeout: 180_000 }, () => {
  test('the owner signs in and finds Storage › Buckets with the quota bar', async () => {
    await page.goto(bucketsPage());
    assert.equal(new URL(page.url()).pathname, '/login');
    await page.fill('#email', OWNER.email);
    await page.fill('#password', OWNER.password);
    await Promise.all([page.waitForURL(bucketsPage()), page.click('button[type="submit"]')]);
    await ready();
    assert.equal(await page.locator('h1').textContent(), 'Buckets');
    assert.deepEqual(await page.locator('.nav-title').allTextContents(), ['Mail', 'Auth projects', 'Status', 'Storage', 'Env vault', 'Company']);
    await page.waitForFunction(() => document.querySelector('#quota')?.dataset.limit === '20000');
    assert.equal(await page.locator('#quota [data-role="quota-text"]').textContent(), '0 B of 20 kB (0%)');
    assert.equal(await page.locator('#buckets-table .table-empty').count(), 1);
  });

  test('creates a bucket; a taken slug is refused beside the field', async () => {
    await page.click('[data-action="new-bucket"]');
    const form = page.locator('#create-bucket');
    await form.locator('input[name="name"]').fill('Photos');
    await form.locator('input[name="slug"]').fill('photos');
    await form.locator('select[name="visibility"]').selectOption('public');
    await form.locator('[data-role="submit"]').click();
    await toast(/Bucket photos created/);
    await page.waitForSelector('#buckets-table tr[data-bucket="photos"]');
    assert.equal(await page.locator('#buckets-table tr[data-bucket="photos"] [data-visibility]').textContent(), 'Public');

    await page.click('[data-action="new-bucket"]');
    await form.locator('input[name="name"]').fill('Again');
    await form.locator('input[name="slug"]').fill('photos');
    await form.locator('[data-role="submit"]').click();
    await page.waitForSelector('#create-bucket .field-error:not([hidden])');
    assert.match(await form.locator('.form-error').textContent(), /a bucket with slug 'photos' already exists in this company/);
    await form.locator('[data-action], button.btn-ghost').first().click();
    await shot('dashboard_storage_buckets');
  });

  test('uploads files with progress bars; wrong types and the quota are refused with the server sentence', async () => {
    await page.click('#buckets-table tr[data-bucket="photos"] a.row-anchor');
    await ready();
    assert.equal(await page.locator('h1 .page-title, h1').first().textContent().then((s) => s.startsWith('Photos')), true);
    await upload([
      { name: 'cat.png', mimeType: 'image/png', buffer: png(640, 480, 3000) },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Merhaba dünya\n'.repeat(100)) },
    ]);
    const done = page.locator('#upload-list .upload-item[data-state="done"]');
    assert.equal(await done.count(), 2);
    for (const bar of await done.locator('progress').all()) {
      assert.equal(await bar.evaluate((el) => el.value === el.max && el.max > 0), true);
    }
    assert.deepEqual(await tiles(), ['cat.png', 'notes.txt']);

    // A "PNG" that is text, and a file past the quota.
    await upload([{ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not an image at all') }]);
    const fake = page.locator('#upload-list .upload-item[data-file="fake.png"]');
    assert.equal(await fake.getAttribute('data-state'), 'failed');
    assert.equal(await fake.getAttribute('data-status'), '422');
    assert.match(await fake.locator('.upload-note').textContent(), /does not match the file's bytes, which are text/);
    await upload([{ name: 'big.txt', mimeType: 'text/plain', buffer: Buffer.alloc(QUOTA, 0x61) }]);
    const big = page.locator('#upload-list .upload-item[data-file="big.txt"]');
    assert.equal(await big.getAttribute('data-state'), 'failed');
    assert.equal(await big.getAttribute('data-status'), '413');
    assert.match(await big.locator('.upload-note').textContent(), /storage quota exceeded/);
    assert.deepEqual(await tiles(), ['cat.png', 'notes.txt']);

    const used = 3029 + Buffer.from('Merhaba dünya\n'.repeat(100)).length;
    await page.waitForFunction((u) => document.querySelector('#quota')?.dataset.used === String(u), used);
    await shot('dashboard_storage_media');
  });

  test('filters and sorts the grid, keeping them in the address', async () => {
    await page.selectOption('#media-filters select[name="type"]', 'image');
    await page.waitForFunction(() => document.querySelector('.media-area')?.dataset.total === '1');
    assert.deepEqual(await tiles(), ['cat.png']);
    assert.equal(new URL(page.url()).searchParams.get('type'), 'image');
    await page.selectOption('#media-filters select[name="type"]', '');
    await page.selectOption('#media-filters select[name="sort"]', 'filename');
    await page.selectOption('#media-filters select[name="dir"]', 'desc');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('dir') === 'desc');
    await ready();
    assert.deepEqual(await tiles(), ['notes.txt', 'cat.png']);
    await page.fill('#media-filters input[name="q"]', 'NOTE');
    await page.waitForFunction(() => document.querySelector('.media-area')?.dataset.total === '1');
    assert.deepEqual(await tiles(), ['notes.txt']);
    await page.fill('#media-filters input[name="q"]', '');
    await page.waitForFunction(() => document.querySelector('.media-area')?.dataset.total === '2');
  });

  test('renames the bucket and makes it private; deletes a file', async () => {
    await page.fill('#bucket-settings input[name="name"]', 'Pictures');
    await page.selectOption('#bucket-settings select[name="visibility"]', 'private');
    await page.click('#bucket-settings [data-role="submit"]');
    await toast(/Bucket saved/);
    assert.equal(await page.locator('[data-role="visibility"] [data-visibility]').textContent(), 'Private');
    await page.waitForFunction(() => [...document.querySelectorAll('#media-grid .pill')].every((p) => p.textContent === 'Private'));

    await page.locator('#media-grid .media-tile', { hasText: 'notes.txt' }).locator('[data-action="delete"]').click();
    await page.waitForSelector('dialog[open]');
    assert.equal(await page.locator('dialog[open] .dialog-title').textContent(), 'Delete notes.txt?');
    await page.click('dialog[open] [data-action="confirm"]');
    await toast(/notes.txt deleted/);
    await page.waitForFunction(() => document.querySelector('.media-area')?.dataset.total === '1');
    await page.waitForFunction(() => document.querySelector('#quota')?.dataset.used === '3029');
  });

  test('reads in Turkish, and deletes the bucket with its files', async () => {
    await page.goto(bucketsPage('?lang=tr'));
    await ready();
    assert.equal(await page.locator('h1').textContent(), 'Kovalar');
    assert.equal(await page.locator('#buckets-table tr[data-bucket="photos"] [data-visibility]').textContent(), 'Özel');
    await shot('dashboard_storage_tr');
    await page.goto(bucketsPage('?lang=en'));
    await ready();
    await page.click('#buckets-table tr[data-bucket="photos"] a.row-anchor');
    await ready();
    await page.click('[data-action="delete-bucket"]');
    await page.waitForSelector('dialog[open]');
    await page.click('dialog[open] [data-action="confirm"]');
    await toast(/Bucket photos deleted with 1 files/);
    await page.waitForURL(bucketsPage());
    await ready();
    assert.equal(await page.locator('#buckets-table .table-empty').count(), 1);
    await page.waitForFunction(() => document.querySelector('#quota')?.dataset.used === '0');
    assert.deepEqual(problems, []);
  });
});
