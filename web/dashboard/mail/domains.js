// Mail > Domains: the sending domains of the company (list, add), and one domain (its DNS records to copy,
// the SPF/DKIM/DMARC checks, Verify, Delete). Routes: /dashboard/{slug}/mail/domains[/{id}].
import { copyable } from '../kit/clipboard.js';
import { h, icon, mount } from '../kit/dom.js';
import { createForm, input } from '../kit/form.js';
import { icons } from '../kit/icons.js';
import { pageHeader } from '../kit/layout.js';
import { pagedTable } from '../kit/table.js';
import { absoluteTime, button, card, checkMark, confirmDialog, details, emptyState, timeAgo } from '../kit/ui.js';
import { domainStatusPill, mailPath, recordPurpose } from './common.js';

export default function domainsPage(ctx) {
  const [id] = ctx.route.rest;
  return id ? showDomain(ctx, id) : showList(ctx);
}

function checkMarks(t, checks) {
  const labels = { passText: t('mail.check.pass'), failText: t('mail.check.fail'), unknownText: t('mail.check.unknown') };
  return h(
    'span',
    { class: 'checks' },
    ['spf', 'dkim', 'dmarc'].map((name) => checkMark(checks ? checks[name] : null, name.toUpperCase(), labels)),
  );
}

function addDomainForm(ctx, { onCancel } = {}) {
  const { t } = ctx;
  const form = createForm({
    t,
    inline: true,
    id: 'add-domain',
    submitLabel: t('mail.domains.add'),
    submitIcon: icons.plus,
    busyLabel: t('mail.domains.adding'),
    fields: [
      {
        name: 'name',
        label: t('mail.domains.name'),
        hint: t('mail.domains.nameHint'),
        required: true,
        validate: (value) => (/\s/.test(value) || !value.includes('.') ? t('mail.domains.nameInvalid') : null),
        control: input({ name: 'name', placeholder: 'mail.example.com', autocomplete: 'off', inputmode: 'url' }),
      },
    ],
    actions: onCancel ? [button(t('kit.cancel'), { variant: 'ghost', onclick: onCancel })] : [],
    async onSubmit({ name }) {
      const domain = await ctx.api.post(mailPath(ctx, 'domains'), { name: name.trim() });
      ctx.toast(t('mail.domains.added', { name: domain.name }));
      ctx.navigate(ctx.href('domains', domain.id));
    },
  });
  return form;
}

function showList(ctx) {
  const { t } = ctx;
  const page = ctx.root;
  const addCard = card({ title: t('mail.domains.addTitle'), subtitle: t('mail.domains.addText'), id: 'add-domain-card', hidden: true });
  let form = null;
  const openAdd = () => {
    if (!form) {
      form = addDomainForm(ctx, { onCancel: () => (addCard.hidden = true) });
      addCard.append(form.element);
    }
    addCard.hidden = false;
    form.fields.name.control.focus();
  };
  const skip = Number.parseInt(ctx.route.query.get('skip') ?? '0', 10) || 0;
  const table = pagedTable({
    t,
    skip,
    caption: t('mail.domains.title'),
    load: ({ limit, skip: s, signal }) => ctx.api.list(mailPath(ctx, 'domains'), { limit, skip: s, signal }),
    onPage: (s) => ctx.setQuery({ skip: s || null }),
    onError: (error) => ctx.reportError(error),
    rowLink: (d) => ctx.href('domains', d.id),
    rowAttrs: (d) => ({ dataset: { domain: d.name } }),
    empty: {
      title: t('mail.domains.emptyTitle'),
      text: t('mail.domains.emptyText'),
      drawing: icons.globe,
      action: button(t('mail.domains.add'), { icon: icons.plus, onclick: openAdd }),
    },
    columns: [
      { label: t('mail.domains.colName'), primary: true, render: (d) => d.name },
      { label: t('mail.domains.colStatus'), render: (d) => domainStatusPill(t, d.status) },
      { label: t('mail.domains.colChecks'), render: (d) => checkMarks(t, d.checks) },
      { label: t('mail.domains.colAdded'), className: 'cell-nowrap', render: (d) => timeAgo(d.createdAt) },
    ],
  });
  mount(
    page,
    pageHeader({
      title: t('mail.domains.title'),
      subtitle: t('mail.domains.subtitle'),
      actions: [button(t('mail.domains.add'), { icon: icons.plus, onclick: openAdd, dataset: { action: 'add-domain' } })],
    }),
    addCard,
    table.element,
  );
  return () => table.abort();
}

