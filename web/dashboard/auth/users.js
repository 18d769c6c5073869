// A project's Users: search (email or name, `?q=`, kept in the address), paged, with their badges; a row
// opens the user's page (user.js).
import { h, mount } from '../kit/dom.js';
import { createForm, input } from '../kit/form.js';
import { icons } from '../kit/icons.js';
import { pagedTable } from '../kit/table.js';
import { button, card, timeAgo } from '../kit/ui.js';
import { authPath, userBadges } from './common.js';

export function usersSection(ctx, state) {
  const { t } = ctx;
  const pid = state.project.id;
  let q = ctx.route.query.get('q') ?? '';
  let table = null;
  const slot = h('div', { id: 'users-table' });

  function showTable(skip) {
    table?.abort();
    table = pagedTable({
      t,
      skip,
      caption: t('auth.tab.users'),
      load: ({ limit, skip: s, signal }) => ctx.api.list(authPath(ctx, pid, 'users'), { limit, skip: s, signal, query: { q } }),
      onPage: (s) => ctx.setQuery({ skip: s || null }),
      onError: (error) => ctx.reportError(error),
      rowLink: (u) => ctx.href('projects', pid, 'users', u.id),
      rowAttrs: (u) => ({ dataset: { user: u.email } }),
      empty: q
        ? {
            title: t('auth.users.noMatch', { q }),
            text: t('auth.users.noMatchText'),
            drawing: icons.search,
            action: button(t('auth.users.clear'), { variant: 'secondary', onclick: () => search('') }),
          }
        : { title: t('auth.users.emptyTitle'), text: t('auth.users.emptyText'), drawing: icons.users },
      columns: [
        { label: t('auth.users.colEmail'), primary: true, className: 'cell-email', render: (u) => u.email },
        { label: t('auth.users.colName'), render: (u) => u.name || h('span', { class: 'muted' }, '—') },
        { label: t('auth.users.colStatus'), render: (u) => userBadges(t, u) },
        { label: t('auth.users.colCreated'), className: 'cell-nowrap', render: (u) => timeAgo(u.createdAt) },
        {
          label: t('auth.users.colLastSignIn'),
          className: 'cell-nowrap',
          render: (u) => (u.lastSignInAt ? timeAgo(u.lastSignInAt) : h('span', { class: 'muted' }, t('auth.users.never'))),
        },
      ],
    });
    mount(slot, table.element);
  }

  const searchInput = input({
    name: 'q',
    type: 'search',
    value: q,
    autocomplete: 'off',
    placeholder: t('auth.users.searchPlaceholder'),
  });
  const form = createForm({
    t,
    inline: true,
    id: 'user-search',
    className: 'search-form',
    submitLabel: t('auth.users.search'),
    submitIcon: icons.search,
    busyLabel: t('auth.users.search'),
    fields: [{ name: 'q', label: t('auth.users.searchLabel'), control: searchInput }],
    actions: [button(t('auth.users.clear'), { variant: 'ghost', dataset: { action: 'clear-search' }, onclick: () => search('') })],
    async onSubmit(values) {
      search(values.q.trim());
    },
  });

  function search(text) {
    q = text;
    searchInput.value = text;
    ctx.setQuery({ q: text || null, skip: null });
    showTable(0);
  }

  showTable(Number.parseInt(ctx.route.query.get('skip') ?? '0', 10) || 0);
  state.onCleanup(() => table?.abort());
  return h('div', null, card({ className: 'filters-card' }, form.element), slot);
}
