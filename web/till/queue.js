// The action queue: what the person did on this till, in the order they did it, until the server has it.
// An action is {seq, type, clientOrderId, payload, createdAt, attempts, uncertain, lastError}:
//   create     {branchId, tableId}
//   addItem    {localLineId, productId, quantity, optionIds, name, unitPriceMinor, vatRateBps, options}
//   removeItem {localLineId, lineId}   (lineId null while the line's own addItem is queued)
//   pay        {paymentId, amountMinor, method}
//   close      {}
// `uncertain`: a request for it was sent and no answer came back, so the server may have applied it
// (sync.js decides with the next answer). `seq` comes from the store's key generator: queue order is the
// order the person acted in.
import { req, transaction } from './db.js';

// Writes `actions` (and `order`, a new local order record, when given) in one transaction; resolves once it
// committed. Nothing else happens before this resolves: the screen and the network come after.
export function enqueue(db, actions, { order } = {}) {
  const now = new Date().toISOString();
  return transaction(db, ['queue', 'orders'], 'readwrite', async (s) => {
    if (order) await req(s.orders.add(order)); // add, not put: a clientOrderId is never reused
    const seqs = [];
    for (const action of actions) {
      seqs.push(await req(s.queue.add({ ...action, createdAt: now, attempts: 0, uncertain: false, lastError: null })));
    }
    return seqs;
  });
}

// Every queued action, oldest first (the key order of the store).
export const queuedActions = (db) => transaction(db, ['queue'], 'readonly', (s) => req(s.queue.getAll()));

export const firstAction = (db) =>
  transaction(db, ['queue'], 'readonly', async (s) => {
    const cursor = await req(s.queue.openCursor());
    return cursor ? cursor.value : null;
  });

// Money taken on this till that the server does not have yet: the queued payments.
export function unsyncedMoney(actions) {
  return actions.filter((a) => a.type === 'pay').reduce((sum, a) => sum + a.payload.amountMinor, 0);
}
