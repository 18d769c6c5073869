// Mail > Templates: the list; /templates/new and /templates/{id} open the editor (template_editor.js).
import { h, icon, mount } from '../kit/dom.js';
import { icons } from '../kit/icons.js';
import { pageHeader } from '../kit/layout.js';
import { pagedTable } from '../kit/table.js';
import { linkButton, timeAgo } from '../kit/ui.js';
import { mailPath } from './common.js';
import { localizedText, platformCore } from './core.js';

export default async function templatesPage(ctx) {
  const [id] = ctx.route.rest;
  if (id) {
    const { default: editor } = await import('./template_editor.js');
    return editor(ctx, id === 'new' ? null : id);
  }
  return showList(ctx);
}

function variableChips(names, limit = 5) {
  if (!names?.length) return h('span', { class: 'muted' }, '—');
  const shown = names.slice(0, limit);
  return h(
    'span',
    { class: 'chips' },
    shown.map((n) => h('span', { class: 'chip' }, n)),
    names.length > limit ? h('span', { class: 'chip' }, `+${names.length - limit}`) : null,
  );
}

async function showList(ctx) {
  const { t } = ctx;
  // Domain names for the Domain column and whether any domain is verified yet; the core for the names'
  // locale. Neither is needed to show the list, so a failure only costs those.
  const [domains, core] = await Promise.all([
    ctx.api.all(mailPath(ctx, 'domains'), { signal: ctx.signal }).catch((error) => {
      ctx.reportError(error);
      return null;
    }),
    platformCore().catch(() => null),
  ]);
  if (ctx.signal.aborted) return;
  const domainNames = new Map((domains ?? []).map((d) => [d.id, d]));
  const anyVerified = (domains ?? []).some((d) => d.status === 'verified');
  const newButton = linkButton(t('mail.templates.new'), ctx.href('templates', 'new'), { icon: icons.plus, dataset: { action: 'new-template' } });
  const skip = Number.parseInt(ctx.route.query.get('skip') ?? '0', 10) || 0;
  const table = pagedTable({
    t,
    skip,
    caption: t('mail.templates.title'),
    load: ({ limit, skip: s, signal }) => ctx.api.list(mailPath(ctx, 'templates'), { limit, skip: s, signal }),
    onPage: (s) => ctx.setQuery({ skip: s || null }),
    onError: (error) => ctx.reportError(error),
    rowLink: (tpl) => ctx.href('templates', tpl.id),
    rowAttrs: (tpl) => ({ dataset: { template: tpl.id } }),
    empty: {
      title: t('mail.templates.emptyTitle'),
      text: t('mail.templates.emptyText'),
      drawing: icons.template,
      action: linkButton(t('mail.templates.new'), ctx.href('templates', 'new'), { icon: icons.plus }),
    },
    columns: [
      { label: t('mail.templates.colName'), primary: true, render: (tpl) => localizedText(core, tpl.name, ctx.lang) || tpl.id },
      { label: t('mail.templates.colSubject'), render: (tpl) => localizedText(core, tpl.subject, ctx.lang) },
      {
        label: t('mail.templates.colDomain'),
        render: (tpl) => {
          const d = domainNames.get(tpl.domainId);
          return d ? d.name : h('span', { class: 'muted' }, t('mail.templates.domainGone'));
        },
      },
      { label: t('mail.templates.colVariables'), render: (tpl) => variableChips(tpl.variables) },
      { label: t('mail.templates.colUpdated'), className: 'cell-nowrap', render: (tpl) => timeAgo(tpl.updatedAt) },
    ],
  });
  mount(
    ctx.root,
    pageHeader({ title: t('mail.templates.title'), subtitle: t('mail.templates.subtitle'), actions: [newButton] }),
    domains && !anyVerified
      ? h(
          'div',
          { class: 'note note-warning page-note' },
          icon(icons.alert),
          h('p', null, t('mail.templates.needDomain'), ' ', h('a', { href: ctx.href('domains') }, t('mail.templates.toDomains'))),
        )
      : null,
    table.element,
  );
  return () => table.abort();
}
