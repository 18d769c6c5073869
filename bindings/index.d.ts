// Types of @platform/core (index.js): every entry point's types and loaders, and loadPlatformCore, which
// loads the four wasm modules and answers the functions the single module had before the split. Error
// convention: types.d.ts.

import type { PlatformRestaurant } from './restaurant.js';
import type { PlatformStatus } from './status.js';
import type { PlatformTemplates } from './templates.js';
import type { PlatformTokens } from './tokens.js';
import type { LoadOptions } from './types.js';

export * from './restaurant.js';
export * from './status.js';
export * from './templates.js';
export * from './tokens.js';

/** The four modules' functions in one object; verifyJwt and renderLocalized are on their entry points only. */
export interface PlatformCore
  extends Omit<PlatformTokens, 'verifyJwt'>,
    PlatformRestaurant,
    PlatformStatus,
    Omit<PlatformTemplates, 'renderLocalized'> {}

/**
 * Loads the four wasm modules (once per location) and returns their functions as one frozen object. Rejects
 * with an Error naming the module and location when one cannot be loaded or compiled.
 */
export function loadPlatformCore(options?: LoadOptions): Promise<PlatformCore>;

export default loadPlatformCore;
