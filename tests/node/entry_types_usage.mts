// Compiled (never run) by entry_types.test.mjs with `tsc --strict --noEmit`: the declarations of the entry
// points (tokens.d.ts, restaurant.d.ts, status.d.ts, templates.d.ts) accept what the API accepts and refuse
// what it refuses.
import { loadPlatformCore, type PlatformCore } from '../../bindings/index.js';
import { loadRestaurant, type PlatformRestaurant, type PricedItem } from '../../bindings/restaurant.js';
import { loadStatus, type ComponentStatus, type PlatformStatus } from '../../bindings/status.js';
import { loadTemplates, type PickedLocale, type PlatformTemplates } from '../../bindings/templates.js';
import {
  createRemoteJwks,
  JwksError,
  loadTokens,
  verifyJwt,
  type JwksSource,
  type PlatformTokens,
  type VerifiedToken,
  type VerifyJwtErrorCode,
} from '../../bindings/tokens.js';

const tokens: PlatformTokens = await loadTokens({ wasmDir: 'build/wasm/wasm' });
const restaurant: PlatformRestaurant = await loadRestaurant();
const status: PlatformStatus = await loadStatus({ wasmUrl: new URL('https://example.invalid/wasm/') });
const templates: PlatformTemplates = await loadTemplates();

// verifyJwt: exactly one of secret and jwks; typed codes; header and payload.
const jwks: JwksSource = createRemoteJwks('https://auth.example/.well-known/jwks.json', { cooldownMs: 1000 });
const remote = await verifyJwt('a.b.c', { jwks, issuer: 'https://auth.example', audience: ['a', 'b'] });
if (remote.ok) {
  const verified: VerifiedToken = remote.value;
  const alg: 'HS256' | 'RS256' = verified.header.alg;
  void alg, verified.payload['sub'];
} else {
  const code: VerifyJwtErrorCode = remote.code;
  // @ts-expect-error not a verifyJwt code
  const wrong: 'unknown_kid' = remote.code;
  void code, wrong;
}
await tokens.verifyJwt('a.b.c', { secret: new Uint8Array(32), now: new Date(), clockToleranceSeconds: 30 });
await tokens.verifyJwt('a.b.c', { jwks: { keys: [] }, algorithms: ['RS256'], now: 1700000000 });
await tokens.verifyJwt('a.b.c', { jwks: '{"keys":[]}' });
// @ts-expect-error secret and jwks together
await verifyJwt('a.b.c', { secret: 's', jwks: { keys: [] } });
// @ts-expect-error neither
await verifyJwt('a.b.c', { issuer: 'x' });
// @ts-expect-error an algorithm verifyJwt does not know
await verifyJwt('a.b.c', { secret: 's', algorithms: ['ES256'] });
const failure = new Error() as unknown;
if (failure instanceof JwksError) {
  const code: 'jwks_fetch_failed' | 'jwks_invalid' = failure.code;
  void code;
}

// The other entry points.
const priced = restaurant.priceItem({ id: 'p', name: 'Tea', priceMinor: 500, vatRateBps: 1000 }, [], []);
if (priced.ok) {
  const item: PricedItem = priced.value;
  void item;
}
const page = status.pageStatus(['operational']);
if (page.ok) {
  const overall: ComponentStatus = page.value;
  void overall;
}
const localized = templates.renderLocalized({ tr: 'Merhaba {name}', en: 'Hello {name}' }, { name: 'A' }, 'de');
if (localized.ok) {
  const picked: PickedLocale = localized.value;
  void picked;
} else if (localized.code === 'missing_variables') {
  const missing: string[] = localized.missing;
  const locale: string = localized.locale;
  void missing, locale;
}

// loadPlatformCore keeps the functions of the single module; the new ones are on their entry points only.
const core: PlatformCore = await loadPlatformCore();
void core.vatSplit(100, 2000), core.renderTemplate('x', {});
// @ts-expect-error verifyJwt is on @platform/core/tokens only
void core.verifyJwt;
// @ts-expect-error renderLocalized is on @platform/core/templates only
void core.renderLocalized;
