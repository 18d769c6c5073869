// Where the wasm modules are found when the caller names no location. In the repository checkout: the wasm
// build's output folder (node) and the edge's /web/wasm/ next to /web/bindings/ (browsers).
// scripts/pack-core.mjs rewrites both URLs to './wasm/' in the npm package, where the modules sit inside it.
export const nodeWasmDir = new URL('../build/wasm/wasm/', import.meta.url).href;
export const browserWasmUrl = new URL('../wasm/', import.meta.url).href;
