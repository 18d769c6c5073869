// Mail > Suppressions: the addresses sends skip (bounces, complaints, added by hand), a lookup that answers
// "why was this not sent?" for one address, adding and removing. Route: /dashboard/{slug}/mail/suppressions
// (?address= looks an address up at once, as the log page links it).
import { h, icon, mount } from '../kit/dom.js';
import { createForm, input, select } from '../kit/form.js';
import { icons } from '../kit/icons.js';
import { pageHeader } from '../kit/layout.js';
import { pagedTable } from '../kit/table.js';
import { absoluteTime, button, card, confirmDialog, timeAgo } from '../kit/ui.js';
import { mailPath, mailStatusPill, reasonPill } from './common.js';

const REASONS = ['bounce', 'complaint', 'manual'];

export default function suppressionsPage(ctx) {
  const { t } = ctx;
  const query = ctx.route.query;
  let reason = REASONS.includes(query.get('reason')) ? query.get('reason') : '';

  // ---- lookup
  const result = h('div', { class: 'lookup-result', id: 'lookup-result', 'aria-live': 'polite' });
  const lookupForm = createForm({
    t,
    inline: true,
    id: 'lookup',
    submitLabel: t('mail.suppressions.lookUp'),
    submitIcon: icons.search,
    busyLabel: t('mail.suppressions.lookingUp'),
    fields: [
      {
        name: 'address',
        label: t('mail.suppressions.address'),
        required: true,
        email: true,
        control: input({ name: 'address', type: 'email', placeholder: 'name@example.com', autocomplete: 'off', value: query.get('address') ?? '' }),
      },
    ],
    async onSubmit({ address }) {
      ctx.setQuery({ address: address.trim() });
      await lookUp(address.trim());
    },
  });

  async function lookUp(address) {
    try {
      const entry = await ctx.api.get(mailPath(ctx, 'suppressions', address), { signal: ctx.signal });
      mount(result, listedView(entry));
    } catch (error) {
      if (error.status === 404) {
        mount(
          result,
          h(
            'div',
            { class: 'note note-success', dataset: { listed: 'false' } },
            icon(icons.check),
            h('div', null, h('p', null, h('strong', null, t('mail.suppressions.notListed', { address }))), h('p', null, t('mail.suppressions.notListedText'))),
          ),
        );
        return;
      }
      result.replaceChildren();
      throw error;
    }
  }

  function sourceView(entry) {
    const source = entry.source;
    if (!source) return h('span', { class: 'muted', title: t('mail.suppressions.byHand') }, '—');
    return h(
      'span',
      { class: 'source' },
      source.event ? mailStatusPill(t, source.event) : null,
      source.mailLogId ? h('a', { href: ctx.href('logs', source.mailLogId), class: 'source-log' }, t('mail.suppressions.openLog')) : null,
      source.detail ? h('span', { class: 'source-detail mono' }, source.detail) : null,
    );
  }

  function listedView(entry) {
    const removeButton = button(t('mail.suppressions.remove'), { variant: 'danger-outline', className: 'btn-small', icon: icons.trash, dataset: { action: 'remove-looked-up' } });
    removeButton.addEventListener('click', () => remove(entry, () => lookUp(entry.address)));
    return h(
      'div',
      { class: 'note note-danger lookup-listed', dataset: { listed: 'true', reason: entry.reason } },
      icon(icons.block),
      h(
        'div',
        { class: 'lookup-body' },
        h('p', null, h('strong', null, t('mail.suppressions.listed', { address: entry.address }))),
        h('p', null, t.has(`mail.suppressions.because.${entry.reason}`) ? t(`mail.suppressions.because.${entry.reason}`) : entry.reason),
        h(
          'dl',
          { class: 'details details-compact' },
          h('div', { class: 'details-row' }, h('dt', null, t('mail.suppressions.colReason')), h('dd', null, reasonPill(t, entry.reason))),
          h('div', { class: 'details-row' }, h('dt', null, t('mail.suppressions.colSource')), h('dd', null, sourceView(entry))),
          h('div', { class: 'details-row' }, h('dt', null, t('mail.suppressions.since')), h('dd', null, absoluteTime(entry.createdAt))),
        ),
        h('div', { class: 'lookup-actions' }, removeButton, h('span', { class: 'field-hint' }, t('mail.suppressions.removeHint'))),
      ),
    );
  }

  // ---- add
  const addCard = card({ title: t('mail.suppressions.addTitle'), subtitle: t('mail.suppressions.addText'), id: 'add-suppression-card', hidden: true });
  const addForm = createForm({
    t,
    inline: true,
    id: 'add-suppression',
    submitLabel: t('mail.suppressions.add'),
    submitIcon: icons.plus,
    busyLabel: t('mail.suppressions.adding'),
    fields: [
      {
        name: 'address',
        label: t('mail.suppressions.address'),
        required: true,
        email: true,
        control: input({ name: 'address', type: 'email', placeholder: 'name@example.com', autocomplete: 'off' }),
      },
    ],
    actions: [button(t('kit.cancel'), { variant: 'ghost', onclick: () => (addCard.hidden = true) })],
    async onSubmit({ address }) {
      const { data: entry, status } = await ctx.api.request('POST', mailPath(ctx, 'suppressions'), { body: { address: address.trim(), reason: 'manual' } });
      ctx.toast(status === 201 ? t('mail.suppressions.added', { address: entry.address }) : t('mail.suppressions.already', { address: entry.address }));
      addForm.reset();
      addCard.hidden = true;
      table.reload();
    },
  });
  addCard.append(addForm.element);

  // ---- list
  async function remove(entry, after) {
    const ok = await confirmDialog({
      title: t('mail.suppressions.removeTitle', { address: entry.address }),
      text: t('mail.suppressions.removeText'),
      confirmLabel: t('mail.suppressions.remove'),
      cancelLabel: t('kit.cancel'),
      danger: true,
    });
    if (!ok) return;
    try {
      await ctx.api.del(mailPath(ctx, 'suppressions', entry.id ?? entry.address));
      ctx.toast(t('mail.suppressions.removed', { address: entry.address }));
      table.reload();
      after?.();
    } catch (error) {
      ctx.reportError(error);
    }
  }

  let table;
  const tableSlot = h('div');
  function showTable(skip) {
    table?.abort();
    table = pagedTable({
      t,
      skip,
      caption: t('mail.suppressions.title'),
      load: ({ limit, skip: s, signal }) => ctx.api.list(mailPath(ctx, 'suppressions'), { limit, skip: s, signal, query: { reason } }),
      onPage: (s) => ctx.setQuery({ skip: s || null }),
      onError: (error) => ctx.reportError(error),
      rowAttrs: (entry) => ({ dataset: { address: entry.address } }),
      empty: reason
        ? { title: t('mail.suppressions.noMatch'), drawing: icons.search }
        : { title: t('mail.suppressions.emptyTitle'), text: t('mail.suppressions.emptyText'), drawing: icons.block },
      columns: [
        { label: t('mail.suppressions.colAddress'), render: (e) => h('span', { class: 'address' }, e.address) },
        { label: t('mail.suppressions.colReason'), render: (e) => reasonPill(t, e.reason) },
        { label: t('mail.suppressions.colSource'), render: (e) => sourceView(e) },
        { label: t('mail.suppressions.colAdded'), className: 'cell-nowrap', render: (e) => timeAgo(e.createdAt) },
        {
          label: t('mail.suppressions.colActions'),
          className: 'cell-actions',
          render: (e) =>
            button(t('mail.suppressions.remove'), {
              variant: 'ghost',
              className: 'btn-small',
              icon: icons.trash,
              dataset: { action: 'remove' },
              'aria-label': t('mail.suppressions.removeTitle', { address: e.address }),
              onclick: () => remove(e),
            }),
        },
      ],
    });
    mount(tableSlot, table.element);
  }

  const reasonFilter = select({
    name: 'reason',
    value: reason,
    id: 'reason-filter',
    'aria-label': t('mail.suppressions.colReason'),
    options: [{ value: '', label: t('mail.suppressions.anyReason') }, ...REASONS.map((r) => ({ value: r, label: t(`mail.reason.${r}`) }))],
  });
  reasonFilter.addEventListener('change', () => {
    reason = reasonFilter.value;
    ctx.setQuery({ reason: reason || null, skip: null });
    showTable(0);
  });

  const addButton = button(t('mail.suppressions.add'), {
    icon: icons.plus,
    dataset: { action: 'add-suppression' },
    onclick: () => {
      addCard.hidden = false;
      addForm.fields.address.control.focus();
    },
  });

  mount(
    ctx.root,
    pageHeader({ title: t('mail.suppressions.title'), subtitle: t('mail.suppressions.subtitle'), actions: [addButton] }),
    card({ title: t('mail.suppressions.lookupTitle'), subtitle: t('mail.suppressions.lookupText'), id: 'lookup-card' }, lookupForm.element, result),
    addCard,
    h('div', { class: 'list-toolbar' }, h('h2', { class: 'section-title' }, t('mail.suppressions.listTitle')), reasonFilter),
    tableSlot,
  );
  showTable(Number.parseInt(query.get('skip') ?? '0', 10) || 0);
  if (query.get('address')) {
    lookUp(query.get('address')).catch((error) => ctx.reportError(error));
  }
  return () => table?.abort();
}
