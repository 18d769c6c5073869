// Company > Access tokens: the company's `stk_` tokens over /api/companies/{slug}/access-tokens
// (docs/platform-api.md "Access tokens"). Create shows the plaintext once; the list says what each token may
// do in words (a till's branch-limited token by its branch's name), when it was last used, and whether it is
// revoked; Revoke asks first. Address: /dashboard/{slug}/company/tokens (`?new` opens the form, `?revoked=hide`
// hides revoked tokens, `?skip=` is the page).
import { copyable } from '../kit/clipboard.js';
import { h, icon, mount } from '../kit/dom.js';
import { field, toggle } from '../kit/form.js';
import { icons } from '../kit/icons.js';
import { pageHeader } from '../kit/layout.js';
import { pagedTable } from '../kit/table.js';
import { button, card, confirmDialog, mono, pill, timeAgo } from '../kit/ui.js';
import { parsePermission, permissionLabel } from './permissions.js';
import { tokenForm } from './token_form.js';

function companyPath(ctx, ...parts) {
  return `/api/companies/${encodeURIComponent(ctx.company.slug)}/${parts.map((p) => encodeURIComponent(p)).join('/')}`;
}

// The company's restaurant branches, for their names and the branch select. None when the company has no
// restaurant or the caller may not read it: the tokens do not depend on it (ids are shown instead).
async function loadBranches(ctx) {
  try {
    return await ctx.api.all(`/api/restaurant/companies/${encodeURIComponent(ctx.company.slug)}/branches`, { signal: ctx.signal });
  } catch (error) {
    if (error?.name === 'AbortError') throw error;
    return [];
  }
}

function permissionChips(t, permissions, branchName) {
  if (!permissions?.length) return h('span', { class: 'muted' }, t('company.tokens.noPermissions'));
  return h(
    'span',
    { class: 'chips' },
    permissions.map((p) =>
      h('span', { class: ['chip', 'chip-permission', `chip-${parsePermission(p).kind}`], title: p, dataset: { permission: p } }, permissionLabel(t, p, branchName)),
    ),
  );
}

