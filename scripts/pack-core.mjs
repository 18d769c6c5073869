#!/usr/bin/env node
// Packs @platform/core as an npm tarball: build/package/ is assembled from bindings/ (the JavaScript, the
// .d.ts files, README.md, package.json) and the four wasm modules of the wasm build (docs/wasm.md), the
// default module locations of locations.js are pointed at the package's own wasm/ folder, and `npm pack` runs
// there. Prints the tarball's path and the gzipped size of each module: its wasm, its Emscripten glue
// (<name>.mjs) and the package's JavaScript a page loads for that entry point.
//
//   node scripts/pack-core.mjs [--wasm-dir DIR] [--out DIR] [--json]
//
// --wasm-dir  the wasm build's output folder (default: PLATFORM_WASM_DIR, else build/wasm/wasm)
// --out       where the tarball goes (default: build/); the package folder is always build/package/
// --json      print {tarball, files, modules: [{entry, module, wasmBytes, wasmGzipBytes, glueBytes,
//             glueGzipBytes, entryJsFiles, entryJsGzipBytes, totalGzipBytes}]} instead of the table
//
// No dependencies and no network: the package has no dependencies, so npm pack works offline. Sizes are
// gzip level 9 of each file on its own (what a server that gzips every response sends).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bindings = path.join(repo, 'bindings');

// Entry point (the package's subpath and file) -> its wasm module.
const ENTRIES = [
  { entry: 'tokens', module: 'platform_tokens' },
  { entry: 'restaurant', module: 'platform_restaurant' },
  { entry: 'status', module: 'platform_status' },
  { entry: 'templates', module: 'platform_templates' },
];

const { values: args } = parseArgs({
  options: {
    'wasm-dir': { type: 'string' },
    out: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const wasmDir = path.resolve(args['wasm-dir'] ?? process.env.PLATFORM_WASM_DIR ?? path.join(repo, 'build/wasm/wasm'));
const outDir = path.resolve(args.out ?? path.join(repo, 'build'));
const packageDir = path.join(repo, 'build/package');

function fail(message) {
  console.error(`pack-core: ${message}`);
  process.exit(1);
}

// --- assemble build/package/ ---------------------------------------------------------------------------------

rmSync(packageDir, { recursive: true, force: true });
mkdirSync(path.join(packageDir, 'wasm'), { recursive: true });

const sources = readdirSync(bindings).filter(
  (name) => name.endsWith('.js') || name.endsWith('.d.ts') || name === 'README.md' || name === 'package.json',
);
for (const name of sources) copyFileSync(path.join(bindings, name), path.join(packageDir, name));

for (const { module } of ENTRIES) {
  for (const file of [`${module}.mjs`, `${module}.wasm`]) {
    const from = path.join(wasmDir, file);
    if (!existsSync(from)) fail(`${from} is missing: build the wasm modules first (docs/wasm.md)`);
    copyFileSync(from, path.join(packageDir, 'wasm', file));
  }
}

// In the package both defaults are the package's own wasm/ folder. Each URL must be found exactly once, so
// a change to locations.js fails here rather than shipping a package that looks for the repository's build.
const locationsFile = path.join(packageDir, 'locations.js');
let locations = readFileSync(locationsFile, 'utf8');
for (const from of ["'../build/wasm/wasm/'", "'../wasm/'"]) {
  const count = locations.split(from).length - 1;
  if (count !== 1) fail(`expected ${from} once in bindings/locations.js, found it ${count} times`);
  locations = locations.replace(from, "'./wasm/'");
}
const code = locations.replace(/^(\/\/.*\n)+/, '');
writeFileSync(
  locationsFile,
  "// Where the wasm modules are found when the caller names no location: this package's wasm/ folder, in node\n" +
    '// and in browsers (written by scripts/pack-core.mjs).\n' +
    code,
);

// --- npm pack --------------------------------------------------------------------------------------------------

mkdirSync(outDir, { recursive: true });
let packed;
try {
  const output = execFileSync('npm', ['pack', '--json', '--pack-destination', outDir], {
    cwd: packageDir,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  [packed] = JSON.parse(output);
} catch (error) {
  fail(`npm pack failed: ${error.stderr ?? error.message}`);
}
const tarball = path.join(outDir, packed.filename);

// --- sizes -----------------------------------------------------------------------------------------------------

const gzipBytes = (file) => gzipSync(readFileSync(file), { level: 9 }).length;

// The package's JavaScript files `file` loads, itself included, following its relative static imports.
function importClosure(file, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(path.join(packageDir, file), 'utf8');
  for (const [, target] of text.matchAll(/^(?:import|export)\s[^;]*?from\s+'(\.\/[^']+)'/gms)) {
    importClosure(path.normalize(target), seen);
  }
  return seen;
}

const modules = ENTRIES.map(({ entry, module }) => {
  const wasmFile = path.join(packageDir, 'wasm', `${module}.wasm`);
  const glueFile = path.join(packageDir, 'wasm', `${module}.mjs`);
  const entryJsFiles = [...importClosure(`${entry}.js`)].sort();
  const sizes = {
    entry: `@platform/core/${entry}`,
    module,
    wasmBytes: statSync(wasmFile).size,
    wasmGzipBytes: gzipBytes(wasmFile),
    glueBytes: statSync(glueFile).size,
    glueGzipBytes: gzipBytes(glueFile),
    entryJsFiles,
    entryJsGzipBytes: entryJsFiles.reduce((sum, file) => sum + gzipBytes(path.join(packageDir, file)), 0),
  };
  sizes.totalGzipBytes = sizes.wasmGzipBytes + sizes.glueGzipBytes + sizes.entryJsGzipBytes;
  return sizes;
});

if (args.json) {
  console.log(JSON.stringify({ tarball, files: packed.files.map((f) => f.path).sort(), modules }, null, 2));
} else {
  const kb = (bytes) => (bytes / 1024).toFixed(1);
  const row = (cells) => cells.map((cell, i) => (i === 0 ? cell.padEnd(26) : cell.padStart(14))).join('');
  console.log(`${tarball} (${packed.entryCount} files, ${kb(packed.size)} KB)`);
  console.log('');
  console.log('KB (1024 bytes); gz: gzip -9 of each file');
  console.log(row(['entry point', 'wasm', 'wasm gz', 'glue .mjs gz', 'entry js gz', 'total gz']));
  for (const m of modules) {
    const sizes = [m.wasmBytes, m.wasmGzipBytes, m.glueGzipBytes, m.entryJsGzipBytes, m.totalGzipBytes];
    console.log(row([m.entry, ...sizes.map(kb)]));
  }
}
