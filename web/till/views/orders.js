// The orders screen: the branch's open orders (this till's and, once synced, other devices'), then the ones
// closed lately. A row opens the order.
import { h, mount } from '../../dashboard/kit/dom.js';
import { dataTable } from '../../dashboard/kit/table.js';
import { card, pill, timeAgo } from '../../dashboard/kit/ui.js';
import { tillIcons } from '../icons.js';
import { amount, orderLabel, orderPlace, syncMark } from './common.js';

const newestFirst = (a, b) => String(b.createdAt).localeCompare(String(a.createdAt));

export function ordersView({ t, till }) {
  const element = h('section', { class: 'till-screen', dataset: { screen: 'orders' } });

  function table(orders, empty) {
    return dataTable({
      rows: orders,
      empty,
      caption: empty.title,
      rowLink: (o) => `#/order/${encodeURIComponent(o.clientOrderId)}`,
      rowAttrs: (o) => ({ dataset: { order: o.clientOrderId, number: o.number ?? '' } }),
      columns: [
        { label: t('till.orders.order'), primary: true, render: (o) => orderLabel(o, t) },
        { label: t('till.orders.place'), render: (o) => orderPlace(o, till.state.menu, t) },
        { label: t('till.orders.lines'), render: (o) => String(o.lines.length) },
        { label: t('till.order.total'), className: 'cell-amount', render: (o) => amount(o.totals.grossMinor, t) },
        { label: t('till.order.due'), className: 'cell-amount', render: (o) => (o.status === 'closed' ? pill(t('till.order.closed'), 'neutral') : amount(o.dueMinor, t)) },
        { label: t('till.orders.opened'), render: (o) => timeAgo(o.createdAt) },
        { label: t('till.orders.sync'), render: (o) => syncMark(o, t) },
      ],
    });
  }

  function update() {
    const open = till.state.orders.filter((o) => o.status === 'open').sort(newestFirst);
    const closed = till.state.orders.filter((o) => o.status === 'closed').sort(newestFirst);
    mount(
      element,
      h('header', { class: 'till-screen-header' }, h('h1', { class: 'till-title' }, t('till.orders.title'))),
      card(
        { title: t('till.orders.open', { count: open.length }), className: 'card-flush', dataset: { role: 'open-orders' } },
        table(open, { title: t('till.orders.noneOpen'), text: t('till.orders.noneOpenText'), drawing: tillIcons.receipt }),
      ),
      card(
        { title: t('till.orders.closed'), subtitle: t('till.orders.closedHint'), className: 'card-flush', dataset: { role: 'closed-orders' } },
        table(closed, { title: t('till.orders.noneClosed'), drawing: tillIcons.receipt }),
      ),
    );
  }

  update();
  return { element, update };
}
