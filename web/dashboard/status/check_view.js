// A check (/dashboard/{slug}/status/pages/{pageId}/checks/{componentId}/{checkId}): its state now (status,
// last latency, last checked, failures in a row), the recent results the probe worker wrote (newest first,
// refreshed every 15 s and by Refresh), its settings (the form, saved with PATCH) and Delete (asks first:
// its results go with it). `.../checks/{componentId}/new` is the form of a new check of that component.
import { h, mount } from '../kit/dom.js';
import { icons } from '../kit/icons.js';
import { pageHeader } from '../kit/layout.js';
import { dataTable } from '../kit/table.js';
import { button, card, confirmDialog, details, emptyState, linkButton, mono, timeAgo, absoluteTime } from '../kit/ui.js';
import { loadInto, pageHref, statusContext, statusPill } from './common.js';
import { checkForm } from './check_form.js';

const RESULTS_LIMIT = 50;
const REFRESH_MS = 15_000;

export default async function checkView(ctx, { pageId, componentId, checkId }) {
  const { t } = ctx;
  const { api, paths } = statusContext(ctx);
  const back = { href: pageHref(ctx, pageId, 'components'), label: t('status.tab.components') };
  let page;
  let component;
  let check = null;
  try {
    [page, component] = await Promise.all([api.get(paths.page(pageId), { signal: ctx.signal }), api.get(paths.component(pageId, componentId), { signal: ctx.signal })]);
    if (checkId !== 'new') check = await api.get(paths.check(pageId, componentId, checkId), { signal: ctx.signal });
  } catch (error) {
    if (error?.name === 'AbortError') throw error;
    if (error?.status === 404) {
      mount(
        ctx.root,
        pageHeader({ title: t('status.checks.missingTitle'), back }),
        emptyState({ title: t('status.checks.missingTitle'), text: t('status.checks.missingText'), drawing: icons.shield, action: linkButton(back.label, back.href, { variant: 'secondary' }) }),
      );
      return undefined;
    }
    throw error;
  }
  const pageName = page.branding?.displayName ?? page.name;

  // ---- a new check
  if (!check) {
    ctx.setTitle(t('status.checks.newTitle'));
    const form = checkForm(ctx, {
      actions: [linkButton(t('kit.cancel'), back.href, { variant: 'secondary' })],
      async onSubmit(body) {
        const created = await api.post(paths.checks(pageId, componentId), body, { signal: ctx.signal });
        ctx.setDirty(false);
        ctx.toast(t('status.checks.created', { name: created.name }));
        ctx.navigate(pageHref(ctx, pageId, 'checks', componentId, created.id), { replace: true });
      },
    });
    mount(
      ctx.root,
      pageHeader({ title: t('status.checks.newTitle'), subtitle: t('status.checks.newText', { component: component.name, page: pageName }), back }),
      card({ className: 'check-form-card' }, form.element),
    );
    form.fields.name.control.focus();
    return undefined;
  }

  // ---- an existing check
  ctx.setTitle(check.name);
  const summary = h('div', { class: 'check-summary', id: 'check-summary' });
  function drawSummary() {
    mount(
      summary,
      details([
        [t('status.checks.status'), statusPill(t, check.status, { id: 'check-status' })],
        [t('status.checks.target'), h('span', null, mono(check.method), ' ', h('span', { class: 'url' }, check.url))],
        [t('status.checks.latency'), check.lastLatencyMs === null || check.lastLatencyMs === undefined ? '—' : t('status.ms', { n: t.number(check.lastLatencyMs) })],
        [t('status.checks.lastChecked'), check.lastCheckedAt ? timeAgo(check.lastCheckedAt) : t('status.checks.never')],
        [t('status.checks.failures'), t.number(check.consecutiveFailures ?? 0)],
      ]),
    );
  }
  drawSummary();

  const resultsSlot = h('div', { id: 'check-results', class: 'check-results' });
  function resultsTable(results) {
    return dataTable({
      caption: t('status.results.title'),
      rows: results,
      rowAttrs: (r) => ({ dataset: { result: r.at, state: r.status } }),
      empty: { title: t('status.results.emptyTitle'), text: t('status.results.emptyText', { n: check.intervalSeconds }), drawing: icons.clock },
      columns: [
        { label: t('status.results.at'), className: 'cell-nowrap', render: (r) => absoluteTime(r.at, { seconds: true }) },
        { label: t('status.results.status'), className: 'cell-nowrap', render: (r) => statusPill(t, r.status) },
        { label: t('status.results.reason'), render: (r) => (t.has(`status.reason.${r.reason}`) ? t(`status.reason.${r.reason}`) : r.reason) },
        { label: t('status.results.httpStatus'), className: 'cell-nowrap', render: (r) => (r.httpStatus === null || r.httpStatus === undefined ? h('span', { class: 'muted' }, '—') : mono(String(r.httpStatus))) },
        { label: t('status.results.latency'), className: 'cell-nowrap cell-number', render: (r) => t('status.ms', { n: t.number(r.latencyMs ?? 0) }) },
      ],
    });
  }
  let first = true;
  async function loadResults() {
    // The check too: its summary follows the newest result.
    const [next, results] = await Promise.all([
      api.get(paths.check(pageId, componentId, checkId), { signal: ctx.signal }),
      api.get(paths.checkResults(pageId, componentId, checkId), { query: { limit: RESULTS_LIMIT }, signal: ctx.signal }),
    ]);
    check = { ...check, ...next };
    drawSummary();
    return results;
  }
  // A refresh keeps the table in place (no loading flash); the first load shows the loading state.
  async function refresh() {
    if (first) return;
    try {
      const results = await loadResults();
      if (!ctx.signal.aborted) resultsSlot.replaceChildren(resultsTable(results));
    } catch (error) {
      if (error?.name !== 'AbortError') ctx.reportError(error);
    }
  }
  loadInto(ctx, resultsSlot, {
    load: async () => {
      const r = await loadResults();
      first = false;
      return r;
    },
    render: resultsTable,
    loadingText: t('status.results.loading'),
  });
  const timer = setInterval(refresh, REFRESH_MS);

  const form = checkForm(ctx, {
    check,
    async onSubmit(body) {
      const saved = await api.patch(paths.check(pageId, componentId, checkId), body, { signal: ctx.signal });
      check = { ...check, ...saved };
      ctx.setDirty(false);
      drawSummary();
      title.textContent = saved.name;
      ctx.toast(t('status.checks.saved', { name: saved.name }));
    },
  });

  async function remove() {
    const ok = await confirmDialog({
      title: t('status.checks.deleteTitle', { name: check.name }),
      text: t('status.checks.deleteText'),
      confirmLabel: t('status.delete'),
      cancelLabel: t('kit.cancel'),
      danger: true,
    });
    if (!ok) return;
    try {
      await api.del(paths.check(pageId, componentId, checkId));
    } catch (error) {
      ctx.reportError(error);
      return;
    }
    ctx.toast(t('status.checks.deleted', { name: check.name }));
    ctx.navigate(back.href, { force: true });
  }

  const header = pageHeader({
    title: check.name,
    subtitle: t('status.checks.of', { component: component.name, page: pageName }),
    back,
    actions: [button(t('status.delete'), { variant: 'danger', icon: icons.trash, onclick: remove, dataset: { action: 'delete-check' } })],
  });
  const title = header.querySelector('.page-title');
  mount(
    ctx.root,
    header,
    h(
      'div',
      { class: 'check-layout' },
      card({ title: t('status.checks.now'), className: 'check-now-card' }, summary),
      card(
        {
          title: t('status.results.title'),
          subtitle: t('status.results.text', { n: RESULTS_LIMIT }),
          className: 'check-results-card',
          actions: [button(t('status.refresh'), { variant: 'secondary', className: 'btn-small', icon: icons.refresh, dataset: { action: 'refresh-results' }, onclick: refresh })],
        },
        resultsSlot,
      ),
      card({ title: t('status.checks.settings'), className: 'check-settings-card' }, form.element),
    ),
  );
  return () => clearInterval(timer);
}
