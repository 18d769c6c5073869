// The order screen: the menu by category on one side, the ticket on the other (lines with their options,
// line totals and VAT, the order's totals, payments, what is due), and Pay cash, Pay card and Close. Every
// figure is the wasm core's over the local order (model.js). A new order (`draft`) exists only on screen
// until its first line is added; then the address becomes the order's.
import { h, icon, mount } from '../../dashboard/kit/dom.js';
import { button, confirmDialog, emptyState, timeAgo } from '../../dashboard/kit/ui.js';
import { money, rate } from '../format.js';
import { kitIcons, tillIcons } from '../icons.js';
import { menuSections, tableName } from '../menu.js';
import { coreLinesOf, corePaymentsOf, newClientOrderId } from '../model.js';
import { chooseOptions } from './options.js';
import { askPayment } from './pay.js';
import { amount, methodName, noticeList, orderLabel, refusal, syncMark } from './common.js';

// route: {clientOrderId} for an existing order, {draftTable: tableId | 'counter'} for a new one.
export function orderView({ t, till, route, toast, navigate }) {
  const clientOrderId = route.clientOrderId ?? newClientOrderId();
  const draftTable = route.draftTable === 'counter' ? null : (route.draftTable ?? null);
  const ticket = h('aside', { class: 'order-ticket', 'aria-label': t('till.order.ticket') });
  const menuPanel = h('div', { class: 'order-menu' });
  const element = h(
    'section',
    { class: 'till-screen order-screen', dataset: { screen: 'order', order: clientOrderId } },
    h('div', { class: 'order-layout' }, menuPanel, ticket),
  );
  let menuDrawnFrom = null;
  let work = Promise.resolve();

  const current = () => till.order(clientOrderId);

  // The person's taps run one after another, each after the previous one's write: a tap is never dropped
  // because another is still being stored, and each sees the order as the previous one left it.
  function act(step) {
    work = work.then(async () => {
      try {
        await step();
      } catch (error) {
        toast(refusal(error, t), 'danger');
      }
    });
    return work;
  }

  async function addProduct(product) {
    const groups = product.optionGroupIds?.length ?? 0;
    const choice = groups ? await chooseOptions({ t, core: till.core, menu: till.state.menu, product }) : { optionIds: [], quantity: 1 };
    if (!choice) return;
    await act(async () => {
      const order = current();
      await till.addLine({ clientOrderId, tableId: order ? order.tableId : draftTable, product, optionIds: choice.optionIds, quantity: choice.quantity });
      if (!route.clientOrderId) history.replaceState(null, '', `#/order/${encodeURIComponent(clientOrderId)}`);
    });
  }

  function drawMenu() {
    const menu = till.state.menu;
    if (menuDrawnFrom === menu?.fetchedAt) return;
    menuDrawnFrom = menu?.fetchedAt;
    const sections = menuSections(menu);
    if (!sections.length) {
      mount(menuPanel, emptyState({ title: t('till.menu.emptyTitle'), text: t('till.menu.emptyText') }));
      return;
    }
    mount(
      menuPanel,
      sections.length > 1
        ? h('nav', { class: 'menu-jump', 'aria-label': t('till.menu.categories') }, sections.map((s) => h('a', { class: 'chip-link', href: `#section-${s.id || 'other'}`, onclick: (e) => { e.preventDefault(); menuPanel.querySelector(`#section-${s.id || 'other'}`)?.scrollIntoView({ block: 'start', behavior: 'smooth' }); } }, s.name || t('till.menu.other'))))
        : null,
      sections.map((section) =>
        h(
          'section',
          { class: 'menu-section', id: `section-${section.id || 'other'}` },
          h('h2', { class: 'menu-section-title' }, section.name || (sections.length > 1 ? t('till.menu.other') : t('till.menu.title'))),
          h(
            'div',
            { class: 'product-grid' },
            section.products.map((product) =>
              h(
                'button',
                { type: 'button', class: 'product-button', dataset: { product: product.id }, onclick: () => addProduct(product) },
                h('span', { class: 'product-name' }, product.name),
                h('span', { class: 'product-price' }, money(product.priceMinor, t.locale)),
                product.optionGroupIds?.length ? h('span', { class: 'product-options' }, t('till.menu.hasOptions')) : null,
              ),
            ),
          ),
        ),
      ),
    );
  }

  function lineRow(order, line) {
    const vat = line.totals ? line.totals.vatMinor : 0;
    return h(
      'li',
      { class: ['ticket-line', line.synced ? null : 'is-pending'], dataset: { line: line.key, lineId: line.lineId ?? '', product: line.productId } },
      h('span', { class: 'ticket-qty' }, `${line.quantity}×`),
      h(
        'div',
        { class: 'ticket-line-main' },
        h('span', { class: 'ticket-line-name' }, line.name),
        line.options?.length ? h('span', { class: 'ticket-line-options' }, line.options.map((o) => o.name).join(', ')) : null,
        h(
          'span',
          { class: 'ticket-line-vat', dataset: { role: 'line-vat', minor: vat } },
          t('till.order.lineVat', { rate: rate(line.vatRateBps, t.locale), amount: money(vat, t.locale) }),
          line.quantity > 1 ? ` · ${t('till.order.each', { amount: money(line.unitPriceMinor, t.locale) })}` : null,
        ),
      ),
      h('span', { class: 'ticket-line-total' }, amount(line.totals?.grossMinor ?? line.unitPriceMinor * line.quantity, t, { dataset: { role: 'line-gross' } })),
      order.status === 'open'
        ? h(
            'button',
            {
              type: 'button',
              class: 'btn btn-ghost btn-icon ticket-remove',
              'aria-label': t('till.order.remove', { name: line.name }),
              dataset: { action: 'remove-line' },
              onclick: async () => {
                const ok = await confirmDialog({ title: t('till.order.removeTitle'), text: t('till.order.removeText', { line: `${line.quantity} × ${line.name}` }), confirmLabel: t('till.order.removeConfirm'), cancelLabel: t('kit.cancel'), danger: true });
                if (ok) await act(() => till.removeLine(clientOrderId, line.key));
              },
            },
            icon(kitIcons.trash),
          )
        : null,
    );
  }

  async function pay(method) {
    const order = current();
    if (!order) return;
    const amountMinor = await askPayment({
      t,
      method,
      dueMinor: order.dueMinor,
      validate: (minor) => {
        const latest = current();
        const check = till.core.canPay(coreLinesOf(latest), corePaymentsOf(latest), { paymentId: 'check', amountMinor: minor, method });
        return check.ok ? null : refusal({ code: check.code, message: check.message, params: { dueMinor: latest.dueMinor } }, t);
      },
    });
    if (amountMinor === null) return;
    await act(async () => {
      await till.pay(clientOrderId, amountMinor, method);
      toast(t('till.pay.taken', { amount: money(amountMinor, t.locale), method: methodName(method, t) }));
    });
  }

  async function close() {
    const order = current();
    await act(async () => {
      await till.close(clientOrderId);
      toast(t('till.order.closedToast', { label: orderLabel(order, t) }));
      navigate('#/tables');
    });
  }

  function drawTicket() {
    const order = current();
    const menu = till.state.menu;
    const tableId = order ? order.tableId : draftTable;
    const place = tableId ? (tableName(menu, tableId) ?? t('till.order.unknownTable')) : t('till.order.counter');
    const open = !order || order.status === 'open';
    const lines = order?.lines ?? [];
    const totals = order?.totals ?? { grossMinor: 0, netMinor: 0, vatMinor: 0 };
    const due = order?.dueMinor ?? 0;
    ticket.dataset.status = order?.status ?? 'draft';
    mount(
      ticket,
      h(
        'header',
        { class: 'ticket-header' },
        h('a', { class: 'back-link', href: '#/tables' }, icon(kitIcons.back), h('span', null, t('till.nav.tables'))),
        h(
          'div',
          { class: 'ticket-title-row' },
          h('h1', { class: 'ticket-title' }, place, ' ', h('span', { class: 'ticket-number', dataset: { role: 'order-number' } }, order ? orderLabel(order, t) : t('till.order.new'))),
          order ? syncMark(order, t) : null,
        ),
        order ? h('p', { class: 'ticket-meta muted' }, t('till.order.opened'), ' ', timeAgo(order.createdAt), order.status === 'closed' ? [' · ', h('strong', { dataset: { role: 'closed' } }, t('till.order.closed'))] : null) : h('p', { class: 'ticket-meta muted' }, t('till.order.draftHint')),
      ),
      order ? noticeList(order, t, till) : null,
      lines.length
        ? h('ul', { class: 'ticket-lines', dataset: { role: 'lines' } }, lines.map((line) => lineRow(order, line)))
        : h('p', { class: 'ticket-empty muted' }, t('till.order.noLines')),
      h(
        'dl',
        { class: 'ticket-totals', dataset: { role: 'totals' } },
        h('div', { class: 'ticket-total-row' }, h('dt', null, t('till.order.net')), h('dd', null, amount(totals.netMinor, t, { dataset: { total: 'net' } }))),
        h('div', { class: 'ticket-total-row' }, h('dt', null, t('till.order.vat')), h('dd', null, amount(totals.vatMinor, t, { dataset: { total: 'vat' } }))),
        h('div', { class: 'ticket-total-row is-gross' }, h('dt', null, t('till.order.total')), h('dd', null, amount(totals.grossMinor, t, { dataset: { total: 'gross' } }))),
        order?.payments.length
          ? h(
              'div',
              { class: 'ticket-payments' },
              order.payments.map((p) =>
                h(
                  'div',
                  { class: ['ticket-total-row', 'is-payment', p.synced ? null : 'is-pending'], dataset: { payment: p.paymentId } },
                  h('dt', null, methodName(p.method, t), p.synced ? null : h('span', { class: 'ticket-waiting' }, ` · ${t('till.order.notSynced')}`)),
                  h('dd', null, '−', amount(p.amountMinor, t)),
                ),
              ),
            )
          : null,
        h('div', { class: 'ticket-total-row is-due' }, h('dt', null, t('till.order.due')), h('dd', null, amount(due, t, { dataset: { total: 'due' } }))),
        order?.overpaidMinor ? h('div', { class: 'ticket-total-row is-overpaid' }, h('dt', null, t('till.order.overpaid')), h('dd', null, amount(order.overpaidMinor, t))) : null,
      ),
      open
        ? h(
            'div',
            { class: 'ticket-actions' },
            button(t('till.order.payCash'), { icon: tillIcons.cash, variant: 'secondary', className: 'btn-large', disabled: !order || due <= 0, dataset: { action: 'pay-cash' }, onclick: () => pay('cash') }),
            button(t('till.order.payCard'), { icon: tillIcons.card, variant: 'secondary', className: 'btn-large', disabled: !order || due <= 0, dataset: { action: 'pay-card' }, onclick: () => pay('card') }),
            button(t('till.order.close'), { icon: kitIcons.check, className: 'btn-large', disabled: !order || due > 0, dataset: { action: 'close' }, onclick: close }),
          )
        : h('div', { class: 'ticket-actions' }, h('a', { class: 'btn btn-primary btn-large', href: '#/tables' }, t('till.order.backToTables'))),
    );
  }

  function update() {
    drawMenu();
    drawTicket();
    menuPanel.inert = current()?.status === 'closed';
  }

  update();
  return { element, update, clientOrderId };
}
