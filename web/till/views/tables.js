// The tables screen: every table of the branch as a tile (free, or its open order with total and what is
// still due), and the counter for takeaway orders. A free table opens a new order; nothing is written until
// its first line is added.
import { h, icon, mount } from '../../dashboard/kit/dom.js';
import { button, emptyState } from '../../dashboard/kit/ui.js';
import { tillIcons } from '../icons.js';
import { amount, orderLabel, syncMark } from './common.js';

const byName = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

export function tablesView({ t, till, toast }) {
  const element = h('section', { class: 'till-screen', dataset: { screen: 'tables' } });

  function orderTile(order, title) {
    return h(
      'a',
      { class: 'table-tile is-busy', href: `#/order/${encodeURIComponent(order.clientOrderId)}`, dataset: { order: order.clientOrderId, number: order.number ?? '' } },
      h('span', { class: 'table-tile-name' }, title),
      h('span', { class: 'table-tile-order' }, orderLabel(order, t)),
      h('span', { class: 'table-tile-total' }, amount(order.totals.grossMinor, t)),
      !order.lines.length
        ? h('span', { class: 'table-tile-state' }, t('till.order.noLines'))
        : order.dueMinor
          ? h('span', { class: 'table-tile-due' }, t('till.order.dueShort'), ' ', amount(order.dueMinor, t))
          : h('span', { class: 'table-tile-due is-paid' }, t('till.order.paid')),
      syncMark(order, t),
    );
  }

  function update() {
    const menu = till.state.menu;
    const open = till.state.orders.filter((o) => o.status === 'open');
    if (!menu) {
      mount(
        element,
        emptyState({
          title: t('till.tables.noMenuTitle'),
          text: t('till.tables.noMenuText'),
          action: button(t('kit.retry'), {
            onclick: async () => {
              const answer = await till.refreshMenu().catch((error) => ({ ok: false, message: error.message }));
              if (!answer.ok) toast(t('till.tables.menuFailed'), 'danger');
            },
          }),
          drawing: tillIcons.tables,
        }),
      );
      return;
    }
    const tables = [...(menu.tables ?? [])].sort((a, b) => byName.compare(a.name, b.name));
    const counterOrders = open.filter((o) => !o.tableId);
    const tiles = [
      h(
        'a',
        { class: 'table-tile table-tile-counter', href: '#/new/counter', dataset: { table: 'counter' } },
        icon(tillIcons.counter),
        h('span', { class: 'table-tile-name' }, t('till.tables.counter')),
        h('span', { class: 'table-tile-state' }, t('till.tables.newTakeaway')),
      ),
      ...counterOrders.map((o) => orderTile(o, t('till.order.counter'))),
    ];
    for (const table of tables) {
      const orders = open.filter((o) => o.tableId === table.id);
      if (!orders.length) {
        tiles.push(
          h(
            'a',
            { class: 'table-tile is-free', href: `#/new/${encodeURIComponent(table.id)}`, dataset: { table: table.id } },
            h('span', { class: 'table-tile-name' }, table.name),
            h('span', { class: 'table-tile-state' }, t('till.tables.free')),
          ),
        );
      } else {
        for (const o of orders) {
          const tile = orderTile(o, table.name);
          tile.dataset.table = table.id;
          tiles.push(tile);
        }
      }
    }
    mount(
      element,
      h(
        'header',
        { class: 'till-screen-header' },
        h('h1', { class: 'till-title' }, t('till.tables.title')),
        h('p', { class: 'muted' }, t('till.tables.lead', { open: open.length })),
      ),
      h('div', { class: 'table-grid', dataset: { role: 'tables' } }, tiles),
    );
  }

  update();
  return { element, update };
}
