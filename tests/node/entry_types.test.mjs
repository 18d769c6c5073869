// The entry points' declarations (bindings/{tokens,restaurant,status,templates}.d.ts) type-check against a
// usage file under `tsc --strict`, as types.test.mjs does for index.d.ts (TypeScript from the top-level
// package.json devDependencies).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tsc = path.join(repo, 'node_modules/typescript/bin/tsc');

test('the entry points describe their APIs exactly (tsc --strict on entry_types_usage.mts)', { skip: !existsSync(tsc) && 'TypeScript is not installed: run npm ci' }, async () => {
  const args = [
    tsc, '--strict', '--noEmit', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext',
    '--lib', 'es2022,dom', path.join(repo, 'tests/node/entry_types_usage.mts'),
  ];
  const result = await promisify(execFile)(process.execPath, args, { cwd: repo }).catch((error) => error);
  assert.equal(result.code ?? 0, 0, `tsc reported:\n${result.stdout}${result.stderr}`);
});
