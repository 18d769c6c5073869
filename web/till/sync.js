// The sync loop: sends the queue to the server one action at a time, in order, and maps the answers onto the
// local orders (docs/till.md, "Sync"). Rules:
// - An action leaves the queue only in the transaction that stores the server's answer for it (or, when the
//   server refused it for good, the notice saying so). A closed tab or a crash in between sends it again.
// - No answer (offline, cut off, timeout), a 5xx, 408 or 429: the action stays, marked `uncertain`; the loop
//   waits (exponential backoff with jitter, capped at 30 s; Retry-After for 429) and tries again. The
//   `online` event and "Sync now" try at once.
// - Replays are safe: creates are idempotent by clientOrderId, payments by paymentId; a repeated close
//   answers order_not_open (done). A line add is not idempotent: a retried add whose first request did reach
//   the server meets invalid_version, and the line it made is found in the order that answer carries and
//   adopted (see addItem below).
// - invalid_version: the answer's order becomes the base, what another device changed becomes a notice on
//   the order, and the intent is sent again against the new version.
// - Any other refusal (order_not_open, product_inactive, payment_exceeds_due, ...): the action is dropped,
//   the order fetched again, and a notice tells the person what did not happen and why.
// - 401/403 (token revoked or narrowed): the loop stops with the queue intact until the till is paired
//   again or "Sync now" is pressed.
// One loop runs per browser profile at a time (Web Locks), however many tabs are open.
import { NetworkError } from './api.js';
import { backoffDelay } from './backoff.js';
import { get, getAll, req, transaction } from './db.js';
import { changesBetween, lineMatches, remoteOrderRecord } from './model.js';
import { firstAction, queuedActions } from './queue.js';

const PULL_EVERY_MS = 15_000;
const CONFLICT_LIMIT = 5; // invalid_version answers in a row before the loop backs off
const KEEP_CLOSED_MS = 12 * 3600_000; // closed, synced orders are kept this long for the orders list
const MAX_NOTICES = 20;
// Refusals that say the till's copy of the menu is out of date.
const MENU_CODES = new Set(['product_inactive', 'product_not_found', 'option_not_available', 'invalid_option_count']);

function classify(answer) {
  if (answer.ok) return 'ok';
  if (answer.status === 401 || answer.status === 403 || answer.error === 'company_not_found') return 'halt';
  if (answer.status >= 500 || answer.status === 408 || answer.status === 429) return 'transient';
  return 'refused';
}

function addNotice(record, notice) {
  record.notices = [...(record.notices ?? []), { id: crypto.randomUUID(), at: new Date().toISOString(), ...notice }].slice(-MAX_NOTICES);
}

const lineIdsOf = (order) => (order?.items ?? []).map((i) => i.lineId);

