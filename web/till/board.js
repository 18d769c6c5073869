// The counter board (board.html): the open orders of the paired branch as kitchen tickets (number, table,
// age, lines with quantities and options), live. It uses the till's token from IndexedDB and reads
// GET /orders/board/events (text/event-stream): a `snapshot` event with every open order of the business
// day, then an `order` event for each committed write to one of the branch's orders; an order closed or of
// another business day leaves the board. The stream is read with fetch() (sse.js) because EventSource
// cannot send the token; it reconnects with backoff, and a fresh snapshot replaces everything on each
// connection. A watchdog reconnects when not even a heartbeat came for 45 s. Without the events route (404)
// the board polls GET /orders/board every 5 s.
import { h, mount } from '../dashboard/kit/dom.js';
import { createI18n, resolveLang } from '../dashboard/kit/i18n.js';
import { kitTexts } from '../dashboard/kit/texts.js';
import { emptyState, linkButton, pill } from '../dashboard/kit/ui.js';
import { restaurantClient } from './api.js';
import { backoffDelay } from './backoff.js';
import { get, openDb } from './db.js';
import { tillIcons } from './icons.js';
import { loadMenu, tableName } from './menu.js';
import { readEventStream } from './sse.js';
import { tillTexts } from './texts.js';

const WATCHDOG_MS = 45_000;
const POLL_MS = 5000;

const lang = resolveLang();
document.documentElement.lang = lang;
const { t } = createI18n(lang, kitTexts, tillTexts);
document.title = t('till.board.pageTitle');
const root = document.getElementById('board');

function ageMinutes(order, now) {
  return Math.max(0, Math.floor((now - Date.parse(order.createdAt)) / 60_000));
}

function ticket(order, menu, now) {
  const minutes = ageMinutes(order, now);
  const tone = minutes >= 30 ? 'late' : minutes >= 15 ? 'waiting' : 'fresh';
  return h(
    'article',
    { class: ['board-ticket', `is-${tone}`], dataset: { order: order.id, number: order.number, version: order.version } },
    h(
      'header',
      { class: 'board-ticket-head' },
      h('span', { class: 'board-ticket-number' }, `#${order.number}`),
      h('span', { class: 'board-ticket-place' }, order.tableId ? (tableName(menu, order.tableId) ?? t('till.order.unknownTable')) : t('till.order.counter')),
      h('time', { class: 'board-ticket-age', datetime: order.createdAt, dataset: { role: 'age' } }, t('till.board.age', { minutes })),
    ),
    order.items.length
      ? h(
          'ul',
          { class: 'board-ticket-lines' },
          order.items.map((item) =>
            h(
              'li',
              { class: 'board-line', dataset: { line: item.lineId } },
              h('span', { class: 'board-line-qty' }, `${item.quantity}×`),
              h('span', { class: 'board-line-name' }, item.name, item.options?.length ? h('span', { class: 'board-line-options' }, item.options.map((o) => o.name).join(', ')) : null),
            ),
          ),
        )
      : h('p', { class: 'board-ticket-empty' }, t('till.board.noLines')),
    h('footer', { class: 'board-ticket-foot' }, order.dueMinor > 0 ? pill(t('till.board.unpaid'), 'warning') : pill(t('till.board.paid'), 'success')),
  );
}

