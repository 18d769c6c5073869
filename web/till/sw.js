// The till's service worker (scope /web/till/): the till opens and works with no network at all.
// - The app shell (the till's files, the kit modules it imports, the core bindings and the wasm module) is
//   precached when the worker installs and answered from the cache (cache first). A start of the till
//   (the navigation to index.html or board.html) also refreshes the whole shell in the background a few
//   seconds later, each file revalidated with the edge (304 when unchanged), so a changed file is used from
//   the next start on without a new VERSION. Revalidating each file as it is served
//   (stale-while-revalidate) made every start fetch all of them again while the page was loading: about
//   60 ms more to the first screen on this machine (docs/performance.md).
// - The menu reads (products, option groups, categories, tables, branches) go to the network first and fall
//   back to the last answer cached here. The till keeps its own copy in IndexedDB too; this one lets any
//   reader of those addresses work offline.
// - Everything else (orders, payments, the board's event stream, the session) is not touched: writes never
//   pass through a cache.
// A new VERSION drops the caches of the old one when it activates.
const VERSION = 'v1';
const SHELL_CACHE = `till-shell-${VERSION}`;
const DATA_CACHE = `till-data-${VERSION}`; // till.js erases till-data-* when the device is unpaired

const SHELL = [
  '/web/till/index.html',
  '/web/till/board.html',
  '/web/till/till.css',
  '/web/till/app.js',
  '/web/till/api.js',
  '/web/till/backoff.js',
  '/web/till/board.js',
  '/web/till/db.js',
  '/web/till/format.js',
  '/web/till/icons.js',
  '/web/till/menu.js',
  '/web/till/model.js',
  '/web/till/pairing.js',
  '/web/till/queue.js',
  '/web/till/sse.js',
  '/web/till/sync.js',
  '/web/till/texts.js',
  '/web/till/till.js',
  '/web/till/views/common.js',
  '/web/till/views/options.js',
  '/web/till/views/order.js',
  '/web/till/views/orders.js',
  '/web/till/views/pair.js',
  '/web/till/views/pay.js',
  '/web/till/views/settings.js',
  '/web/till/views/shell.js',
  '/web/till/views/sync.js',
  '/web/till/views/tables.js',
  '/web/dashboard/kit/kit.css',
  '/web/dashboard/kit/api.js',
  '/web/dashboard/kit/dom.js',
  '/web/dashboard/kit/form.js',
  '/web/dashboard/kit/i18n.js',
  '/web/dashboard/kit/icons.js',
  '/web/dashboard/kit/table.js',
  '/web/dashboard/kit/texts.js',
  '/web/dashboard/kit/ui.js',
  '/web/bindings/restaurant.js',
  '/web/bindings/shared.js',
  '/web/bindings/locations.js',
  '/web/wasm/platform_restaurant.mjs',
  '/web/wasm/platform_restaurant.wasm',
];
const SHELL_PATHS = new Set(SHELL);
const MENU_READ = /^\/api\/restaurant\/companies\/[^/]+\/(products|option-groups|categories|tables|branches)(\/[^/]+)?$/;

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL_CACHE);
      await cache.addAll(SHELL.map((path) => new Request(path, { cache: 'no-cache' })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith('till-') && name !== SHELL_CACHE && name !== DATA_CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

const REFRESH_DELAY_MS = 3000;
const REFRESH_EVERY_MS = 60_000;
let lastRefresh = 0;

// Opened once per worker start: a first screen asks for some forty files at once.
let shellCache = null;
const openShell = () => (shellCache ??= caches.open(SHELL_CACHE));

async function cacheFirst(path) {
  const cache = await openShell();
  const cached = await cache.match(path);
  if (cached) return cached;
  const response = await fetch(path, { cache: 'no-cache' });
  if (response.ok) await cache.put(path, response.clone());
  return response;
}

// Every shell file fetched again (the edge answers 304 for an unchanged one) and stored when it changed.
async function refreshShell() {
  if (Date.now() - lastRefresh < REFRESH_EVERY_MS) return;
  lastRefresh = Date.now();
  await new Promise((resolve) => setTimeout(resolve, REFRESH_DELAY_MS));
  const cache = await openShell();
  await Promise.all(
    SHELL.map(async (path) => {
      try {
        const response = await fetch(path, { cache: 'no-cache' });
        if (response.ok) await cache.put(path, response);
      } catch {
        // offline: the cached copy stays
      }
    }),
  );
}

async function networkFirst(request) {
  const cache = await caches.open(DATA_CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const cached = await cache.match(request);
    if (cached) return cached;
    throw error;
  }
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  // /web/till/ itself: the static route answers it with index.html, and so does the cache, offline too.
  const path = url.pathname === '/web/till/' ? '/web/till/index.html' : url.pathname;
  if (SHELL_PATHS.has(path)) {
    event.respondWith(cacheFirst(path));
    if (request.mode === 'navigate') event.waitUntil(refreshShell());
  }
  else if (MENU_READ.test(url.pathname)) event.respondWith(networkFirst(request));
});