// db: the till database; client(): the paired device's restaurant client or null; branchId(): the paired
// branch; onChange(): the local data or the loop's status changed; onMenuStale(): a refusal showed the
// menu copy to be out of date.
export function createSync({ db, client: clientOf, branchId: branchOf, onChange, onMenuStale }) {
  const status = {
    running: false,
    online: navigator.onLine,
    reachable: true,
    failures: 0,
    nextAttemptAt: null,
    lastSyncAt: null,
    lastError: null,
    halted: null,
  };
  let timer = null;
  let again = false;
  let lastPullAt = 0;
  let pullRequested = false;

  const notify = () => onChange?.();

  async function saveMeta() {
    await transaction(db, ['meta'], 'readwrite', (s) =>
      req(s.meta.put({ lastSyncAt: status.lastSyncAt, lastError: status.lastError }, 'sync')),
    );
  }

  // The action is done: it leaves the queue and the order record takes the answer, in one transaction.
  function finish(action, record, { dropSeqs = [] } = {}) {
    return transaction(db, ['queue', 'orders'], 'readwrite', async (s) => {
      await req(s.queue.delete(action.seq));
      for (const seq of dropSeqs) await req(s.queue.delete(seq));
      if (record) await req(s.orders.put(record));
    });
  }

  function saveBoth(action, record) {
    return transaction(db, ['queue', 'orders'], 'readwrite', async (s) => {
      await req(s.queue.put(action));
      await req(s.orders.put(record));
    });
  }

  async function refetch(client, record) {
    if (!record.server?.id) return null;
    try {
      const answer = await client.get(`/orders/${encodeURIComponent(record.server.id)}`);
      return answer.ok ? answer.data : null;
    } catch (error) {
      if (error instanceof NetworkError) return null;
      throw error;
    }
  }

  // What this till itself has in flight for the order, so a notice about others' changes leaves it out.
  async function ownIds(record, extraLineIds = []) {
    const actions = (await queuedActions(db)).filter((a) => a.clientOrderId === record.clientOrderId);
    return {
      ownLineIds: new Set([...Object.values(record.lineMap ?? {}), ...extraLineIds]),
      ownRemovedLineIds: new Set(
        actions.filter((a) => a.type === 'removeItem').map((a) => a.payload.lineId ?? record.lineMap?.[a.payload.localLineId]).filter(Boolean),
      ),
      ownPaymentIds: new Set(actions.filter((a) => a.type === 'pay').map((a) => a.payload.paymentId)),
      ownClose: actions.some((a) => a.type === 'close'),
    };
  }

  async function takeServerOrder(record, order, extraLineIds = []) {
    const changes = changesBetween(record.server, order, await ownIds(record, extraLineIds));
    if (changes && record.server) addNotice(record, { kind: 'changedElsewhere', number: order.number, changes });
    record.server = order;
  }

  // A refusal for good: the action goes, the order is read again, and the person is told.
  async function drop(client, action, record, answer, { dropSeqs = [] } = {}) {
    const current = await refetch(client, record);
    if (current) await takeServerOrder(record, current);
    addNotice(record, {
      kind: 'refused',
      action: action.type,
      code: answer.error,
      message: answer.message,
      payload: action.payload,
      number: record.server?.number ?? null,
    });
    await finish(action, record, { dropSeqs });
    if (MENU_CODES.has(answer.error)) onMenuStale?.();
    return 'done';
  }

  // invalid_version: the current order becomes the base; the intent goes again with its version.
  async function rebase(action, record, current) {
    await takeServerOrder(record, current);
    action.uncertain = false;
    action.sentAgainst = null;
    action.attempts += 1;
    action.lastError = 'invalid_version';
    await saveBoth(action, record);
    return 'again';
  }

  const steps = {
    async create(client, action, record) {
      const answer = await client.post('/orders', {
        branchId: action.payload.branchId,
        tableId: action.payload.tableId,
        clientOrderId: action.clientOrderId,
        items: [],
      });
      const kind = classify(answer);
      if (kind !== 'ok' && kind !== 'refused') return answer;
      if (kind === 'ok') {
        record.server = answer.data;
        await finish(action, record);
        return 'done';
      }
      // The order does not exist, so nothing queued for it can happen either.
      const rest = (await queuedActions(db)).filter((a) => a.clientOrderId === action.clientOrderId && a.seq !== action.seq);
      return drop(client, action, record, answer, { dropSeqs: rest.map((a) => a.seq) });
    },

    async addItem(client, action, record) {
      const p = action.payload;
      const before = record.server;
      const answer = await client.post(`/orders/${encodeURIComponent(before.id)}/items`, {
        version: before.version,
        productId: p.productId,
        quantity: p.quantity,
        options: p.optionIds,
      });
      if (answer.ok) {
        const mapped = new Set(Object.values(record.lineMap ?? {}));
        const known = new Set(lineIdsOf(before));
        const fresh = answer.data.items.filter((i) => !known.has(i.lineId) && !mapped.has(i.lineId));
        const line = fresh.filter((i) => lineMatches(i, p)).pop() ?? fresh.pop();
        if (line) record.lineMap = { ...record.lineMap, [p.localLineId]: line.lineId };
        await takeServerOrder(record, answer.data, line ? [line.lineId] : []);
        await finish(action, record);
        return 'done';
      }
      if (answer.error === 'invalid_version' && answer.body?.order) {
        const current = answer.body.order;
        if (action.uncertain) {
          // An earlier request may have added the line before its answer was lost: a line that was not in the
          // order it was sent against, belongs to no local line, and is what the intent asked for.
          const sentAgainst = new Set(action.sentAgainst ?? lineIdsOf(before));
          const mapped = new Set(Object.values(record.lineMap ?? {}));
          const adopted = current.items.find((i) => !sentAgainst.has(i.lineId) && !mapped.has(i.lineId) && lineMatches(i, p));
          if (adopted) {
            record.lineMap = { ...record.lineMap, [p.localLineId]: adopted.lineId };
            await takeServerOrder(record, current, [adopted.lineId]);
            await finish(action, record);
            return 'done';
          }
        }
        return rebase(action, record, current);
      }
      if (classify(answer) === 'refused') return drop(client, action, record, answer);
      return answer;
    },

    async removeItem(client, action, record) {
      const p = action.payload;
      const lineId = p.lineId ?? record.lineMap?.[p.localLineId];
      const order = record.server;
      // Its line never reached the server (its add was refused), or is gone already: nothing to remove.
      if (!lineId || !order.items.some((i) => i.lineId === lineId)) {
        await finish(action, record);
        return 'done';
      }
      const answer = await client.del(`/orders/${encodeURIComponent(order.id)}/items`, { lineId, version: order.version });
      if (answer.ok) {
        await takeServerOrder(record, answer.data);
        await finish(action, record);
        return 'done';
      }
      if (answer.error === 'invalid_version' && answer.body?.order) {
        const current = answer.body.order;
        if (!current.items.some((i) => i.lineId === lineId)) {
          await takeServerOrder(record, current);
          await finish(action, record);
          return 'done';
        }
        return rebase(action, record, current);
      }
      if (answer.error === 'line_not_found') {
        const current = await refetch(client, record);
        if (current) await takeServerOrder(record, current);
        await finish(action, record);
        return 'done';
      }
      if (classify(answer) === 'refused') return drop(client, action, record, answer);
      return answer;
    },

    async pay(client, action, record) {
      const p = action.payload;
      const answer = await client.post(`/orders/${encodeURIComponent(record.server.id)}/payments`, {
        paymentId: p.paymentId,
        amountMinor: p.amountMinor,
        method: p.method,
      });
      if (answer.ok) {
        await takeServerOrder(record, answer.data);
        await finish(action, record);
        return 'done';
      }
      if (classify(answer) === 'refused') return drop(client, action, record, answer);
      return answer;
    },

    async close(client, action, record) {
      const answer = await client.post(`/orders/${encodeURIComponent(record.server.id)}/close`, {});
      if (answer.ok) {
        await takeServerOrder(record, answer.data);
        await finish(action, record);
        return 'done';
      }
      if (answer.error === 'order_not_open') {
        // Closed already: by this till's earlier request whose answer was lost, or by another device.
        const current = await refetch(client, record);
        if (current) await takeServerOrder(record, current);
        await finish(action, record);
        return 'done';
      }
      if (classify(answer) === 'refused') return drop(client, action, record, answer);
      return answer;
    },
  };

  async function step(client, action) {
    const record = await get(db, 'orders', action.clientOrderId);
    if (!record || (action.type !== 'create' && !record.server)) {
      await finish(action, record ?? null);
      return 'done';
    }
    try {
      return await steps[action.type](client, action, record);
    } catch (error) {
      if (!(error instanceof NetworkError)) throw error;
      // No answer: the server may have applied it. Keep what it was sent against, for addItem's adoption.
      action.attempts += 1;
      action.lastError = error.message;
      if (!action.uncertain || !action.sentAgainst) action.sentAgainst = lineIdsOf(record.server);
      action.uncertain = true;
      await transaction(db, ['queue'], 'readwrite', (s) => req(s.queue.put(action)));
      throw error;
    }
  }

  function schedule(delayMs) {
    clearTimeout(timer);
    status.nextAttemptAt = Date.now() + delayMs;
    timer = setTimeout(() => {
      timer = null;
      run();
    }, delayMs);
  }

  function failed(error, retryAfterSeconds = null) {
    status.failures += 1;
    status.lastError = { ...error, at: new Date().toISOString() };
    const delay = Math.max(backoffDelay(status.failures), (retryAfterSeconds ?? 0) * 1000);
    schedule(delay);
  }

  function succeeded() {
    status.failures = 0;
    status.reachable = true;
    status.halted = null;
    status.lastError = null;
    status.lastSyncAt = new Date().toISOString();
  }

  // The branch's open orders from the server: other tills' orders appear, orders closed elsewhere go.
  // Orders with queued actions are left alone (their next answer brings them up to date).
  async function pull(client) {
    const branchId = branchOf();
    const board = await client.all('/orders/board', { branchId });
    if (!board.ok) return board;
    const busy = new Set((await queuedActions(db)).map((a) => a.clientOrderId));
    const records = new Map((await getAll(db, 'orders')).map((r) => [r.clientOrderId, r]));
    const onBoard = new Set();
    const updates = [];
    for (const order of board.data) {
      onBoard.add(order.clientOrderId);
      if (busy.has(order.clientOrderId)) continue;
      const record = records.get(order.clientOrderId);
      if (!record) updates.push(remoteOrderRecord(order));
      else if (!record.server || order.version > record.server.version) updates.push({ ...record, server: order });
    }
    // Open here but not on today's board: closed elsewhere, or of another business day. Asked one by one.
    const stale = [...records.values()].filter(
      (r) => r.server?.id && r.server.status === 'open' && !onBoard.has(r.clientOrderId) && !busy.has(r.clientOrderId),
    );
    for (const record of stale.slice(0, 10)) {
      const current = await refetch(client, record);
      if (current && current.version !== record.server.version) updates.push({ ...record, server: current });
    }
    const cutoff = Date.now() - KEEP_CLOSED_MS;
    const old = [...records.values()].filter(
      (r) => r.server?.status === 'closed' && !busy.has(r.clientOrderId) && Date.parse(r.server.closedAt ?? r.server.updatedAt) < cutoff,
    );
    await transaction(db, ['orders'], 'readwrite', async (s) => {
      for (const record of updates) await req(s.orders.put(record));
      for (const record of old) await req(s.orders.delete(record.clientOrderId));
    });
    lastPullAt = Date.now();
    return { ok: true };
  }

  async function pass() {
    const client = clientOf();
    if (!client) return;
    let conflicts = 0;
    for (;;) {
      const action = await firstAction(db);
      if (!action) break;
      let outcome;
      try {
        outcome = await step(client, action);
      } catch (error) {
        if (!(error instanceof NetworkError)) throw error;
        status.reachable = false;
        failed({ kind: 'network', message: error.message });
        return;
      }
      notify();
      if (outcome === 'again') {
        conflicts += 1;
        if (conflicts > CONFLICT_LIMIT) {
          failed({ kind: 'conflict', code: 'invalid_version', message: 'the order keeps changing on another device' });
          return;
        }
        continue;
      }
      if (outcome !== 'done') {
        const kind = classify(outcome);
        const error = { kind: kind === 'halt' ? 'auth' : 'server', status: outcome.status, code: outcome.error, message: outcome.message };
        if (kind === 'halt') {
          status.halted = error;
          status.lastError = { ...error, at: new Date().toISOString() };
        } else {
          action.attempts += 1;
          action.uncertain = true;
          action.lastError = outcome.error;
          await transaction(db, ['queue'], 'readwrite', (s) => req(s.queue.put(action)));
          failed(error, outcome.retryAfter);
        }
        return;
      }
      conflicts = 0;
      succeeded();
    }
    if (pullRequested || Date.now() - lastPullAt >= PULL_EVERY_MS) {
      pullRequested = false;
      try {
        const pulled = await pull(client);
        if (pulled.ok) succeeded();
        else if (classify(pulled) === 'halt') {
          status.halted = { kind: 'auth', status: pulled.status, code: pulled.error, message: pulled.message };
          status.lastError = { ...status.halted, at: new Date().toISOString() };
        }
      } catch (error) {
        if (!(error instanceof NetworkError)) throw error;
        status.reachable = false;
      }
    } else {
      succeeded();
    }
  }

  async function run() {
    if (status.running) {
      again = true;
      return;
    }
    if (!navigator.onLine) {
      status.online = false;
      notify();
      return; // the `online` event starts the next pass
    }
    status.running = true;
    again = false;
    clearTimeout(timer);
    timer = null;
    status.nextAttemptAt = null;
    notify();
    try {
      if (navigator.locks) await navigator.locks.request('platform-till-sync', pass);
      else await pass();
    } catch (error) {
      // A failure of the till itself (storage, a bug): shown, and tried again later like a network failure.
      failed({ kind: 'internal', message: String(error?.message ?? error) });
      console.warn('till sync:', error);
    } finally {
      status.running = false;
      await saveMeta().catch(() => {});
      notify();
      if (again) setTimeout(run, 0);
    }
  }

  return {
    status,
    async start() {
      const meta = await get(db, 'meta', 'sync');
      if (meta) {
        status.lastSyncAt = meta.lastSyncAt ?? null;
        status.lastError = meta.lastError ?? null;
      }
      window.addEventListener('online', () => {
        status.online = true;
        status.failures = 0;
        pullRequested = true;
        run();
      });
      window.addEventListener('offline', () => {
        status.online = false;
        notify();
      });
      // Other tills' orders and the closing of ours elsewhere come in through the periodic pull.
      setInterval(() => {
        if (!status.running && !timer && document.visibilityState === 'visible') run();
      }, PULL_EVERY_MS);
      pullRequested = true;
      run();
    },
    // Something was queued: send it now (unless a backoff wait is under way).
    kick() {
      if (!timer) run();
    },
    // "Sync now" and a new pairing: try at once, whatever the backoff says, and read the board too.
    now() {
      status.failures = 0;
      status.halted = null;
      pullRequested = true;
      run();
    },
  };
}