async function start() {
  const db = await openDb();
  const device = await get(db, 'device', 'pairing');
  if (!device) {
    mount(root, h('div', { class: 'board-unpaired' }, emptyState({ title: t('till.board.unpairedTitle'), text: t('till.board.unpairedText'), drawing: tillIcons.board, action: linkButton(t('till.board.openTill'), '/web/till/index.html') })));
    return;
  }
  const menu = await loadMenu(db);
  const client = restaurantClient({ slug: device.company.slug, token: device.token });
  const orders = new Map();
  let businessDate = null;
  let connection = 'connecting';
  let failures = 0;
  let lastError = null;

  const statePill = h('span', { class: 'board-state', dataset: { role: 'connection' } });
  const count = h('span', { class: 'board-count', dataset: { role: 'count' } });
  const grid = h('div', { class: 'board-grid', dataset: { role: 'tickets' } });
  mount(
    root,
    h(
      'div',
      { class: 'board' },
      h(
        'header',
        { class: 'board-bar' },
        h('div', { class: 'board-title' }, h('span', { class: 'brand-mark', 'aria-hidden': 'true' }, '◆'), h('strong', null, t('till.board.title')), h('span', { class: 'muted' }, device.branch.name)),
        count,
        statePill,
        h('a', { class: 'btn btn-ghost btn-small', href: '/web/till/index.html' }, t('till.board.backToTill')),
      ),
      grid,
    ),
  );

  function render() {
    const now = Date.now();
    const sorted = [...orders.values()].sort((a, b) => a.number - b.number);
    root.dataset.connection = connection;
    root.dataset.businessDate = businessDate ?? '';
    const tone = connection === 'live' ? 'success' : connection === 'polling' ? 'info' : 'warning';
    mount(statePill, pill(t(`till.board.state.${connection}`), tone), lastError && connection !== 'live' ? h('span', { class: 'board-error muted' }, lastError) : null);
    count.textContent = t('till.board.count', { count: sorted.length });
    mount(grid, sorted.length ? sorted.map((o) => ticket(o, menu, now)) : h('div', { class: 'board-empty' }, emptyState({ title: t('till.board.emptyTitle'), text: t('till.board.emptyText'), drawing: tillIcons.board })));
  }

  // Writes are announced after their commit, so two events of one order may come in the other order: the
  // highest version wins, also over a close already seen.
  const versions = new Map();
  function apply(order) {
    if ((versions.get(order.id) ?? 0) >= order.version) return;
    versions.set(order.id, order.version);
    if (order.status === 'closed' || (businessDate && order.businessDate !== businessDate)) orders.delete(order.id);
    else orders.set(order.id, order);
  }

  function onEvent({ event, data }) {
    let payload;
    try {
      payload = JSON.parse(data);
    } catch {
      return; // not ours to show
    }
    if (event === 'snapshot') {
      businessDate = payload.businessDate ?? null;
      orders.clear();
      versions.clear();
      for (const order of payload.orders ?? []) apply(order);
    } else if (event === 'order') {
      apply(payload);
    } else return;
    render();
  }

  const url = `/api/restaurant/companies/${encodeURIComponent(device.company.slug)}/orders/board/events?branchId=${encodeURIComponent(device.branch.id)}`;

  async function poll() {
    connection = 'polling';
    for (;;) {
      try {
        const answer = await client.all('/orders/board', { branchId: device.branch.id });
        if (answer.ok) {
          orders.clear();
          for (const order of answer.data) orders.set(order.id, order);
          lastError = null;
        } else lastError = answer.message;
      } catch {
        lastError = t('kit.error.network');
      }
      render();
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  async function listen() {
    for (;;) {
      const abort = new AbortController();
      let watchdog = null;
      let reason = null;
      const feed = () => {
        clearTimeout(watchdog);
        watchdog = setTimeout(() => abort.abort(), WATCHDOG_MS);
      };
      try {
        feed();
        const response = await fetch(url, { headers: { Authorization: `Bearer ${device.token}`, Accept: 'text/event-stream' }, cache: 'no-store', signal: abort.signal });
        if (response.status === 404) {
          clearTimeout(watchdog);
          return poll();
        }
        if (!response.ok) {
          const body = await response.json().catch(() => null);
          reason = `${response.status} ${body?.message ?? response.statusText}`;
        } else {
          connection = 'live';
          failures = 0;
          lastError = null;
          render();
          await readEventStream(response.body, { onEvent, onActivity: feed });
          reason = t('till.board.streamEnded');
        }
      } catch {
        reason = abort.signal.aborted ? t('till.board.silent') : t('kit.error.network');
      } finally {
        clearTimeout(watchdog);
      }
      failures += 1;
      lastError = reason;
      connection = 'reconnecting';
      render();
      await new Promise((resolve) => setTimeout(resolve, backoffDelay(failures)));
    }
  }

  render();
  setInterval(render, 15_000); // ages
  listen();
  document.documentElement.dataset.ready = 'true';
}

start().catch((error) => {
  console.error('board: could not start:', error);
  mount(root, h('div', { class: 'boot', role: 'alert' }, h('p', null, h('strong', null, t('till.bootFailed'))), h('p', { class: 'muted' }, String(error?.message ?? error))));
});
