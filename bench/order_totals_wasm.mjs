// Order totals per second in wasm (docs/performance.md, "Order totals: wasm against native"): the same
// 8-line order with 2 payments as bench/order_totals_bench.cpp, through @platform/core in node.
// Three paths, so the reading can tell where the time goes:
//   api  loadPlatformCore(): the bindings' type checks and copies, embind, the core, the answer objects;
//   raw  the embind functions of platform_core.mjs called directly (no checks, no copies);
// each for orderTotals(lines) and orderBalance(lines, payments), and raw orderTotals of an empty order: the
// fixed cost of a call, so that (8 lines - empty) / 8 is what one line costs to cross and come back.
// Run: node bench/order_totals_wasm.mjs [seconds per figure, default 3]   (PLATFORM_WASM_DIR as for the tests)
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { loadPlatformCore } from '../bindings/index.js';

const seconds = Number(process.argv[2] ?? 3);

const line = (lineId, productId, name, unitPriceMinor, quantity, vatRateBps) => ({
  lineId, productId, name, unitPriceMinor, quantity, vatRateBps,
});
const lines = [
  line('ln_1', 'prd_adana', 'Adana kebap', 32000, 2, 1000),
  line('ln_2', 'prd_lahmacun', 'Lahmacun', 9500, 3, 1000),
  line('ln_3', 'prd_ayran', 'Ayran', 4500, 3, 1000),
  line('ln_4', 'prd_salad', 'Çoban salata', 12000, 1, 1000),
  line('ln_5', 'prd_baklava', 'Fıstıklı baklava', 18500, 1, 1000),
  line('ln_6', 'prd_cola', 'Cola 33 cl', 6000, 2, 2000),
  line('ln_7', 'prd_raki', 'Rakı 35 cl', 95000, 1, 2000),
  line('ln_8', 'prd_tea', 'Çay', 1200, 4, 1000),
];
const payments = [
  { paymentId: 'pay_1', amountMinor: 150000, method: 'card' },
  { paymentId: 'pay_2', amountMinor: 50000, method: 'cash' },
];

// The raw embind module, loaded as bindings/index.js loads it in node.
async function rawModule() {
  const fallback = fileURLToPath(new URL('../build/wasm/wasm/', import.meta.url));
  const dir = path.resolve(process.env.PLATFORM_WASM_DIR ?? fallback);
  const { default: factory } = await import(pathToFileURL(path.join(dir, 'platform_core.mjs')).href);
  const wasmBinary = await readFile(path.join(dir, 'platform_core.wasm'));
  const getRandomValue = () => globalThis.crypto.getRandomValues(new Uint32Array(1))[0];
  return factory({ wasmBinary, getRandomValue });
}

// Calls per second of `call` over `seconds`, after a one-second warm-up (the JIT, the wasm tier-up).
function measure(name, call) {
  const run = (ms) => {
    let n = 0;
    const start = performance.now();
    while (performance.now() - start < ms) {
      for (let i = 0; i < 100; i++, n++) if (!call().ok) throw new Error(`${name} failed`);
    }
    return n / ((performance.now() - start) / 1000);
  };
  run(1000);
  const perSecond = run(seconds * 1000);
  const rate = Math.round(perSecond).toLocaleString('en-US').padStart(12);
  console.log(`${name.padEnd(24)} ${rate} /s  ${(1e6 / perSecond).toFixed(2)} µs per call`);
}

const api = await loadPlatformCore();
const raw = await rawModule();
const balance = api.orderBalance(lines, payments);
console.log(`node ${process.version}; grossMinor ${balance.value.totals.grossMinor}, dueMinor ${balance.value.dueMinor}`);
measure('api orderTotals', () => api.orderTotals(lines));
measure('api orderBalance', () => api.orderBalance(lines, payments));
measure('raw orderTotals', () => raw.orderTotals(lines));
measure('raw orderBalance', () => raw.orderBalance(lines, payments));
measure('raw orderTotals, empty', () => raw.orderTotals([]));
