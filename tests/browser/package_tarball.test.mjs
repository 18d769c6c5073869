// The packed @platform/core: scripts/pack-core.mjs makes the tarball, `npm install <tarball>` puts it into a
// fresh folder (offline), and from there
// - node imports `@platform/core` and every subpath and calls them (the package's own wasm/ folder, no
//   repository build on the way), and tsc resolves the subpaths' types through the package's exports;
// - Chromium loads pages served from that folder by a tiny node server (application/wasm for .wasm) that
//   import the package's ESM files by URL: vatSplit, priceItem, verifyJwt (HS256, and RS256 with a key set
//   fetched by createRemoteJwks), pageStatus, renderTemplate; and a page using only @platform/core/status
//   fetches only the status module.
//
// Needs: the wasm build (docs/wasm.md), npm, `npm ci` (playwright-core, typescript), /usr/bin/chromium
// (CHROMIUM_BIN). Run: node --test tests/browser/package_tarball.test.mjs
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';

import { chromium } from 'playwright-core';

import { chromiumBin, chromiumFlags, makeTempDir, removeTempDir, repo } from '../support/edge.mjs';
import { claims, hs256, NOW, rs256, rsaKey } from '../node/jwt_fixtures.mjs';

const run = promisify(execFile);
const SECRET = 'the HS256 secret of the browser test, 32+ bytes';
const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
};

// The environment for child processes: without PLATFORM_WASM_DIR, so that the package's default is used.
function childEnv() {
  const { PLATFORM_WASM_DIR: _ignored, ...env } = process.env;
  return { ...env, npm_config_update_notifier: 'false' };
}

let tmp;
let app; // the folder the tarball is installed into
let packed;
let server;
let baseUrl;
let context;
let rsa;

