// The entry points of @platform/core: each loader loads its own wasm module only and answers its functions;
// loadPlatformCore answers the same functions of all four.
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { loadPlatformCore } from '../../bindings/index.js';
import { nodeWasmDir } from '../../bindings/locations.js';
import { loadRestaurant } from '../../bindings/restaurant.js';
import { loadStatus } from '../../bindings/status.js';
import { loadTemplates } from '../../bindings/templates.js';
import { loadTokens } from '../../bindings/tokens.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const wasmDir = process.env.PLATFORM_WASM_DIR ?? path.join(repo, 'build/wasm/wasm');

const ENTRIES = {
  tokens: [loadTokens, ['allows', 'hasTokenShape', 'jwkThumbprint', 'makeToken', 'pkceChallenge', 'sha256Hex', 'validatePermission', 'verifyJwt', 'verifyJwtHs256', 'verifyJwtRs256']],
  restaurant: [loadRestaurant, ['addDays', 'businessDate', 'canClose', 'canPay', 'countShiftCash', 'expenseAmounts', 'groupPayables', 'orderBalance', 'orderTotals', 'parseExpenseCsv', 'payableBucket', 'priceItem', 'validateIncome', 'vatSplit']],
  status: [loadStatus, ['classifyProbe', 'componentStatus', 'maintenanceState', 'pageStatus', 'signWebhook', 'verifyWebhookSignature']],
  templates: [loadTemplates, ['compileTemplate', 'missingVariables', 'pickLocalized', 'renderLocalized', 'renderTemplate', 'templateVariables']],
};

describe('entry point loaders', () => {
  for (const [entry, [load, names]] of Object.entries(ENTRIES)) {
    test(`${entry}: its functions, frozen, loaded once`, async () => {
      const [a, b] = await Promise.all([load(), load()]);
      assert.equal(a, b);
      assert.equal(Object.isFrozen(a), true);
      assert.deepEqual(Object.keys(a).sort(), names);
    });
  }

  test('the default folder is the repository wasm build', () => {
    assert.equal(path.resolve(fileURLToPath(nodeWasmDir)), path.join(repo, 'build/wasm/wasm'));
  });

  test('loadPlatformCore answers the entry points\' functions, without verifyJwt and renderLocalized', async () => {
    const core = await loadPlatformCore();
    const [tokens, restaurant, status, templates] = await Promise.all([loadTokens(), loadRestaurant(), loadStatus(), loadTemplates()]);
    for (const api of [tokens, restaurant, status, templates]) {
      for (const [name, fn] of Object.entries(api)) {
        if (name === 'verifyJwt' || name === 'renderLocalized') assert.equal(name in core, false, name);
        else assert.equal(core[name], fn, name);
      }
    }
  });

  describe('a folder holding only the status module', () => {
    let dir;
    before(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'status-only-'));
      for (const file of ['platform_status.mjs', 'platform_status.wasm']) {
        await copyFile(path.join(wasmDir, file), path.join(dir, file));
      }
    });
    after(() => rm(dir, { recursive: true, force: true }));

    test('loadStatus needs nothing else; the other loaders name their missing module', async () => {
      const status = await loadStatus({ wasmDir: dir });
      assert.deepEqual(status.pageStatus(['operational', 'down']), { ok: true, value: 'down' });
      for (const [load, name] of [[loadTokens, 'platform_tokens'], [loadRestaurant, 'platform_restaurant'], [loadTemplates, 'platform_templates']]) {
        await assert.rejects(load({ wasmDir: dir }), { message: new RegExp(`^@platform/core: cannot load ${name}\\.mjs and ${name}\\.wasm from `) });
      }
      await assert.rejects(loadPlatformCore({ wasmDir: dir }), /cannot load platform_/);
    });
  });
});
