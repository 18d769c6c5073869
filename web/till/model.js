// A local order and how the till shows it. The record keeps the server's last answer for the order
// (`server`, exactly the API's order record, or null before it was created there) and which server line
// each line added on this till became (`lineMap`). What the till shows is that answer with the still-queued
// actions of the order applied on top (deriveOrder), so an answer from the server never loses an intent
// and an intent is never counted twice: an action leaves the queue in the same transaction that stores the
// answer it produced (sync.js). Money (line totals, VAT per line, balance) comes from the wasm core, the same
// C++ the server computes with.

export const newClientOrderId = () => `till-${crypto.randomUUID()}`;
export const newLocalLineId = () => `loc_${crypto.randomUUID()}`;
export const newPaymentId = () => `pay_${crypto.randomUUID()}`;

export function newOrderRecord({ clientOrderId, branchId, tableId }) {
  return { clientOrderId, branchId, tableId: tableId ?? null, createdAt: new Date().toISOString(), server: null, lineMap: {}, notices: [], origin: 'local' };
}

// An order this till learned from the server (another till's, or ours from before a reinstall).
export function remoteOrderRecord(order) {
  return { clientOrderId: order.clientOrderId, branchId: order.branchId, tableId: order.tableId ?? null, createdAt: order.createdAt, server: order, lineMap: {}, notices: [], origin: 'remote' };
}

export const optionIdsOf = (item) => (item.options ?? []).map((o) => o.optionId).sort();

// True when a server line is what an addItem intent asked for (product, quantity, the set of options).
export function lineMatches(item, payload) {
  if (item.productId !== payload.productId || item.quantity !== payload.quantity) return false;
  const mine = [...payload.optionIds].sort();
  const theirs = optionIdsOf(item);
  return mine.length === theirs.length && mine.every((id, i) => id === theirs[i]);
}

const coreLine = (line) => ({
  lineId: line.key,
  productId: line.productId,
  name: line.name,
  unitPriceMinor: line.unitPriceMinor,
  quantity: line.quantity,
  vatRateBps: line.vatRateBps,
});
const corePayment = (p) => ({ paymentId: p.paymentId, amountMinor: p.amountMinor, method: p.method });

// The order as the till shows it, from its record and the queue's actions (any order's; others are skipped).
export function deriveOrder(record, actions, core) {
  const server = record.server;
  const keyOfLine = new Map(Object.entries(record.lineMap ?? {}).map(([local, lineId]) => [lineId, local]));
  let lines = (server?.items ?? []).map((item) => ({
    key: keyOfLine.get(item.lineId) ?? item.lineId,
    lineId: item.lineId,
    productId: item.productId,
    name: item.name,
    unitPriceMinor: item.unitPriceMinor,
    quantity: item.quantity,
    vatRateBps: item.vatRateBps,
    options: item.options ?? [],
    synced: true,
  }));
  const payments = (server?.payments ?? []).map((p) => ({ ...p, synced: true }));
  let closing = false;
  const pending = [];
  for (const action of actions) {
    if (action.clientOrderId !== record.clientOrderId) continue;
    pending.push(action);
    const p = action.payload;
    if (action.type === 'addItem') {
      lines.push({
        key: p.localLineId,
        lineId: null,
        productId: p.productId,
        name: p.name,
        unitPriceMinor: p.unitPriceMinor,
        quantity: p.quantity,
        vatRateBps: p.vatRateBps,
        options: p.options,
        synced: false,
      });
    } else if (action.type === 'removeItem') {
      lines = lines.filter((l) => l.key !== p.localLineId && !(p.lineId && l.lineId === p.lineId));
    } else if (action.type === 'pay') {
      if (!payments.some((x) => x.paymentId === p.paymentId)) payments.push({ ...p, createdAt: action.createdAt, synced: false });
    } else if (action.type === 'close') {
      closing = true;
    }
  }
  const balance = core.orderBalance(lines.map(coreLine), payments.map(corePayment));
  const totals = balance.ok ? balance.value.totals : { grossMinor: 0, netMinor: 0, vatMinor: 0, items: [] };
  const perLine = new Map(totals.items.map((t) => [t.lineId, t]));
  return {
    record,
    clientOrderId: record.clientOrderId,
    orderId: server?.id ?? null,
    number: server?.number ?? null,
    tableId: record.tableId,
    businessDate: server?.businessDate ?? null,
    createdAt: server?.createdAt ?? record.createdAt,
    status: closing || server?.status === 'closed' ? 'closed' : 'open',
    closing,
    pending,
    lines: lines.map((l) => ({ ...l, totals: perLine.get(l.key) ?? null })),
    payments,
    totals,
    paidMinor: balance.ok ? balance.value.paidMinor : 0,
    dueMinor: balance.ok ? balance.value.dueMinor : 0,
    overpaidMinor: balance.ok ? balance.value.overpaidMinor : 0,
    error: balance.ok ? null : balance,
    notices: record.notices ?? [],
  };
}

export const coreLinesOf = (view) => view.lines.map(coreLine);
export const corePaymentsOf = (view) => view.payments.map(corePayment);

// What another device did to an order between two server answers, leaving out this till's own lines and
// payments: {added: [line], removed: [line], payments: [payment], closed} or null when nothing.
export function changesBetween(before, after, { ownLineIds = new Set(), ownRemovedLineIds = new Set(), ownPaymentIds = new Set(), ownClose = false } = {}) {
  if (!after) return null;
  const beforeLines = new Map((before?.items ?? []).map((i) => [i.lineId, i]));
  const afterLines = new Map(after.items.map((i) => [i.lineId, i]));
  const added = after.items.filter((i) => !beforeLines.has(i.lineId) && !ownLineIds.has(i.lineId));
  const removed = [...beforeLines.values()].filter((i) => !afterLines.has(i.lineId) && !ownRemovedLineIds.has(i.lineId));
  const known = new Set((before?.payments ?? []).map((p) => p.paymentId));
  const payments = after.payments.filter((p) => !known.has(p.paymentId) && !ownPaymentIds.has(p.paymentId));
  const closed = after.status === 'closed' && before?.status !== 'closed' && !ownClose;
  if (!added.length && !removed.length && !payments.length && !closed) return null;
  const slim = (i) => ({ lineId: i.lineId, name: i.name, quantity: i.quantity, options: (i.options ?? []).map((o) => o.name) });
  return { added: added.map(slim), removed: removed.map(slim), payments: payments.map((p) => ({ amountMinor: p.amountMinor, method: p.method })), closed };
}
