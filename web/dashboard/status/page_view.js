// A status page: its name, public address and Delete in the header, then tabs, each with its own address
// (/dashboard/{slug}/status/pages/{pageId}/{tab}; ctx.setPath, so Back returns to the previous tab):
// Components (with their checks), Incidents, Maintenance, Restart targets, Subscribers, SLA, Settings.
// A tab is drawn when first shown and kept while the page stays.
import { h, mount } from '../kit/dom.js';
import { icons } from '../kit/icons.js';
import { pageHeader } from '../kit/layout.js';
import { button, confirmDialog, emptyState, linkButton, tabPanels } from '../kit/ui.js';
import { pageHref, statusContext } from './common.js';
import componentsTab from './components.js';
import incidentsTab from './incidents.js';
import maintenanceTab from './maintenance.js';
import restartTargetsTab from './restart_targets.js';
import settingsTab from './page_settings.js';
import slaTab from './sla.js';
import subscribersTab from './subscribers.js';

const TABS = [
  ['components', componentsTab],
  ['incidents', incidentsTab],
  ['maintenance', maintenanceTab],
  ['restarts', restartTargetsTab],
  ['subscribers', subscribersTab],
  ['sla', slaTab],
  ['settings', settingsTab],
];

export default async function pageView(ctx, { pageId, tab }) {
  const { t } = ctx;
  const { api, paths } = statusContext(ctx);
  let page;
  try {
    page = await api.get(paths.page(pageId), { signal: ctx.signal });
  } catch (error) {
    if (error?.name === 'AbortError') throw error;
    if (error?.status === 404) {
      mount(
        ctx.root,
        pageHeader({ title: t('status.page.missingTitle'), back: { href: pageHref(ctx), label: t('status.pages.title') } }),
        emptyState({ title: t('status.page.missingTitle'), text: t('status.page.missingText'), drawing: icons.globe, action: linkButton(t('status.pages.title'), pageHref(ctx), { variant: 'secondary' }) }),
      );
      return undefined;
    }
    throw error;
  }
  ctx.setTitle(page.name);

  // The page's components, shared by the tabs that pick components (loaded once, dropped after a change).
  let components = null;
  const shared = {
    page,
    async components() {
      if (!components) components = api.all(paths.components(pageId), { signal: ctx.signal });
      try {
        return await components;
      } catch (error) {
        components = null;
        throw error;
      }
    },
    // Every check of the page with its component, for the restart targets' check picker.
    async checks() {
      const list = await shared.components();
      const out = [];
      for (const c of list) {
        for (const check of await api.all(paths.checks(pageId, c.id), { signal: ctx.signal })) out.push({ ...check, componentName: c.name });
      }
      return out;
    },
    componentsChanged() {
      components = null;
      for (const id of ['incidents', 'maintenance', 'restarts']) panels.invalidate(id);
    },
    pageChanged(next) {
      page = next;
      shared.page = next;
      title.textContent = next.branding?.displayName ?? next.name;
      publicLink.href = paths.publicPage(next.slug);
      subtitle.querySelector('code').textContent = paths.publicPage(next.slug);
      ctx.setTitle(next.name);
    },
  };

  async function remove() {
    const ok = await confirmDialog({
      title: t('status.page.deleteTitle', { name: page.name }),
      text: t('status.page.deleteText'),
      confirmLabel: t('status.delete'),
      cancelLabel: t('kit.cancel'),
      danger: true,
    });
    if (!ok) return;
    try {
      await api.del(paths.page(pageId));
    } catch (error) {
      ctx.reportError(error);
      return;
    }
    ctx.toast(t('status.page.deleted', { name: page.name }));
    ctx.navigate(pageHref(ctx), { force: true });
  }

  const selected = TABS.some(([id]) => id === tab) ? tab : 'components';
  const panels = tabPanels(
    TABS.map(([id, render]) => ({ id, label: t(`status.tab.${id}`), render: () => render(ctx, shared) })),
    selected,
    { label: t('status.page.tabs'), onChange: (id) => ctx.setPath(pageHref(ctx, pageId, id)) },
  );
  if (tab !== selected) ctx.setPath(pageHref(ctx, pageId, selected), { replace: true });

  const header = pageHeader({
    title: page.branding?.displayName ?? page.name,
    subtitle: null,
    back: { href: pageHref(ctx), label: t('status.pages.title') },
    actions: [
      linkButton(t('status.page.open'), paths.publicPage(page.slug), { variant: 'secondary', icon: icons.link, target: '_blank', rel: 'noopener', dataset: { action: 'open-public' } }),
      button(t('status.delete'), { variant: 'danger', icon: icons.trash, onclick: remove, dataset: { action: 'delete-page' } }),
    ],
  });
  const title = header.querySelector('.page-title');
  const publicLink = header.querySelector('[data-action="open-public"]');
  const subtitle = h('p', { class: 'page-subtitle' }, t('status.page.address'), ' ', h('code', { class: 'mono', dataset: { publicAddress: '' } }, paths.publicPage(page.slug)));
  header.querySelector('.page-titles').append(subtitle);
  mount(ctx.root, header, panels.element);
  return undefined;
}
