// How @platform/core finds and loads the wasm module in node.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { loadPlatformCore } from '../../bindings/index.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bindings = path.join(repo, 'bindings/index.js');
const run = promisify(execFile);

// Runs a snippet in a fresh node process, so the environment variable is read anew.
async function loadInChild(env) {
  const script = `import { loadPlatformCore } from ${JSON.stringify(bindings)};
    try { const core = await loadPlatformCore(); console.log(JSON.stringify(core.vatSplit(100, 2000))); }
    catch (error) { console.log(JSON.stringify({ error: error.message })); }`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, ...env },
    cwd: repo,
  });
  return JSON.parse(stdout);
}

describe('loadPlatformCore', () => {
  test('loads once and hands out the same frozen API', async () => {
    const [a, b] = await Promise.all([loadPlatformCore(), loadPlatformCore()]);
    assert.equal(a, b);
    assert.equal(Object.isFrozen(a), true);
    assert.deepEqual(Object.keys(a).sort(), [
      'addDays', 'allows', 'businessDate', 'canClose', 'canPay', 'classifyProbe', 'compileTemplate', 'componentStatus',
      'countShiftCash', 'expenseAmounts', 'groupPayables', 'hasTokenShape', 'jwkThumbprint', 'maintenanceState', 'makeToken',
      'missingVariables', 'orderBalance', 'orderTotals', 'pageStatus', 'parseExpenseCsv', 'payableBucket', 'pickLocalized',
      'pkceChallenge', 'priceItem', 'renderTemplate', 'sha256Hex', 'signWebhook', 'templateVariables', 'validateIncome',
      'validatePermission', 'vatSplit', 'verifyJwtHs256', 'verifyJwtRs256', 'verifyWebhookSignature',
    ]);
  });

  test('takes the folder from PLATFORM_WASM_DIR, relative to the current directory', async () => {
    const dir = path.relative(repo, process.env.PLATFORM_WASM_DIR ?? path.join(repo, 'build/wasm/wasm'));
    assert.deepEqual(await loadInChild({ PLATFORM_WASM_DIR: dir }), {
      ok: true,
      value: { grossMinor: 100, netMinor: 83, vatMinor: 17 },
    });
  });

  test('rejects with a message naming the folder when the module is missing, and can retry', async () => {
    const missing = path.join(repo, 'build/no-such-wasm-dir');
    await assert.rejects(loadPlatformCore({ wasmDir: missing }), (error) => {
      assert.match(error.message, /^@platform\/core: cannot load platform_tokens\.mjs and platform_tokens\.wasm from /);
      assert.ok(error.message.includes(missing));
      return true;
    });
    await assert.rejects(loadPlatformCore({ wasmDir: missing }));
    const child = await loadInChild({ PLATFORM_WASM_DIR: missing });
    assert.match(child.error, /cannot load platform_tokens\.mjs/);
  });
});
