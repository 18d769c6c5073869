// Mail > Logs: every send, newest first, filtered by status, sending domain, sender and recipient (document
// 2's filters, kept in the address so a filtered view can be shared), and one send's recipients and timeline.
// Routes: /dashboard/{slug}/mail/logs[/{id}].
import { h, mount } from '../kit/dom.js';
import { createForm, input, select } from '../kit/form.js';
import { icons } from '../kit/icons.js';
import { pageHeader } from '../kit/layout.js';
import { pagedTable } from '../kit/table.js';
import { copyable } from '../kit/clipboard.js';
import { absoluteTime, button, card, details, emptyState, timeAgo } from '../kit/ui.js';
import { mailPath, mailStatusPill, mailTone } from './common.js';

// The statuses GET /logs filters by (a log's status follows its recipients', docs/mail-send.md).
const STATUSES = ['queued', 'deferred', 'delivered', 'bounced', 'suppressed'];
const FILTERS = ['status', 'domain', 'from', 'to'];

export default function logsPage(ctx) {
  const [id] = ctx.route.rest;
  return id ? showLog(ctx, id) : showList(ctx);
}

function recipientsText(log) {
  const to = log.to ?? (log.recipients ?? []).map((r) => r.address);
  if (!to.length) return '—';
  return to.length > 1 ? `${to[0]} +${to.length - 1}` : to[0];
}

async function showList(ctx) {
  const { t } = ctx;
  const query = ctx.route.query;
  const filters = Object.fromEntries(FILTERS.map((f) => [f, query.get(f) ?? '']));
  const domains = await ctx.api.all(mailPath(ctx, 'domains'), { signal: ctx.signal }).catch((error) => {
    ctx.reportError(error);
    return [];
  });
  if (ctx.signal.aborted) return;

  const statusSelect = select({
    name: 'status',
    value: filters.status,
    options: [{ value: '', label: t('mail.logs.anyStatus') }, ...STATUSES.map((s) => ({ value: s, label: t(`mail.status.${s}`) }))],
  });
  const domainNames = [...new Set([...domains.map((d) => d.name), filters.domain].filter(Boolean))].sort();
  const domainSelect = select({
    name: 'domain',
    value: filters.domain,
    options: [{ value: '', label: t('mail.logs.anyDomain') }, ...domainNames.map((n) => ({ value: n, label: n }))],
  });
  const fromInput = input({ name: 'from', type: 'email', value: filters.from, placeholder: 'sender@example.com', autocomplete: 'off' });
  const toInput = input({ name: 'to', type: 'email', value: filters.to, placeholder: 'recipient@example.com', autocomplete: 'off' });
  const email = (value) => (value && !/^[^\s@]+@[^\s@]+$/.test(value) ? t('kit.form.email') : null);

  let table = null;
  const tableSlot = h('div');
  function showTable(active, skip) {
    table?.abort();
    const filtered = FILTERS.some((f) => active[f]);
    table = pagedTable({
      t,
      skip,
      caption: t('mail.logs.title'),
      load: ({ limit, skip: s, signal }) => ctx.api.list(mailPath(ctx, 'logs'), { limit, skip: s, signal, query: active }),
      onPage: (s) => ctx.setQuery({ skip: s || null }),
      onError: (error) => ctx.reportError(error),
      rowLink: (log) => ctx.href('logs', log.id),
      rowAttrs: (log) => ({ dataset: { log: log.id } }),
      empty: filtered
        ? { title: t('mail.logs.noMatch'), text: t('mail.logs.noMatchText'), drawing: icons.search, action: button(t('mail.logs.clear'), { variant: 'secondary', onclick: clear }) }
        : { title: t('mail.logs.emptyTitle'), text: t('mail.logs.emptyText'), drawing: icons.logs },
      columns: [
        { label: t('mail.logs.colTime'), className: 'cell-nowrap', render: (log) => timeAgo(log.createdAt) },
        { label: t('mail.logs.colSubject'), primary: true, className: 'cell-subject', render: (log) => log.subject || t('mail.logs.noSubject') },
        { label: t('mail.logs.colFrom'), render: (log) => log.from },
        { label: t('mail.logs.colTo'), render: (log) => recipientsText(log) },
        { label: t('mail.logs.colStatus'), render: (log) => mailStatusPill(t, log.status) },
      ],
    });
    mount(tableSlot, table.element);
  }

  const form = createForm({
    t,
    className: 'filters',
    id: 'log-filters',
    submitLabel: t('mail.logs.apply'),
    submitIcon: icons.search,
    busyLabel: t('mail.logs.apply'),
    fields: [
      { name: 'status', label: t('mail.logs.status'), control: statusSelect },
      { name: 'domain', label: t('mail.logs.domain'), control: domainSelect },
      { name: 'from', label: t('mail.logs.from'), control: fromInput, validate: email },
      { name: 'to', label: t('mail.logs.to'), control: toInput, validate: email },
    ],
    actions: [button(t('mail.logs.clear'), { variant: 'ghost', onclick: () => clear(), dataset: { action: 'clear-filters' } })],
    async onSubmit(values) {
      const active = Object.fromEntries(FILTERS.map((f) => [f, values[f].trim()]));
      ctx.setQuery({ ...active, skip: null }, { replace: false });
      showTable(active, 0);
    },
  });

  function clear() {
    form.reset();
    for (const control of [statusSelect, domainSelect, fromInput, toInput]) control.value = '';
    ctx.setQuery({ status: null, domain: null, from: null, to: null, skip: null }, { replace: false });
    showTable({}, 0);
  }

  mount(
    ctx.root,
    pageHeader({ title: t('mail.logs.title'), subtitle: t('mail.logs.subtitle') }),
    card({ className: 'filters-card' }, form.element),
    tableSlot,
  );
  showTable(filters, Number.parseInt(query.get('skip') ?? '0', 10) || 0);
  return () => table?.abort();
}