const PURPOSE_ORDER = ['spf', 'dkim', 'dmarc', 'mx', 'root', 'other'];

async function showDomain(ctx, id) {
  const { t } = ctx;
  const page = ctx.root;
  const back = { href: ctx.href('domains'), label: t('mail.domains.title') };
  let domain;
  try {
    domain = await ctx.api.get(mailPath(ctx, 'domains', id), { signal: ctx.signal });
  } catch (error) {
    if (error.status === 404) {
      mount(page, pageHeader({ title: t('mail.domains.notFound'), back }), emptyState({ title: t('mail.domains.notFound'), text: t('mail.domains.notFoundText'), drawing: icons.globe }));
      return;
    }
    ctx.reportError(error);
    mount(page, pageHeader({ title: t('mail.domains.title'), back }), emptyState({ title: t('kit.table.failed'), drawing: icons.alert, action: button(t('kit.retry'), { variant: 'secondary', icon: icons.refresh, onclick: () => showDomain(ctx, id) }) }));
    return;
  }
  if (ctx.signal.aborted) return;
  ctx.setTitle(domain.name);

  const verifyButton = button(t('mail.domains.verify'), { icon: icons.refresh, dataset: { action: 'verify' } });
  const deleteButton = button(t('mail.domains.delete'), { variant: 'danger-outline', icon: icons.trash, dataset: { action: 'delete' } });
  const header = h('div');
  const verification = h('div');
  const records = h('div');

  function render() {
    mount(header, pageHeader({ title: domain.name, back, status: domainStatusPill(t, domain.status), actions: [verifyButton, deleteButton] }));
    mount(verification, verificationCard(ctx, domain));
    mount(records, recordsCard(ctx, domain));
  }

  verifyButton.addEventListener('click', async () => {
    verifyButton.disabled = true;
    verifyButton.querySelector('.btn-label').textContent = t('mail.domains.verifying');
    verifyButton.setAttribute('aria-busy', 'true');
    try {
      domain = await ctx.api.post(mailPath(ctx, 'domains', id, 'verify'), undefined, { signal: ctx.signal });
      ctx.clearError();
      ctx.toast(t(`mail.domains.verified.${domain.status}`, { name: domain.name }));
      render();
    } catch (error) {
      ctx.reportError(error);
    } finally {
      verifyButton.disabled = false;
      verifyButton.removeAttribute('aria-busy');
      verifyButton.querySelector('.btn-label').textContent = t('mail.domains.verify');
    }
  });

  deleteButton.addEventListener('click', async () => {
    const ok = await confirmDialog({
      title: t('mail.domains.deleteTitle', { name: domain.name }),
      text: t('mail.domains.deleteText'),
      confirmLabel: t('mail.domains.deleteConfirm'),
      cancelLabel: t('kit.cancel'),
      danger: true,
    });
    if (!ok) return;
    deleteButton.disabled = true;
    try {
      await ctx.api.del(mailPath(ctx, 'domains', id));
      ctx.toast(t('mail.domains.deleted', { name: domain.name }));
      ctx.navigate(ctx.href('domains'));
    } catch (error) {
      deleteButton.disabled = false;
      ctx.reportError(error);
    }
  });

  mount(page, header, verification, records);
  render();
}

