// The till's state and the person's actions on it. Every action is checked by the wasm core, written to
// IndexedDB (queue.js) and only then shown and handed to the sync loop. Views read `till.state` and
// re-render on `till.subscribe()`. Other tabs of the same browser hear of changes over a BroadcastChannel.
import { restaurantClient } from './api.js';
import { clearStores, get, getAll, openDb, put } from './db.js';
import { groupsOf, loadMenu, refreshMenu } from './menu.js';
import { coreLinesOf, corePaymentsOf, deriveOrder, newLocalLineId, newOrderRecord, newPaymentId } from './model.js';
import { revokeDevice } from './pairing.js';
import { enqueue, queuedActions, unsyncedMoney } from './queue.js';
import { createSync } from './sync.js';

export const DATA_CACHE_PREFIX = 'till-data-';

// A refusal the person reads: `code` is the core's or the till's (texts.js has a sentence for each).
export class TillError extends Error {
  constructor(code, message = code, params = {}) {
    super(message);
    this.name = 'TillError';
    this.code = code;
    this.params = params;
  }
}

// core: the restaurant module of @platform/core, or a promise of it (the database opens meanwhile).
export async function createTill({ core: coreOrPromise }) {
  const [db, core] = await Promise.all([openDb(), coreOrPromise]);
  const listeners = new Set();
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel('platform-till') : null;
  const state = { device: null, menu: null, records: [], actions: [], orders: [] };
  let client = null;

  const emit = () => {
    for (const listener of listeners) listener(state);
  };

  async function readAll() {
    const [device, menu, records, actions] = await Promise.all([get(db, 'device', 'pairing'), loadMenu(db), getAll(db, 'orders'), queuedActions(db)]);
    if (device?.token !== state.device?.token) {
      client = device ? restaurantClient({ slug: device.company.slug, token: device.token }) : null;
    }
    state.device = device ?? null;
    state.menu = menu ?? null;
    state.records = records;
    state.actions = actions;
    state.orders = records.map((r) => deriveOrder(r, actions, core));
    emit();
  }

  // Reads everything again (it is small). The promise settles with a read that began after the call, so
  // whoever awaits it sees their own write; calls made before that read begins share it.
  let queued = null;
  let last = Promise.resolve();
  function reload() {
    if (!queued) {
      queued = last.then(() => {
        queued = null;
        return readAll();
      });
      last = queued.catch(() => {});
    }
    return queued;
  }

  const sync = createSync({
    db,
    client: () => client,
    branchId: () => state.device?.branch.id,
    onChange: () => reload(),
    onMenuStale: () => till.refreshMenu().catch(() => null),
  });

  async function changed() {
    await reload();
    channel?.postMessage('changed');
    sync.kick();
  }

  channel?.addEventListener('message', () => {
    reload();
    sync.kick();
  });

  const order = (clientOrderId) => state.orders.find((o) => o.clientOrderId === clientOrderId) ?? null;

  function openOrderOf(clientOrderId) {
    const view = order(clientOrderId);
    if (view && view.status !== 'open') throw new TillError('order_not_open');
    return view;
  }

  const till = {
    db,
    core,
    state,
    sync,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    reload,
    order,
    client: () => client,

    status() {
      const s = sync.status;
      return {
        online: s.online && s.reachable,
        running: s.running,
        pending: state.actions.length,
        money: unsyncedMoney(state.actions),
        lastSyncAt: s.lastSyncAt,
        lastError: s.lastError,
        halted: s.halted,
        nextAttemptAt: s.nextAttemptAt,
      };
    },

    // Adds a line (the product with the chosen options, priced by the core as the server will price it).
    // For an order not created yet (`tableId` then names its table, null for the counter) the create is
    // queued first, in the same transaction.
    async addLine({ clientOrderId, tableId = null, product, optionIds = [], quantity = 1 }) {
      const view = openOrderOf(clientOrderId);
      const priced = core.priceItem(product, groupsOf(state.menu, product), optionIds);
      if (!priced.ok) throw new TillError(priced.code, priced.message);
      const payload = {
        localLineId: newLocalLineId(),
        productId: product.id,
        quantity,
        optionIds: [...optionIds],
        name: product.name,
        unitPriceMinor: priced.value.unitPriceMinor,
        vatRateBps: product.vatRateBps,
        options: priced.value.options,
      };
      const lines = [...(view ? coreLinesOf(view) : []), { lineId: payload.localLineId, productId: payload.productId, name: payload.name, unitPriceMinor: payload.unitPriceMinor, quantity, vatRateBps: payload.vatRateBps }];
      const totals = core.orderTotals(lines);
      if (!totals.ok) throw new TillError(totals.code, totals.message);
      const actions = [];
      let record;
      if (!view) {
        const branchId = state.device.branch.id;
        record = newOrderRecord({ clientOrderId, branchId, tableId });
        actions.push({ type: 'create', clientOrderId, payload: { branchId, tableId } });
      }
      actions.push({ type: 'addItem', clientOrderId, payload });
      await enqueue(db, actions, { order: record });
      await changed();
      return payload.localLineId;
    },

    async removeLine(clientOrderId, key) {
      const view = openOrderOf(clientOrderId);
      const line = view?.lines.find((l) => l.key === key);
      if (!line) throw new TillError('line_not_found');
      await enqueue(db, [{ type: 'removeItem', clientOrderId, payload: { localLineId: key, lineId: line.lineId } }]);
      await changed();
    },

    // A payment; the core refuses one above what is due (no tips or change through payments).
    async pay(clientOrderId, amountMinor, method) {
      const view = openOrderOf(clientOrderId);
      if (!view) throw new TillError('order_empty');
      const payment = { paymentId: newPaymentId(), amountMinor, method };
      const check = core.canPay(coreLinesOf(view), corePaymentsOf(view), payment);
      if (!check.ok) throw new TillError(check.code, check.message, { dueMinor: view.dueMinor });
      await enqueue(db, [{ type: 'pay', clientOrderId, payload: payment }]);
      await changed();
      return payment.paymentId;
    },

    async close(clientOrderId) {
      const view = openOrderOf(clientOrderId);
      if (!view) throw new TillError('order_empty');
      const check = core.canClose(coreLinesOf(view), corePaymentsOf(view));
      if (!check.ok) throw new TillError(check.code, check.message, { dueMinor: view.dueMinor });
      await enqueue(db, [{ type: 'close', clientOrderId, payload: {} }]);
      await changed();
    },

    async dismissNotice(clientOrderId, noticeId) {
      const record = await get(db, 'orders', clientOrderId);
      if (!record) return;
      record.notices = (record.notices ?? []).filter((n) => n.id !== noticeId);
      await put(db, 'orders', record);
      await changed();
    },

    async refreshMenu() {
      if (!client) throw new TillError('not_paired');
      const answer = await refreshMenu(db, client, state.device.branch.id);
      await reload();
      return answer;
    },

    async pair(device) {
      await put(db, 'device', device, 'pairing');
      await reload();
      await till.refreshMenu().catch(() => null); // offline right after pairing: the menu comes with the next sync
      sync.now();
      channel?.postMessage('changed');
    },

    // A new token for the same company and branch (the old one was revoked, or is to be replaced), keeping
    // the queue and the orders: the way out of a sync stopped by 401. The old token is revoked when the
    // signed-in person may.
    async repair(device) {
      const old = state.device;
      if (!old || old.company.slug !== device.company.slug || old.branch.id !== device.branch.id) {
        throw new TillError('repair_mismatch');
      }
      await put(db, 'device', device, 'pairing');
      await reload();
      if (old.tokenId !== device.tokenId) await revokeDevice(old);
      sync.now();
      channel?.postMessage('changed');
    },

    // Refused while anything is queued: the queue is the only copy of those actions (and of that money).
    refuseWhileUnsynced() {
      if (state.actions.length) {
        throw new TillError('unsynced', 'actions not yet on the server', { count: state.actions.length, money: unsyncedMoney(state.actions) });
      }
    },

    // Forgets this device: the token is revoked when someone signed in here may, the local data is erased.
    // Answers {revoked}; when false, the token must be revoked in the company's token list.
    async unpair() {
      till.refuseWhileUnsynced();
      const device = state.device;
      const revoked = device ? await revokeDevice(device) : true;
      await clearStores(db, ['device', 'menu', 'orders', 'queue', 'meta']);
      await clearDataCaches();
      await reload();
      channel?.postMessage('changed');
      return { revoked };
    },

    // Erases orders, menu and sync history (keeps the pairing), then reads the menu again.
    async clearLocalData() {
      till.refuseWhileUnsynced();
      await clearStores(db, ['menu', 'orders', 'meta']);
      await clearDataCaches();
      await reload();
      channel?.postMessage('changed');
      await till.refreshMenu().catch(() => null);
    },

    // Reads the local data and starts the sync loop; the menu is downloaded again in the background (the
    // local copy serves until it arrives, and stays when offline).
    async start() {
      await reload();
      await sync.start();
      if (client) till.refreshMenu().catch(() => null);
    },
  };
  return till;
}

// The service worker's cached API answers (sw.js): erased with the data they came from.
async function clearDataCaches() {
  if (!('caches' in globalThis)) return;
  for (const name of await caches.keys()) if (name.startsWith(DATA_CACHE_PREFIX)) await caches.delete(name);
}
