// The till's IndexedDB database: everything the till knows survives a closed browser, and a queued action
// is on disk before the screen shows it or the network hears of it (docs/till.md, "Storage").
//
// Stores:
//   device  'pairing' -> {token, tokenId, tokenPrefix, company: {slug, name}, branch: {id, name, ...},
//                         deviceName, pairedAt}
//   menu    'menu' -> {products, optionGroups, categories, tables, branch, fetchedAt}
//   orders  keyPath clientOrderId -> a local order (model.js)
//   queue   keyPath seq (auto-increment, so the key order is the order actions were taken) -> an action
//   meta    'sync' -> {lastSyncAt, lastError}; 'lang' -> 'en' | 'tr'
export const DB_NAME = 'platform-till';
const VERSION = 1;
export const STORES = ['device', 'menu', 'orders', 'queue', 'meta'];

// A request as a promise. Inside a transaction, awaiting these (and nothing else) keeps it active.
export function req(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

export function openDb() {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(DB_NAME, VERSION);
    open.onupgradeneeded = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains('device')) db.createObjectStore('device');
      if (!db.objectStoreNames.contains('menu')) db.createObjectStore('menu');
      if (!db.objectStoreNames.contains('orders')) db.createObjectStore('orders', { keyPath: 'clientOrderId' });
      if (!db.objectStoreNames.contains('queue')) db.createObjectStore('queue', { keyPath: 'seq', autoIncrement: true });
      if (!db.objectStoreNames.contains('meta')) db.createObjectStore('meta');
    };
    open.onsuccess = () => {
      const db = open.result;
      // Another tab upgrading the schema: step aside rather than block it.
      db.onversionchange = () => db.close();
      resolve(db);
    };
    open.onerror = () => reject(open.error);
    open.onblocked = () => reject(new Error('the till database is held open by an older tab'));
  });
}

// Runs `work(stores)` in one transaction over `names` and resolves with its result once the transaction has
// committed (`complete`): only then is a write durable. `work` may await req() calls only.
export function transaction(db, names, mode, work) {
  return new Promise((resolve, reject) => {
    const tx = db.transaction(names, mode, { durability: mode === 'readwrite' ? 'strict' : 'default' });
    const stores = Object.fromEntries(names.map((name) => [name, tx.objectStore(name)]));
    let result;
    let failed = null;
    tx.oncomplete = () => (failed ? reject(failed) : resolve(result));
    tx.onerror = () => reject(tx.error ?? failed);
    tx.onabort = () => reject(tx.error ?? failed ?? new Error('transaction aborted'));
    Promise.resolve()
      .then(() => work(stores))
      .then((value) => {
        result = value;
      })
      .catch((error) => {
        failed = error;
        try {
          tx.abort();
        } catch {
          // already finished
        }
      });
  });
}

export const get = (db, store, key) => transaction(db, [store], 'readonly', (s) => req(s[store].get(key)));
export const getAll = (db, store) => transaction(db, [store], 'readonly', (s) => req(s[store].getAll()));
export const put = (db, store, value, key) =>
  transaction(db, [store], 'readwrite', (s) => req(key === undefined ? s[store].put(value) : s[store].put(value, key)));

// Empties the given stores in one transaction.
export function clearStores(db, names) {
  return transaction(db, names, 'readwrite', async (s) => {
    for (const name of names) await req(s[name].clear());
  });
}
