// Access-token verifications per second in wasm (docs/performance.md, "Auth projects"): the RS256 check
// of @platform/core (BearSSL compiled with Emscripten, i31 engine) on a token and JWKS written by
//   build/bench/bench/auth_load --phases verify --sample build/auth-sample.json
// Run: node bench/jwt_verify_wasm.mjs build/auth-sample.json [seconds]
import { readFile } from 'node:fs/promises';

import { loadPlatformCore } from '../bindings/index.js';

const [file, secondsArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/jwt_verify_wasm.mjs <sample.json> [seconds]');
  process.exit(2);
}
const sample = JSON.parse(await readFile(file, 'utf8'));
const seconds = Number(secondsArg ?? 5);
const core = await loadPlatformCore();
const jwksText = JSON.stringify(sample.jwks);
const first = core.verifyJwtRs256(sample.token, jwksText);
if (!first.ok) throw new Error(`the sample does not verify: ${first.code}`);
let n = 0;
const start = performance.now();
while (performance.now() - start < seconds * 1000) {
  for (let i = 0; i < 50; i++, n++) if (!core.verifyJwtRs256(sample.token, jwksText).ok) throw new Error('failed');
}
const elapsed = (performance.now() - start) / 1000;
console.log(`verify (wasm, node ${process.version}): ${n} in ${elapsed.toFixed(2)} s = ${Math.round(n / elapsed)}/s`);
