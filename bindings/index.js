// @platform/core: the platform's rules compiled from the same C++ as the edge servers to WebAssembly, for
// node and browsers, one wasm module per use so that a page loads only what it needs:
//
//   @platform/core/tokens      loadTokens(), verifyJwt(), createRemoteJwks()   platform_tokens.wasm
//   @platform/core/restaurant  loadRestaurant()                                platform_restaurant.wasm
//   @platform/core/status      loadStatus()                                    platform_status.wasm
//   @platform/core/templates   loadTemplates()                                 platform_templates.wasm
//
// This entry re-exports them and keeps loadPlatformCore(), which loads all four modules and answers one API
// with the functions the single module had before the split (the functions added since, verifyJwt and
// renderLocalized, are on their entry points only).
//
//   import { loadPlatformCore } from '@platform/core';
//   const core = await loadPlatformCore();
//   core.vatSplit(11800, 1800);  // { ok: true, value: { grossMinor: 11800, netMinor: 10000, vatMinor: 1800 } }
//
// Errors (see index.d.ts):
// - A value the core refuses (a VAT rate of 20000 bps, a date like 2026-02-30) is an expected failure: the
//   function answers `{ ok: false, code, message }` with the core's stable error code. Nothing is thrown.
// - An argument of the wrong JavaScript type (a string where a number belongs) is a programming error: the
//   function throws a TypeError before calling into the module.
// Where the modules are found: shared.js (options wasmDir / wasmUrl, PLATFORM_WASM_DIR, locations.js).
import { loadRestaurant } from './restaurant.js';
import { wasmLocation } from './shared.js';
import { loadStatus } from './status.js';
import { loadTemplates } from './templates.js';
import { createRemoteJwks, JwksError, loadTokens, verifyJwt } from './tokens.js';

export { createRemoteJwks, JwksError, loadRestaurant, loadStatus, loadTemplates, loadTokens, verifyJwt };

const combined = new Map();

// Loads the four modules (once per location) and answers one frozen API. Rejects with an Error naming the
// location and the module when one cannot be loaded or compiled (a later call tries again).
export function loadPlatformCore(options = {}) {
  const location = wasmLocation(options);
  if (!combined.has(location)) {
    const api = Promise.all([loadTokens(options), loadRestaurant(options), loadStatus(options), loadTemplates(options)]).then(
      ([tokens, restaurant, status, templates]) => {
        const { verifyJwt: _verifyJwt, ...tokenFunctions } = tokens;
        const { renderLocalized: _renderLocalized, ...templateFunctions } = templates;
        return Object.freeze({ ...tokenFunctions, ...restaurant, ...status, ...templateFunctions });
      },
    );
    api.catch(() => combined.delete(location));
    combined.set(location, api);
  }
  return combined.get(location);
}

export default loadPlatformCore;