export default async function tokensPage(ctx) {
  const { t } = ctx;
  const path = companyPath(ctx, 'access-tokens');
  const branches = await loadBranches(ctx);
  const branchNames = new Map(branches.map((b) => [b.id, b.name]));
  const branchName = (id) => branchNames.get(id) ?? null;
  let showRevoked = ctx.route.query.get('revoked') !== 'hide';
  // Every token, newest first; null after a write. The API lists oldest first without a filter, so the
  // pages are cut here from the whole list (a company holds tens of tokens; ctx.api.all stops at 1000).
  let tokens = null;

  // ---- the plaintext, shown once
  const secret = h('div', { id: 'new-token', class: 'new-token', 'aria-live': 'polite' });
  function showSecret(created) {
    mount(
      secret,
      h(
        'div',
        { class: 'note note-warning secret-note', role: 'status', dataset: { token: created.id } },
        icon(icons.key),
        h(
          'div',
          { class: 'secret-body' },
          h('p', null, h('strong', null, t('company.tokens.newTitle', { name: created.name }))),
          h('p', null, t('company.tokens.newText')),
          copyable(created.token, t, { what: t('company.tokens.token'), className: 'secret-value' }),
          h('div', null, button(t('company.tokens.done'), { variant: 'secondary', icon: icons.check, dataset: { action: 'dismiss-token' }, onclick: () => secret.replaceChildren() })),
        ),
      ),
    );
    secret.scrollIntoView({ block: 'nearest' });
    secret.querySelector('.btn-copy')?.focus();
  }

  // ---- create
  const createCard = card({ title: t('company.tokens.createTitle'), subtitle: t('company.tokens.createText'), id: 'create-token-card', hidden: true });
  let form = null;
  function openCreate() {
    if (!form) {
      form = tokenForm(ctx, {
        path,
        branches,
        onCancel: () => {
          createCard.hidden = true;
          form.reset();
        },
        onCreated(created) {
          createCard.hidden = true;
          showSecret(created);
          ctx.toast(t('company.tokens.created', { name: created.name }));
          tokens = null;
          ctx.setQuery({ skip: null });
          table.setSkip(0);
        },
      });
      createCard.append(form.element);
    }
    secret.replaceChildren();
    createCard.hidden = false;
    form.focus();
  }

  // ---- revoke
  async function revoke(token) {
    const ok = await confirmDialog({
      title: t('company.tokens.revokeTitle', { name: token.name }),
      text: t('company.tokens.revokeText'),
      confirmLabel: t('company.tokens.revoke'),
      cancelLabel: t('kit.cancel'),
      danger: true,
    });
    if (!ok) return;
    try {
      await ctx.api.del(companyPath(ctx, 'access-tokens', token.id));
    } catch (error) {
      ctx.reportError(error);
      return;
    }
    ctx.toast(t('company.tokens.revokeDone', { name: token.name }));
    tokens = null;
    table.reload();
  }

  // ---- list
  const columns = [
    { label: t('company.tokens.colName'), className: 'cell-token-name', render: (k) => h('span', { class: 'strong token-name' }, k.name) },
    { label: t('company.tokens.colPrefix'), className: 'cell-nowrap', render: (k) => mono(`${k.tokenPrefix}…`) },
    { label: t('company.tokens.colPermissions'), className: 'cell-permissions', render: (k) => permissionChips(t, k.permissions, branchName) },
    { label: t('company.tokens.colCreated'), className: 'cell-nowrap', render: (k) => timeAgo(k.createdAt) },
    {
      label: t('company.tokens.colLastUsed'),
      className: 'cell-nowrap',
      render: (k) => (k.lastUsedAt ? timeAgo(k.lastUsedAt) : h('span', { class: 'muted', dataset: { lastUsed: 'never' } }, t('company.tokens.never'))),
    },
    {
      label: t('company.tokens.colStatus'),
      className: 'cell-nowrap',
      render: (k) =>
        k.revokedAt
          ? h('span', { class: 'stack' }, pill(t('company.tokens.revoked'), 'neutral', { dataset: { status: 'revoked' } }), h('span', { class: 'cell-note' }, timeAgo(k.revokedAt)))
          : pill(t('company.tokens.active'), 'success', { dataset: { status: 'active' } }),
    },
    {
      label: t('company.tokens.colActions'),
      className: 'cell-actions',
      render: (k) =>
        k.revokedAt
          ? null
          : button(t('company.tokens.revoke'), {
              variant: 'ghost',
              className: 'btn-small',
              icon: icons.block,
              dataset: { action: 'revoke-token' },
              'aria-label': t('company.tokens.revokeTitle', { name: k.name }),
              onclick: () => revoke(k),
            }),
    },
  ];

  async function loadPage({ limit, skip, signal }) {
    if (!tokens) {
      const all = await ctx.api.all(path, { signal });
      tokens = all.sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
    }
    const shown = showRevoked ? tokens : tokens.filter((k) => !k.revokedAt);
    return { items: shown.slice(skip, skip + limit), total: shown.length };
  }

  let table;
  const tableSlot = h('div', { id: 'tokens-table' });
  // The empty state depends on the filter, so the table is made again when it changes.
  function showTable(skip) {
    table?.abort();
    table = pagedTable({
      t,
      skip,
      caption: t('company.tokens.listTitle'),
      load: loadPage,
      onPage: (s) => ctx.setQuery({ skip: s || null }),
      onError: (error) => ctx.reportError(error),
      rowAttrs: (k) => ({ dataset: { token: k.id, state: k.revokedAt ? 'revoked' : 'active' } }),
      empty: showRevoked
        ? {
            title: t('company.tokens.emptyTitle'),
            text: t('company.tokens.emptyText'),
            drawing: icons.key,
            action: button(t('company.tokens.new'), { icon: icons.plus, onclick: openCreate }),
          }
        : { title: t('company.tokens.noActiveTitle'), text: t('company.tokens.noActiveText'), drawing: icons.key },
      columns,
    });
    mount(tableSlot, table.element);
  }

  const revokedToggle = toggle({ name: 'showRevoked', checked: showRevoked, id: 'show-revoked' });
  revokedToggle.addEventListener('change', () => {
    showRevoked = revokedToggle.checked;
    ctx.setQuery({ revoked: showRevoked ? null : 'hide', skip: null });
    showTable(0);
  });

  const skip = Number.parseInt(ctx.route.query.get('skip') ?? '', 10);
  showTable(Number.isInteger(skip) && skip > 0 ? skip : 0);

  mount(
    ctx.root,
    pageHeader({
      title: t('company.tokens.title'),
      subtitle: t('company.tokens.subtitle'),
      actions: [button(t('company.tokens.new'), { icon: icons.plus, onclick: openCreate, dataset: { action: 'new-token' } })],
    }),
    secret,
    createCard,
    h(
      'div',
      { class: 'list-toolbar' },
      h('h2', { class: 'section-title' }, t('company.tokens.listTitle')),
      field({ label: t('company.tokens.showRevoked'), control: revokedToggle, className: 'revoked-filter' }).element,
    ),
    tableSlot,
  );
  if (ctx.route.query.get('new') !== null) openCreate();
  return () => table.abort();
}
