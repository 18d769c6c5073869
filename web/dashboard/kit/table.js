// Tables: a plain one over rows in hand, and a paged one that loads each page from a list endpoint
// (limit/skip, X-Total-Count). Both show an empty state instead of an empty table. On narrow screens the rows
// turn into stacked cards: each cell carries its column's label (kit.css).
import { describeError } from './api.js';
import { append, h, icon, mount } from './dom.js';
import { icons } from './icons.js';
import { button, emptyState, loadingBlock } from './ui.js';

// columns: [{ label, render(row) -> node or text, className, primary }]. `rowLink(row)`: a URL the whole row
// opens (the cell marked `primary` holds the real link, for keyboards and screen readers).
export function dataTable({ columns, rows, empty, caption, rowLink, rowAttrs, className }) {
  if (!rows.length) return h('div', { class: 'table-empty' }, emptyState(empty));
  const body = h('tbody');
  for (const row of rows) {
    const link = rowLink ? rowLink(row) : null;
    const tr = h('tr', { ...(rowAttrs ? rowAttrs(row) : {}), class: [link && 'row-link'] });
    for (const column of columns) {
      let content = column.render(row);
      if (column.primary && link) content = h('a', { href: link, class: 'row-anchor' }, content);
      tr.append(h('td', { class: column.className, dataset: { label: column.label } }, content));
    }
    if (link) {
      tr.addEventListener('click', (event) => {
        if (event.target.closest('a, button, input, select, textarea, label')) return;
        if (window.getSelection()?.toString()) return; // selecting text is not a click
        tr.querySelector('a.row-anchor')?.click();
      });
    }
    body.append(tr);
  }
  return h(
    'div',
    { class: ['table-wrap', className] },
    h(
      'table',
      { class: 'table' },
      caption ? h('caption', { class: 'sr-only' }, caption) : null,
      h('thead', null, h('tr', null, columns.map((c) => h('th', { scope: 'col', class: c.className }, c.label)))),
      body,
    ),
  );
}

// `1–50 of 120` with Previous and Next.
export function pager({ t, skip, limit, total, count, onPage }) {
  if (total <= limit && skip === 0) return null;
  const first = total === 0 ? 0 : skip + 1;
  const last = skip + count;
  return h(
    'nav',
    { class: 'pager', 'aria-label': t('kit.table.range', { first, last, total }) },
    h('span', { class: 'pager-range' }, t('kit.table.range', { first: t.number(first), last: t.number(last), total: t.number(total) })),
    h(
      'div',
      { class: 'pager-buttons' },
      button(t('kit.table.previous'), {
        variant: 'secondary',
        icon: icons.left,
        disabled: skip === 0,
        dataset: { page: 'previous' },
        onclick: () => onPage(Math.max(0, skip - limit)),
      }),
      append(
        button(t('kit.table.next'), {
          variant: 'secondary',
          disabled: last >= total,
          dataset: { page: 'next' },
          onclick: () => onPage(skip + limit),
        }),
        icon(icons.right),
      ),
    ),
  );
}

// The place of a list that could not be loaded, with Try again. Not allowed is not worth retrying: it says
// so instead (the other failures are also in the banner, through the caller's onError).
function loadFailed(t, error, retry) {
  const forbidden = error?.status === 403;
  return h(
    'div',
    { class: 'table-failed', role: 'alert', dataset: { status: error?.status ?? '' } },
    icon(icons.alert),
    h('span', null, forbidden ? describeError(error, t) : t('kit.table.failed')),
    forbidden ? null : button(t('kit.retry'), { variant: 'secondary', icon: icons.refresh, onclick: retry }),
  );
}

// A table over a list endpoint that answers everything at once (no paging): the same loading, empty and
// failed states as pagedTable. load({signal}) -> items. Answers { element, reload(), abort(), rows() }.
export function listTable({ t, columns, load, empty, caption, rowLink, rowAttrs, onError, onLoad, className }) {
  const element = h('div', { class: ['paged', className], 'aria-busy': 'true' }, loadingBlock(t('kit.table.loading')));
  let controller = null;
  let rows = [];

  async function show() {
    controller?.abort();
    controller = new AbortController();
    const { signal } = controller;
    element.setAttribute('aria-busy', 'true');
    element.classList.add('is-loading');
    let items;
    try {
      items = await load({ signal });
    } catch (error) {
      if (error?.name === 'AbortError' || signal.aborted) return;
      element.classList.remove('is-loading');
      element.setAttribute('aria-busy', 'false');
      element.replaceChildren(loadFailed(t, error, show));
      if (error?.status !== 403) onError?.(error);
      return;
    }
    if (signal.aborted) return;
    rows = Array.isArray(items) ? items : [];
    element.classList.remove('is-loading');
    element.setAttribute('aria-busy', 'false');
    mount(element, dataTable({ columns, rows, empty, caption, rowLink, rowAttrs }));
    onLoad?.(rows);
  }

  show();
  return { element, reload: show, abort: () => controller?.abort(), rows: () => rows };
}

// A table over a list endpoint. load({limit, skip, signal}) -> {items, total}. `skip` starts the first page
// (from the URL, say); onPage(skip) is told of every page change (to put it back into the URL). Answers
// { element, reload(), setSkip(skip) }. `onError(error)` is called with a load failure (the banner);
// the table then shows a retry button.
export function pagedTable({ t, columns, load, limit = 50, skip = 0, empty, caption, rowLink, rowAttrs, onPage, onError, onLoad }) {
  const element = h('div', { class: 'paged', 'aria-busy': 'true' }, loadingBlock(t('kit.table.loading')));
  let current = skip;
  let controller = null;

  async function show(nextSkip) {
    controller?.abort();
    controller = new AbortController();
    const { signal } = controller;
    current = nextSkip;
    element.setAttribute('aria-busy', 'true');
    element.classList.add('is-loading');
    let page;
    try {
      page = await load({ limit, skip: nextSkip, signal });
    } catch (error) {
      if (error?.name === 'AbortError' || signal.aborted) return;
      element.classList.remove('is-loading');
      element.setAttribute('aria-busy', 'false');
      element.replaceChildren(loadFailed(t, error, () => show(current)));
      if (error?.status !== 403) onError?.(error);
      return;
    }
    if (signal.aborted) return;
    // A page past the end (rows removed meanwhile): go back to the last page that has rows.
    if (!page.items.length && nextSkip > 0 && page.total > 0) {
      show(Math.max(0, Math.floor((page.total - 1) / limit) * limit));
      return;
    }
    element.classList.remove('is-loading');
    element.setAttribute('aria-busy', 'false');
    mount(
      element,
      dataTable({ columns, rows: page.items, empty, caption, rowLink, rowAttrs }),
      pager({
        t,
        skip: nextSkip,
        limit,
        total: page.total,
        count: page.items.length,
        onPage: (s) => {
          onPage?.(s);
          show(s);
        },
      }),
    );
    onLoad?.(page);
  }

  show(current);
  return {
    element,
    reload: () => show(current),
    setSkip: (s) => show(s),
    abort: () => controller?.abort(),
  };
}
