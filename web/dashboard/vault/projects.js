// Env vault > Vault projects (docs/env-vault.md, "Management API"). Without a project id: the list and a
// create form. With one (/vault/projects/{id}[/{env}]): the environments as tabs; for the chosen one its
// versions (newest first, with the key names each changed, a diff against the current version, and Roll back
// with a confirmation); and the project's env tokens (create shows the plaintext once, revoke asks first).
// Values never reach this page: the management API has none to give.
import { copyable } from '../kit/clipboard.js';
import { h, icon, mount } from '../kit/dom.js';
import { createForm, input, select } from '../kit/form.js';
import { icons } from '../kit/icons.js';
import { pageHeader } from '../kit/layout.js';
import { listTable } from '../kit/table.js';
import { button, card, confirmDialog, mono, pill, tabs, timeAgo } from '../kit/ui.js';

function apiPath(ctx, ...parts) {
  return `/api/companies/${encodeURIComponent(ctx.company.slug)}/env-vault/${parts.map((p) => encodeURIComponent(String(p))).join('/')}`;
}

function keyList(names, kind) {
  return names.map((k) => h('span', { class: ['vault-key', `vault-key-${kind}`], dataset: { key: k, change: kind } }, k));
}

function changeCell(t, v) {
  const all = [...keyList(v.added ?? [], 'added'), ...keyList(v.removed ?? [], 'removed'), ...keyList(v.changed ?? [], 'changed')];
  return all.length ? h('span', { class: 'vault-keys' }, all) : h('span', { class: 'muted' }, t('vault.versions.noChanges'));
}

async function projectList(ctx) {
  const { t } = ctx;
  const createCard = card({ title: t('vault.projects.createTitle'), id: 'create-project-card', hidden: true });
  const form = createForm({
    t,
    id: 'create-project',
    submitLabel: t('vault.projects.create'),
    submitIcon: icons.plus,
    busyLabel: t('vault.projects.creating'),
    fields: [
      { name: 'name', label: t('vault.projects.name'), required: true, control: input({ name: 'name', autocomplete: 'off', maxlength: 100 }) },
      { name: 'environments', label: t('vault.projects.environments'), hint: t('vault.projects.environmentsHint'), control: input({ name: 'environments', autocomplete: 'off' }) },
    ],
    fieldOf: (error) => (/environment/.test(error.message) ? 'environments' : /'name'/.test(error.message) ? 'name' : null),
    actions: [button(t('kit.cancel'), { variant: 'ghost', onclick: () => (createCard.hidden = true) })],
    async onSubmit({ name, environments }) {
      const envs = environments.split(',').map((e) => e.trim()).filter(Boolean);
      const created = await ctx.api.post(apiPath(ctx, 'projects'), { name: name.trim(), ...(envs.length ? { environments: envs } : {}) });
      form.reset();
      createCard.hidden = true;
      ctx.toast(t('vault.projects.created', { name: created.name }));
      ctx.navigate(ctx.href('projects', created.id));
    },
  });
  createCard.append(form.element);
  const openCreate = () => {
    createCard.hidden = false;
    form.fields.name.control.focus();
  };
  const table = listTable({
    t,
    caption: t('vault.projects.title'),
    load: ({ signal }) => ctx.api.all(apiPath(ctx, 'projects'), { signal }),
    onError: (error) => ctx.reportError(error),
    rowLink: (p) => ctx.href('projects', p.id),
    rowAttrs: (p) => ({ dataset: { project: p.id } }),
    empty: { title: t('vault.projects.emptyTitle'), text: t('vault.projects.emptyText'), drawing: icons.lock, action: button(t('vault.projects.new'), { icon: icons.plus, onclick: openCreate }) },
    columns: [
      { label: t('vault.projects.colName'), primary: true, render: (p) => h('span', { class: 'strong' }, p.name) },
      { label: t('vault.projects.colEnvironments'), render: (p) => h('span', { class: 'vault-keys' }, p.environments.map((e) => pill(`${e.name} · v${e.version}`, 'neutral'))) },
      { label: t('vault.projects.colCreated'), className: 'cell-nowrap', render: (p) => timeAgo(p.createdAt) },
    ],
  });
  mount(
    ctx.root,
    pageHeader({
      title: t('vault.projects.title'),
      subtitle: t('vault.projects.subtitle'),
      actions: [button(t('vault.projects.new'), { icon: icons.plus, onclick: openCreate, dataset: { action: 'new-project' } })],
    }),
    createCard,
    table.element,
  );
  return () => table.abort();
}