function verificationCard(ctx, domain) {
  const { t } = ctx;
  const tone = { verified: 'success', pending: 'warning', failed: 'danger' }[domain.status] ?? 'warning';
  const noteText = {
    verified: t('mail.domains.noteVerified', { name: domain.name }),
    pending: t('mail.domains.notePending'),
    failed: t('mail.domains.noteFailed'),
  }[domain.status];
  const checks = domain.checks;
  const rows = ['spf', 'dkim', 'dmarc'].map((name) => {
    const state = checks ? checks[name] : null;
    const labels = { passText: t('mail.check.pass'), failText: t('mail.check.fail'), unknownText: t('mail.check.unknown') };
    return h(
      'li',
      { class: 'check-row', dataset: { check: name, state: String(state) } },
      checkMark(state, name.toUpperCase(), labels),
      h('span', { class: 'check-about' }, t(`mail.check.about.${name}`)),
      h('span', { class: ['check-state', state === true ? 'is-pass' : state === false ? 'is-fail' : 'is-unknown'] }, state === true ? labels.passText : state === false ? labels.failText : labels.unknownText),
    );
  });
  return card(
    { title: t('mail.domains.verification'), subtitle: t('mail.domains.verificationText'), id: 'verification' },
    h('div', { class: ['note', `note-${tone}`], dataset: { status: domain.status } }, icon(domain.status === 'verified' ? icons.check : domain.status === 'failed' ? icons.alert : icons.clock), h('p', null, noteText)),
    h('ul', { class: 'check-list' }, rows),
    details([
      [t('mail.domains.lastChecked'), domain.checkedAt ? timeAgo(domain.checkedAt) : t('mail.domains.neverChecked')],
      [t('mail.domains.verifiedAt'), domain.verifiedAt ? absoluteTime(domain.verifiedAt) : null],
      [t('mail.domains.addedAt'), absoluteTime(domain.createdAt)],
    ], 'details-compact'),
  );
}

function recordsCard(ctx, domain) {
  const { t } = ctx;
  const list = [...(domain.dnsRecords ?? [])].sort(
    (a, b) => PURPOSE_ORDER.indexOf(recordPurpose(a, domain.name)) - PURPOSE_ORDER.indexOf(recordPurpose(b, domain.name)),
  );
  const rows = list.map((record) => {
    const purpose = recordPurpose(record, domain.name);
    // DKIM is checked at s1, the signing selector; s2 waits for the next key (docs/mail-domains.md).
    const spare = purpose === 'dkim' && !String(record.name).startsWith('s1.');
    const check = ['spf', 'dkim', 'dmarc'].includes(purpose) && domain.checks && !spare ? domain.checks[purpose] : null;
    return h(
      'tr',
      { dataset: { purpose, type: record.type } },
      h('td', { dataset: { label: t('mail.records.type') } }, h('span', { class: 'record-type' }, record.type)),
      h('td', { dataset: { label: t('mail.records.name') } }, copyable(record.name, t, { what: t('mail.records.name') })),
      h('td', { dataset: { label: t('mail.records.value') } }, copyable(record.value, t, { what: t('mail.records.value'), className: 'record-value' })),
      h(
        'td',
        { dataset: { label: t('mail.records.purpose') } },
        h('span', { class: 'record-purpose' }, t(`mail.records.for.${purpose}`)),
        check === true ? h('span', { class: 'check check-success record-check' }, icon(icons.check), t('mail.check.found')) : null,
        check === false ? h('span', { class: 'check check-danger record-check' }, icon(icons.x), t('mail.check.notFound')) : null,
        spare ? h('span', { class: 'record-note' }, t('mail.records.nextKey')) : null,
      ),
    );
  });
  return card(
    { title: t('mail.records.title'), subtitle: t('mail.records.text'), className: 'card-flush', id: 'dns-records' },
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'table records' },
        h('caption', { class: 'sr-only' }, t('mail.records.title')),
        h('thead', null, h('tr', null, ['type', 'name', 'value', 'purpose'].map((c) => h('th', { scope: 'col' }, t(`mail.records.${c}`))))),
        h('tbody', null, rows),
      ),
    ),
  );
}