// Serves `app` read-only, never cached, with the MIME types above; 404 for anything else.
async function serve(root) {
  const httpServer = http.createServer(async (req, res) => {
    const pathname = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (pathname === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    const file = path.join(root, pathname);
    const type = MIME[path.extname(file)];
    if (!file.startsWith(`${root}${path.sep}`) || !type || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
    res.end(await readFile(file));
  });
  await new Promise((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  return httpServer;
}

before(async () => {
  tmp = await makeTempDir('package-tarball-');
  const { stdout } = await run(process.execPath, [path.join(repo, 'scripts/pack-core.mjs'), '--json', '--out', tmp], {
    cwd: repo,
    env: process.env,
    maxBuffer: 1 << 20,
  });
  packed = JSON.parse(stdout);
  app = path.join(tmp, 'app');
  await mkdir(app);
  await writeFile(path.join(app, 'package.json'), JSON.stringify({ name: 'tarball-check', private: true, type: 'module' }));
  await run('npm', ['install', packed.tarball, '--offline', '--no-audit', '--no-fund'], { cwd: app, env: childEnv() });

  rsa = rsaKey('browser-key');
  await writeFile(path.join(app, 'jwks.json'), JSON.stringify({ keys: [rsa.jwk] }));
  await writeFile(path.join(app, 'blank.html'), '<!doctype html><title>blank</title>');
  await writeFile(
    path.join(app, 'status.html'),
    `<!doctype html><title>status badge</title><p id="status">…</p>
<script type="module">
  import { loadStatus } from './node_modules/@platform/core/status.js';
  const status = await loadStatus();
  document.getElementById('status').textContent = status.pageStatus(['operational', 'degraded']).value;
</script>`,
  );
  server = await serve(app);
  baseUrl = `http://127.0.0.1:${server.address().port}`;
  context = await chromium.launchPersistentContext(path.join(tmp, 'profile'), {
    executablePath: chromiumBin,
    headless: true,
    args: chromiumFlags,
  });
});

after(async () => {
  await context?.close();
  if (server) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await removeTempDir(tmp);
});

describe('the packed @platform/core', () => {
  test('the tarball holds the package files and the four modules only', () => {
    assert.deepEqual(packed.files, [
      'README.md', 'index.d.ts', 'index.js', 'locations.js', 'package.json', 'remote_jwks.js', 'restaurant.d.ts',
      'restaurant.js', 'shared.js', 'status.d.ts', 'status.js', 'templates.d.ts', 'templates.js', 'tokens.d.ts',
      'tokens.js', 'types.d.ts',
      'wasm/platform_restaurant.mjs', 'wasm/platform_restaurant.wasm', 'wasm/platform_status.mjs',
      'wasm/platform_status.wasm', 'wasm/platform_templates.mjs', 'wasm/platform_templates.wasm',
      'wasm/platform_tokens.mjs', 'wasm/platform_tokens.wasm',
    ]);
    // The status embed badge budget: its wasm and JavaScript at most 60 KB gzipped.
    const status = packed.modules.find((m) => m.module === 'platform_status');
    assert.ok(status.totalGzipBytes <= 60 * 1024, `platform_status: ${status.totalGzipBytes} bytes gzipped`);
  });

  test('node imports the package and each subpath from the install folder', async () => {
    const token = hs256(claims(), SECRET);
    const script = `
      import { loadPlatformCore } from '@platform/core';
      import { loadRestaurant } from '@platform/core/restaurant';
      import { loadStatus } from '@platform/core/status';
      import { loadTemplates } from '@platform/core/templates';
      import { verifyJwt } from '@platform/core/tokens';
      const restaurant = await loadRestaurant();
      const core = await loadPlatformCore();
      console.log(JSON.stringify({
        vat: restaurant.vatSplit(11800, 1800),
        sameFunction: core.vatSplit === restaurant.vatSplit,
        status: (await loadStatus()).pageStatus(['operational', 'down']),
        render: (await loadTemplates()).renderTemplate('Hi {name}', { name: 'Ayşe & co' }),
        jwt: await verifyJwt(${JSON.stringify(token)}, { secret: ${JSON.stringify(SECRET)}, now: ${NOW}, audience: 'cli_app' }),
      }));`;
    await writeFile(path.join(app, 'check.mjs'), script);
    const { stdout } = await run(process.execPath, ['check.mjs'], { cwd: app, env: childEnv() });
    const answers = JSON.parse(stdout);
    assert.deepEqual(answers.vat, { ok: true, value: { grossMinor: 11800, netMinor: 10000, vatMinor: 1800 } });
    assert.equal(answers.sameFunction, true);
    assert.deepEqual(answers.status, { ok: true, value: 'down' });
    assert.deepEqual(answers.render, { ok: true, value: 'Hi Ayşe &amp; co' });
    assert.equal(answers.jwt.ok, true);
    assert.equal(answers.jwt.value.payload.sub, 'usr_1');
  });

  const tsc = path.join(repo, 'node_modules/typescript/bin/tsc');
  test('tsc finds each subpath\'s types through the package exports', { skip: !existsSync(tsc) && 'TypeScript is not installed: run npm ci' }, async () => {
    await writeFile(
      path.join(app, 'types.mts'),
      `import { loadPlatformCore, type PlatformCore } from '@platform/core';
      import { createRemoteJwks, verifyJwt, type VerifyJwtErrorCode } from '@platform/core/tokens';
      import { loadRestaurant, type PricedItem } from '@platform/core/restaurant';
      import { loadStatus, type ComponentStatus } from '@platform/core/status';
      import { loadTemplates, type PickedLocale } from '@platform/core/templates';
      const core: PlatformCore = await loadPlatformCore();
      const result = await verifyJwt('t', { jwks: createRemoteJwks('https://a.example/jwks.json'), audience: ['x'] });
      if (!result.ok) { const code: VerifyJwtErrorCode = result.code; void code; }
      const priced = (await loadRestaurant()).priceItem({ id: 'p', name: 'n', priceMinor: 1, vatRateBps: 0 }, [], []);
      if (priced.ok) { const item: PricedItem = priced.value; void item; }
      const page = (await loadStatus()).pageStatus(['down']);
      if (page.ok) { const s: ComponentStatus = page.value; void s; }
      const picked = (await loadTemplates()).renderLocalized('x', {}, 'tr');
      if (picked.ok) { const p: PickedLocale = picked.value; void p; }
      // @ts-expect-error the wasm folder is not an export of the package
      await import('@platform/core/wasm/platform_status.mjs');
      void core;
      `,
    );
    const args = [
      tsc, '--strict', '--noEmit', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext',
      '--lib', 'es2022,dom', 'types.mts',
    ];
    const result = await run(process.execPath, args, { cwd: app }).catch((error) => error);
    assert.equal(result.code ?? 0, 0, `tsc reported:\n${result.stdout}${result.stderr}`);
  });

  test('Chromium: the package\'s ESM files by URL compute what the core computes', async () => {
    const page = await context.newPage();
    const problems = [];
    const requested = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
    });
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await page.goto(`${baseUrl}/blank.html`);
    const input = {
      hs: hs256(claims(), SECRET),
      rs: rs256(claims(), rsa),
      secret: SECRET,
      now: NOW + 60,
      jwksUrl: `${baseUrl}/jwks.json`,
    };
    const answers = await page.evaluate(async ({ hs, rs, secret, now, jwksUrl }) => {
      const base = '/node_modules/@platform/core/';
      const { loadRestaurant } = await import(`${base}restaurant.js`);
      const { verifyJwt, createRemoteJwks } = await import(`${base}tokens.js`);
      const { loadStatus } = await import(`${base}status.js`);
      const { loadTemplates } = await import(`${base}templates.js`);
      const restaurant = await loadRestaurant();
      const jwks = createRemoteJwks(jwksUrl);
      const tea = { id: 'prd_tea', name: 'Tea', priceMinor: 4000, vatRateBps: 1000 };
      const sizes = [{ id: 'grp_size', name: 'Size', minSelect: 1, maxSelect: 1, options: [{ id: 'opt_big', name: 'Big', priceDeltaMinor: 1500 }] }];
      return {
        vat: restaurant.vatSplit(11800, 1800),
        price: restaurant.priceItem(tea, sizes, ['opt_big']),
        hs: await verifyJwt(hs, { secret, now, issuer: 'https://auth.example' }),
        hsWrong: await verifyJwt(hs, { secret: `${secret}!`, now }),
        rs: await verifyJwt(rs, { jwks, now, audience: ['cli_app'] }),
        rsExpired: await verifyJwt(rs, { jwks, now: now + 7200 }),
        status: (await loadStatus()).pageStatus(['operational', 'maintenance']),
        render: (await loadTemplates()).renderTemplate('<b>{name}</b>{#items} {sku}{/items}', { name: 'Çağ & Ali', items: [{ sku: 'A1' }] }),
      };
    }, input);
    assert.deepEqual(answers.vat, { ok: true, value: { grossMinor: 11800, netMinor: 10000, vatMinor: 1800 } });
    assert.deepEqual(answers.price, {
      ok: true,
      value: { unitPriceMinor: 5500, options: [{ groupId: 'grp_size', optionId: 'opt_big', name: 'Big', priceDeltaMinor: 1500 }] },
    });
    assert.equal(answers.hs.ok, true);
    assert.deepEqual(answers.hs.value.payload, claims());
    assert.equal(answers.hsWrong.code, 'invalid_signature');
    assert.equal(answers.rs.ok, true);
    assert.equal(answers.rs.value.header.kid, 'browser-key');
    assert.equal(answers.rsExpired.code, 'token_expired');
    assert.deepEqual(answers.status, { ok: true, value: 'maintenance' });
    assert.deepEqual(answers.render, { ok: true, value: '<b>Çağ &amp; Ali</b> A1' });
    assert.deepEqual(problems, []);
    // The modules came from the package's own wasm/ folder, each once.
    const modules = requested.filter((p) => p.includes('/wasm/')).sort();
    assert.deepEqual(modules, [
      'platform_restaurant.mjs', 'platform_restaurant.wasm', 'platform_status.mjs', 'platform_status.wasm',
      'platform_templates.mjs', 'platform_templates.wasm', 'platform_tokens.mjs', 'platform_tokens.wasm',
    ].map((file) => `/node_modules/@platform/core/wasm/${file}`));
    assert.equal(requested.filter((p) => p === '/jwks.json').length, 1);
    await page.close();
  });

  test('Chromium: a page using @platform/core/status fetches only the status module', async () => {
    const page = await context.newPage();
    const problems = [];
    const requested = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await page.goto(`${baseUrl}/status.html`);
    await page.waitForFunction(() => document.getElementById('status').textContent !== '…');
    assert.equal(await page.locator('#status').textContent(), 'degraded');
    assert.deepEqual(problems, []);
    const pkg = '/node_modules/@platform/core/';
    assert.deepEqual(requested.filter((p) => p.startsWith(pkg)).map((p) => p.slice(pkg.length)).sort(), [
      'locations.js', 'shared.js', 'status.js', 'wasm/platform_status.mjs', 'wasm/platform_status.wasm',
    ]);
    await page.close();
  });
});