function versionsCard(ctx, project, env, onChanged) {
  const { t } = ctx;
  const diffSlot = h('div', { class: 'vault-diff', id: 'vault-diff', 'aria-live': 'polite' });
  const envPath = ['projects', project.id, 'environments', env.name];

  async function showDiff(v) {
    try {
      const d = await ctx.api.get(`${apiPath(ctx, ...envPath, 'diff')}?from=${v.version}&to=${env.version}`);
      const same = !d.added.length && !d.removed.length && !d.changed.length;
      mount(
        diffSlot,
        card(
          { title: t('vault.diff.title', { from: d.from, to: d.to }), dataset: { diff: `${d.from}-${d.to}` } },
          same
            ? h('p', { class: 'muted' }, t('vault.diff.same'))
            : h(
                'dl',
                { class: 'details' },
                [['added', d.added], ['removed', d.removed], ['changed', d.changed]].flatMap(([kind, names]) =>
                  names.length ? [h('dt', null, t(`vault.diff.${kind}`)), h('dd', { class: 'vault-keys' }, keyList(names, kind))] : [],
                ),
              ),
        ),
      );
    } catch (error) {
      ctx.reportError(error);
    }
  }

  async function rollback(v) {
    const ok = await confirmDialog({
      title: t('vault.versions.rollbackTitle', { env: env.name, version: v.version }),
      text: t('vault.versions.rollbackText', { version: v.version }),
      confirmLabel: t('vault.versions.rollbackTo'),
      cancelLabel: t('kit.cancel'),
      danger: true,
    });
    if (!ok) return;
    try {
      const done = await ctx.api.post(apiPath(ctx, ...envPath, 'rollback'), { version: v.version, baseVersion: env.version });
      ctx.toast(t('vault.versions.rolledBack', { version: done.version }));
      onChanged();
    } catch (error) {
      ctx.reportError(error);
    }
  }

  const table = listTable({
    t,
    caption: t('vault.versions.title'),
    load: ({ signal }) => ctx.api.all(apiPath(ctx, ...envPath, 'versions'), { signal }),
    onError: (error) => ctx.reportError(error),
    rowAttrs: (v) => ({ dataset: { version: String(v.version) } }),
    empty: { title: t('vault.versions.emptyTitle'), text: t('vault.versions.emptyText'), drawing: icons.clock },
    columns: [
      { label: t('vault.versions.colVersion'), className: 'cell-nowrap', render: (v) => h('span', { class: 'strong' }, `v${v.version}`) },
      { label: t('vault.versions.colWhen'), className: 'cell-nowrap', render: (v) => timeAgo(v.at) },
      {
        label: t('vault.versions.colKind'),
        className: 'cell-nowrap',
        render: (v) => (v.kind === 'rollback' ? pill(t('vault.versions.rollback', { version: v.rolledBackTo }), 'info') : pill(t('vault.versions.push'), 'neutral')),
      },
      { label: t('vault.versions.colChanges'), render: (v) => changeCell(t, v) },
      {
        label: t('vault.versions.colActions'),
        className: 'cell-actions',
        render: (v) =>
          v.version === env.version
            ? null
            : h(
                'span',
                { class: 'vault-keys' },
                button(t('vault.versions.diff'), { variant: 'ghost', className: 'btn-small', dataset: { action: 'diff' }, onclick: () => showDiff(v) }),
                button(t('vault.versions.rollbackTo'), { variant: 'ghost', className: 'btn-small', icon: icons.refresh, dataset: { action: 'rollback' }, onclick: () => rollback(v) }),
              ),
      },
    ],
  });
  return { element: card({ title: t('vault.versions.title'), id: 'versions-card' }, table.element, diffSlot), abort: () => table.abort() };
}

