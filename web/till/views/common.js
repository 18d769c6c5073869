// Pieces more than one till screen uses: an order's label, its sync mark, amounts with their minor units
// in data-minor (what tests and screen readers read exactly), notices about orders, and sentences for the
// till's refusals.
import { h, icon } from '../../dashboard/kit/dom.js';
import { button } from '../../dashboard/kit/ui.js';
import { money } from '../format.js';
import { kitIcons, tillIcons } from '../icons.js';
import { tableName } from '../menu.js';

export function methodName(method, t) {
  return t.has(`till.method.${method}`) ? t(`till.method.${method}`) : method;
}

export function orderLabel(order, t) {
  return order.number ? t('till.order.number', { number: order.number }) : t('till.order.unnumbered');
}

export function orderPlace(order, menu, t) {
  if (!order.tableId) return t('till.order.counter');
  return tableName(menu, order.tableId) ?? t('till.order.unknownTable');
}

export function amount(minor, t, attrs = {}) {
  return h('span', { class: ['amount', attrs.class], dataset: { minor, ...(attrs.dataset ?? {}) } }, money(minor, t.locale));
}

// "Synced" or "n waiting" for one order.
export function syncMark(order, t) {
  if (!order.pending.length) return h('span', { class: 'sync-mark sync-mark-done', dataset: { sync: 'done' } }, icon(kitIcons.check), t('till.order.synced'));
  return h('span', { class: 'sync-mark sync-mark-pending', dataset: { sync: 'pending' } }, icon(tillIcons.sync), t('till.order.waiting', { count: order.pending.length }));
}

// A refusal's sentence: the till's own codes and the core's, else the API's message.
export function refusal(error, t) {
  const code = error?.code;
  const key = `till.error.${code}`;
  if (code && t.has(key)) {
    const params = { ...(error.params ?? {}) };
    if (typeof params.dueMinor === 'number') params.due = money(params.dueMinor, t.locale);
    if (typeof params.money === 'number') params.amount = money(params.money, t.locale);
    return t(key, params);
  }
  return error?.message ?? String(error);
}

function describeLine(line) {
  const options = line.options?.length ? ` (${line.options.join(', ')})` : '';
  return `${line.quantity} × ${line.name}${options}`;
}

// What a notice says, in sentences.
export function noticeText(notice, t) {
  if (notice.kind === 'changedElsewhere') {
    const parts = [];
    const c = notice.changes;
    if (c.added.length) parts.push(t('till.notice.added', { lines: c.added.map(describeLine).join(', ') }));
    if (c.removed.length) parts.push(t('till.notice.removed', { lines: c.removed.map(describeLine).join(', ') }));
    for (const p of c.payments) parts.push(t('till.notice.paid', { amount: money(p.amountMinor, t.locale), method: methodName(p.method, t) }));
    if (c.closed) parts.push(t('till.notice.closed'));
    return { title: t('till.notice.changedTitle'), text: parts.join(' ') };
  }
  const p = notice.payload ?? {};
  const what =
    notice.action === 'addItem'
      ? t('till.notice.what.addItem', { line: describeLine({ quantity: p.quantity, name: p.name, options: (p.options ?? []).map((o) => o.name) }) })
      : notice.action === 'pay'
        ? t('till.notice.what.pay', { amount: money(p.amountMinor, t.locale), method: methodName(p.method, t) })
        : t(`till.notice.what.${notice.action}`);
  const reason = t.has(`till.error.${notice.code}`) ? t(`till.error.${notice.code}`, {}) : notice.message || notice.code;
  return { title: t('till.notice.refusedTitle'), text: t('till.notice.refused', { what, reason }) };
}

// The notices of an order, each with Dismiss.
export function noticeList(order, t, till) {
  if (!order.notices.length) return null;
  return h(
    'ul',
    { class: 'till-notices', dataset: { role: 'notices' } },
    order.notices.map((notice) => {
      const { title, text } = noticeText(notice, t);
      return h(
        'li',
        { class: ['note', notice.kind === 'refused' ? 'note-danger' : 'note-warning'], dataset: { notice: notice.kind, code: notice.code ?? '' } },
        icon(kitIcons.alert),
        h('div', { class: 'till-notice-text' }, h('p', null, h('strong', null, title)), h('p', null, text)),
        button(t('kit.dismiss'), { variant: 'ghost', className: 'btn-small', onclick: () => till.dismissNotice(order.clientOrderId, notice.id) }),
      );
    }),
  );
}
