// One auth project: its header (name, slug, Delete) and its sections as tabs, each at its own address
// (/projects/{id}/{section}); a section is drawn when first opened and kept while the page stays, so unsaved
// settings survive a look at another tab.
import { h, mount } from '../kit/dom.js';
import { icons } from '../kit/icons.js';
import { pageHeader } from '../kit/layout.js';
import { button, emptyState, tabPanels } from '../kit/ui.js';
import { authPath } from './common.js';
import { keysSection, signingSection } from './keys.js';
import { overviewSection } from './overview.js';
import { deleteProject } from './projects.js';
import { providersSection } from './providers.js';
import { settingsSection } from './settings.js';
import { usersSection } from './users.js';

const SECTIONS = [
  ['overview', overviewSection],
  ['settings', settingsSection],
  ['keys', keysSection],
  ['signing', signingSection],
  ['users', usersSection],
  ['providers', providersSection],
];

export default async function showProject(ctx, projectId, section) {
  const { t } = ctx;
  const back = { href: ctx.href('projects'), label: t('auth.projects.title') };
  let project;
  try {
    project = await ctx.api.get(authPath(ctx, projectId), { signal: ctx.signal });
  } catch (error) {
    if (error.name === 'AbortError') return;
    if (error.status === 404) {
      mount(
        ctx.root,
        pageHeader({ title: t('auth.projects.notFound'), back }),
        emptyState({ title: t('auth.projects.notFound'), text: t('auth.projects.notFoundText'), drawing: icons.project }),
      );
      return;
    }
    ctx.reportError(error);
    mount(
      ctx.root,
      pageHeader({ title: t('auth.projects.title'), back }),
      emptyState({
        title: t('kit.table.failed'),
        drawing: icons.alert,
        action: button(t('kit.retry'), { variant: 'secondary', icon: icons.refresh, onclick: () => ctx.navigate(location.href, { replace: true }) }),
      }),
    );
    return;
  }
  if (ctx.signal.aborted) return;

  const cleanups = [];
  const header = h('div');
  const deleteButton = button(t('auth.projects.deleteProject'), {
    variant: 'danger-outline',
    icon: icons.trash,
    dataset: { action: 'delete-project' },
    onclick: async () => {
      if (await deleteProject(ctx, state.project)) ctx.navigate(ctx.href('projects'), { force: true });
    },
  });

  function drawHeader() {
    ctx.setTitle(state.project.name);
    mount(
      header,
      pageHeader({
        title: state.project.name,
        subtitle: h('span', { class: 'project-slug' }, h('code', { class: 'mono' }, state.project.slug)),
        back,
        actions: [deleteButton],
      }),
    );
  }

  // What the sections share: the project as last read or saved, and a way to say it changed.
  const watchers = [];
  const state = {
    project,
    setProject(next) {
      state.project = next;
      drawHeader();
      for (const fn of watchers) fn(next);
      // The overview shows the settings, and it and the signing keys show addresses that follow the slug.
      panels.invalidate('overview');
      panels.invalidate('signing');
    },
    onCleanup: (fn) => cleanups.push(fn),
    // fn(project) after every save of the settings, for sections that show one of them.
    watch: (fn) => watchers.push(fn),
    selectTab: (id) => {
      panels.select(id);
      ctx.setPath(ctx.href('projects', projectId, id));
    },
  };

  const known = SECTIONS.some(([id]) => id === section);
  const panels = tabPanels(
    SECTIONS.map(([id, render]) => ({ id, label: t(`auth.tab.${id}`), render: () => render(ctx, state) })),
    known ? section : 'overview',
    {
      label: t('auth.project.tabs'),
      className: 'project-tabs',
      onChange: (id) => ctx.setPath(ctx.href('projects', projectId, id)),
    },
  );
  if (section && !known) ctx.setPath(ctx.href('projects', projectId), { replace: true });

  drawHeader();
  mount(ctx.root, header, panels.element);
  return () => cleanups.forEach((fn) => fn());
}