async function showLog(ctx, id) {
  const { t } = ctx;
  const back = { href: ctx.href('logs'), label: t('mail.logs.title') };
  let log;
  try {
    log = await ctx.api.get(mailPath(ctx, 'logs', id), { signal: ctx.signal });
  } catch (error) {
    if (ctx.signal.aborted) return;
    if (error.status === 404) {
      mount(ctx.root, pageHeader({ title: t('mail.logs.notFound'), back }), emptyState({ title: t('mail.logs.notFound'), text: t('mail.logs.notFoundText'), drawing: icons.logs }));
      return;
    }
    ctx.reportError(error);
    mount(ctx.root, pageHeader({ title: t('mail.logs.title'), back }), emptyState({ title: t('kit.table.failed'), drawing: icons.alert, action: button(t('kit.retry'), { variant: 'secondary', icon: icons.refresh, onclick: () => showLog(ctx, id) }) }));
    return;
  }
  if (ctx.signal.aborted) return;
  ctx.setTitle(log.subject || id);

  const summary = card(
    { title: t('mail.logs.message'), id: 'log-summary' },
    details([
      [t('mail.logs.subject'), log.subject || t('mail.logs.noSubject')],
      [t('mail.logs.from'), log.from],
      [t('mail.logs.to'), (log.to ?? []).join(', ')],
      [t('mail.logs.domain'), log.domainId ? h('a', { href: ctx.href('domains', log.domainId) }, log.domain ?? log.domainId) : log.domain],
      [t('mail.logs.template'), log.templateId ? h('a', { href: ctx.href('templates', log.templateId) }, log.templateId) : null],
      [t('mail.logs.created'), absoluteTime(log.createdAt, { seconds: true })],
      [t('mail.logs.scheduled'), log.scheduledAt ? absoluteTime(log.scheduledAt, { seconds: true }) : null],
      [t('mail.logs.messageId'), log.messageId ? copyable(log.messageId, t, { what: t('mail.logs.messageId') }) : null],
      [t('mail.logs.logId'), copyable(log.id, t, { what: t('mail.logs.logId') })],
    ]),
  );

  const recipients = card(
    { title: t('mail.logs.recipients'), className: 'card-flush', id: 'log-recipients' },
    (log.recipients ?? []).length
      ? h(
          'div',
          { class: 'table-wrap' },
          h(
            'table',
            { class: 'table' },
            h('thead', null, h('tr', null, [t('mail.logs.address'), t('mail.logs.colStatus'), t('mail.logs.attempts'), t('mail.logs.lastAnswer')].map((c) => h('th', { scope: 'col' }, c)))),
            h(
              'tbody',
              null,
              log.recipients.map((r) =>
                h(
                  'tr',
                  { dataset: { recipient: r.address } },
                  h('td', { dataset: { label: t('mail.logs.address') }, class: 'address' }, r.address),
                  h('td', { dataset: { label: t('mail.logs.colStatus') } }, mailStatusPill(t, r.status)),
                  h('td', { dataset: { label: t('mail.logs.attempts') } }, t.number(r.attempts ?? 0)),
                  h(
                    'td',
                    { dataset: { label: t('mail.logs.lastAnswer') } },
                    r.lastAnswer
                      ? h('span', { class: 'mono answer' }, r.lastAnswer)
                      : r.status === 'suppressed'
                        ? h('a', { href: `${ctx.href('suppressions')}?address=${encodeURIComponent(r.address)}` }, t('mail.logs.whySuppressed'))
                        : h('span', { class: 'muted' }, '—'),
                  ),
                ),
              ),
            ),
          ),
        )
      : h('div', { class: 'card-body' }, emptyState({ title: t('mail.logs.noRecipients') })),
  );

  const events = [...(log.events ?? [])].sort((a, b) => String(a.at).localeCompare(String(b.at)));
  const timeline = card(
    { title: t('mail.logs.timeline'), subtitle: t('mail.logs.timelineText'), id: 'log-timeline' },
    events.length
      ? h(
          'ol',
          { class: 'timeline' },
          events.map((e) =>
            h(
              'li',
              { class: 'timeline-item', dataset: { event: e.event } },
              h('span', { class: 'timeline-dot', dataset: { tone: mailTone(e.event) }, 'aria-hidden': 'true' }),
              h(
                'div',
                { class: 'timeline-head' },
                mailStatusPill(t, e.event),
                e.recipient ? h('span', { class: 'timeline-recipient' }, e.recipient) : h('span', { class: 'muted' }, t('mail.logs.wholeSend')),
                h('span', { class: 'timeline-time' }, absoluteTime(e.at, { seconds: true })),
              ),
              e.detail ? h('p', { class: 'timeline-detail mono' }, e.detail) : null,
            ),
          ),
        )
      : emptyState({ title: t('mail.logs.noEvents'), drawing: icons.clock }),
  );

  mount(
    ctx.root,
    pageHeader({ title: log.subject || t('mail.logs.noSubject'), back, status: mailStatusPill(t, log.status), subtitle: h('span', null, t('mail.logs.sentAt'), ' ', timeAgo(log.createdAt)) }),
    h('div', { class: 'log-grid' }, summary, timeline),
    recipients,
  );
}