function tokensCard(ctx, project, envName) {
  const { t } = ctx;
  const path = apiPath(ctx, 'projects', project.id, 'tokens');
  const secret = h('div', { id: 'new-env-token', 'aria-live': 'polite' });
  const form = createForm({
    t,
    id: 'create-env-token',
    submitLabel: t('vault.tokens.create'),
    submitIcon: icons.plus,
    busyLabel: t('vault.tokens.creating'),
    fields: [
      { name: 'name', label: t('vault.tokens.name'), required: true, control: input({ name: 'name', autocomplete: 'off', maxlength: 100 }) },
      {
        name: 'environment',
        label: t('vault.project.environment'),
        control: select({ name: 'environment', value: envName, options: project.environments.map((e) => ({ value: e.name, label: e.name })) }),
      },
      {
        name: 'access',
        label: t('vault.tokens.access'),
        control: select({ name: 'access', value: 'full', options: ['full', 'read', 'public'].map((a) => ({ value: a, label: t(`vault.tokens.access.${a}`) })) }),
      },
    ],
    layout: (w) => [h('div', { class: 'grid-3' }, w.name.element, w.environment.element, w.access.element)],
    async onSubmit({ name, environment, access }) {
      const created = await ctx.api.post(path, { name: name.trim(), environment, access });
      form.reset();
      mount(
        secret,
        h(
          'div',
          { class: 'note note-warning secret-note', role: 'status', dataset: { token: created.id } },
          icon(icons.key),
          h(
            'div',
            { class: 'secret-body' },
            h('p', null, h('strong', null, t('vault.tokens.newTitle', { name: created.name }))),
            h('p', null, t('vault.tokens.newText')),
            copyable(created.token, t, { what: t('vault.tokens.token'), className: 'secret-value' }),
            h('div', null, button(t('vault.tokens.done'), { variant: 'secondary', icon: icons.check, dataset: { action: 'dismiss-token' }, onclick: () => secret.replaceChildren() })),
          ),
        ),
      );
      table.reload();
    },
  });

  async function revoke(k) {
    const ok = await confirmDialog({
      title: t('vault.tokens.revokeTitle', { name: k.name }),
      text: t('vault.tokens.revokeText'),
      confirmLabel: t('vault.tokens.revoke'),
      cancelLabel: t('kit.cancel'),
      danger: true,
    });
    if (!ok) return;
    try {
      await ctx.api.del(`${path}/${encodeURIComponent(k.id)}`);
      ctx.toast(t('vault.tokens.revokeDone', { name: k.name }));
      table.reload();
    } catch (error) {
      ctx.reportError(error);
    }
  }

  const table = listTable({
    t,
    caption: t('vault.tokens.title'),
    load: ({ signal }) => ctx.api.all(path, { signal }),
    onError: (error) => ctx.reportError(error),
    rowAttrs: (k) => ({ dataset: { token: k.id, state: k.revokedAt ? 'revoked' : 'active' } }),
    empty: { title: t('vault.tokens.emptyTitle'), text: t('vault.tokens.emptyText'), drawing: icons.key },
    columns: [
      { label: t('vault.tokens.colName'), render: (k) => h('span', { class: 'strong' }, k.name) },
      { label: t('vault.tokens.colEnvironment'), render: (k) => k.environment },
      { label: t('vault.tokens.colAccess'), render: (k) => t(`vault.tokens.access.${k.access}`) },
      { label: t('vault.tokens.colPrefix'), className: 'cell-nowrap', render: (k) => mono(`${k.tokenPrefix}…`) },
      { label: t('vault.tokens.colLastUsed'), className: 'cell-nowrap', render: (k) => (k.lastUsedAt ? timeAgo(k.lastUsedAt) : h('span', { class: 'muted' }, t('vault.tokens.never'))) },
      {
        label: t('vault.tokens.colStatus'),
        className: 'cell-nowrap',
        render: (k) =>
          k.revokedAt
            ? pill(t('vault.tokens.revoked'), 'neutral', { dataset: { status: 'revoked' } })
            : h(
                'span',
                { class: 'vault-keys' },
                pill(t('vault.tokens.active'), 'success', { dataset: { status: 'active' } }),
                button(t('vault.tokens.revoke'), { variant: 'ghost', className: 'btn-small', icon: icons.block, dataset: { action: 'revoke-token' }, onclick: () => revoke(k) }),
              ),
      },
    ],
  });
  return { element: card({ title: t('vault.tokens.title'), id: 'env-tokens-card' }, secret, form.element, table.element), abort: () => table.abort() };
}

async function projectPage(ctx, projectId, envName) {
  const { t } = ctx;
  let cleanup = [];
  async function draw() {
    cleanup.forEach((f) => f());
    cleanup = [];
    const project = await ctx.api.get(apiPath(ctx, 'projects', projectId), { signal: ctx.signal });
    const env = project.environments.find((e) => e.name === envName) ?? project.environments.find((e) => e.name === 'production') ?? project.environments[0];
    ctx.setTitle?.(project.name);
    const envTabs = tabs(
      project.environments.map((e) => ({ id: e.name, label: `${e.name} · v${e.version}` })),
      env?.name,
      (id) => ctx.navigate(ctx.href('projects', project.id, id)),
      { label: t('vault.project.environment'), className: 'vault-env-tabs' },
    );
    const versions = env ? versionsCard(ctx, project, env, draw) : null;
    const tokens = tokensCard(ctx, project, env?.name ?? '');
    cleanup.push(() => versions?.abort(), () => tokens.abort());
    mount(
      ctx.root,
      pageHeader({
        title: project.name,
        subtitle: env ? `${env.name} · ${t('vault.project.version', { version: env.version })}` : null,
        back: { href: ctx.href('projects'), label: t('vault.project.back') },
      }),
      envTabs.element ?? envTabs,
      versions?.element,
      tokens.element,
    );
  }
  await draw();
  return () => cleanup.forEach((f) => f());
}

export default async function vaultProjects(ctx) {
  const [projectId, envName] = ctx.route.rest;
  if (projectId) return projectPage(ctx, projectId, envName);
  return projectList(ctx);
}
