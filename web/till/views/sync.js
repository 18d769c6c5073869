// The sync screen: the connection, how many actions wait and the money among them, the last successful
// sync, the last error and when the next try is, "Sync now", every queued action in order with its attempts,
// and the notices of every order (what the server refused or another device changed).
import { h, mount } from '../../dashboard/kit/dom.js';
import { dataTable } from '../../dashboard/kit/table.js';
import { absoluteTime, button, card, details, pill, timeAgo } from '../../dashboard/kit/ui.js';
import { money } from '../format.js';
import { tillIcons } from '../icons.js';
import { amount, methodName, noticeList, orderLabel, orderPlace } from './common.js';

export function syncView({ t, till }) {
  const element = h('section', { class: 'till-screen', dataset: { screen: 'sync' } });

  function describeAction(action) {
    const p = action.payload;
    if (action.type === 'addItem') return t('till.sync.action.addItem', { quantity: p.quantity, name: p.name });
    if (action.type === 'removeItem') return t('till.sync.action.removeItem');
    if (action.type === 'pay') return t('till.sync.action.pay', { amount: money(p.amountMinor, t.locale), method: methodName(p.method, t) });
    return t(`till.sync.action.${action.type}`);
  }

  function errorText(error) {
    if (!error) return null;
    if (error.kind === 'network') return t('till.sync.error.network');
    if (error.kind === 'auth') return t('till.sync.error.auth', { message: error.message ?? '' });
    if (error.kind === 'conflict') return t('till.sync.error.conflict');
    return t('till.sync.error.server', { status: error.status ?? '', message: error.message ?? error.code ?? '' });
  }

  function update() {
    const s = till.status();
    const orders = new Map(till.state.orders.map((o) => [o.clientOrderId, o]));
    const withNotices = till.state.orders.filter((o) => o.notices.length);
    mount(
      element,
      h('header', { class: 'till-screen-header' }, h('h1', { class: 'till-title' }, t('till.sync.title'))),
      s.halted
        ? h(
            'div',
            { class: 'note note-danger sync-halted', role: 'alert', dataset: { role: 'halted' } },
            h('p', null, t('till.sync.haltedNote', { message: s.halted.message ?? s.halted.code ?? '' })),
            h('a', { class: 'btn btn-danger', href: '#/repair', dataset: { action: 'repair' } }, t('till.settings.repair')),
          )
        : null,
      card(
        {
          title: t('till.sync.state'),
          actions: button(s.running ? t('till.status.syncing') : t('till.sync.now'), { icon: tillIcons.sync, disabled: s.running, dataset: { action: 'sync-now' }, onclick: () => till.sync.now() }),
          dataset: { role: 'sync-state' },
        },
        details([
          [t('till.sync.connection'), s.halted ? pill(t('till.status.halted'), 'danger') : s.online ? pill(t('till.status.online'), 'success') : pill(t('till.status.offline'), 'warning')],
          [t('till.sync.pending'), h('strong', { dataset: { role: 'pending-count' } }, String(s.pending))],
          [t('till.sync.money'), amount(s.money, t, { dataset: { role: 'pending-money' } })],
          [t('till.sync.last'), s.lastSyncAt ? h('span', { dataset: { role: 'last-sync' } }, timeAgo(s.lastSyncAt, { seconds: true }), ' · ', absoluteTime(s.lastSyncAt, { seconds: true })) : t('till.sync.never')],
          [t('till.sync.lastError'), s.lastError ? h('span', { class: 'sync-error', dataset: { role: 'last-error' } }, errorText(s.lastError), ' · ', timeAgo(s.lastError.at)) : t('till.sync.noError')],
          [t('till.sync.next'), s.nextAttemptAt ? t('till.sync.nextIn', { seconds: Math.max(0, Math.ceil((s.nextAttemptAt - Date.now()) / 1000)) }) : null],
        ]),
      ),
      card(
        { title: t('till.sync.queue', { count: s.pending }), subtitle: t('till.sync.queueHint'), className: 'card-flush', dataset: { role: 'queue' } },
        dataTable({
          rows: till.state.actions,
          empty: { title: t('till.sync.queueEmpty'), text: t('till.sync.queueEmptyText'), drawing: tillIcons.sync },
          rowAttrs: (a) => ({ dataset: { action: a.type, seq: a.seq } }),
          columns: [
            { label: '#', className: 'cell-nowrap', render: (a) => String(a.seq) },
            { label: t('till.sync.what'), render: describeAction },
            {
              label: t('till.orders.order'),
              render: (a) => {
                const o = orders.get(a.clientOrderId);
                return o ? `${orderPlace(o, till.state.menu, t)} · ${orderLabel(o, t)}` : '—';
              },
            },
            { label: t('till.sync.taken'), render: (a) => timeAgo(a.createdAt) },
            { label: t('till.sync.attempts'), render: (a) => (a.attempts ? t('till.sync.attemptsText', { count: a.attempts, error: a.lastError ?? '' }) : t('till.sync.notTried')) },
          ],
        }),
      ),
      withNotices.length
        ? card(
            { title: t('till.sync.notices'), dataset: { role: 'all-notices' } },
            withNotices.map((o) => h('div', { class: 'sync-notices' }, h('h3', { class: 'sync-notices-title' }, h('a', { href: `#/order/${encodeURIComponent(o.clientOrderId)}` }, `${orderPlace(o, till.state.menu, t)} · ${orderLabel(o, t)}`)), noticeList(o, t, till))),
          )
        : null,
    );
  }

  update();
  return { element, update };
}
