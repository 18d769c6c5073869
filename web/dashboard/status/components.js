// A page's Components tab: the components in display order, each a card with its checks (status, URL,
// method, interval, last latency, last checked; a row opens the check), Add check, Rename (inline), Move
// up / down (rewrites `order` of the components that moved) and Delete (asks first: its checks and results
// go with it). Add component at the top.
import { h, mount } from '../kit/dom.js';
import { createForm, input } from '../kit/form.js';
import { icons } from '../kit/icons.js';
import { dataTable } from '../kit/table.js';
import { button, card, confirmDialog, emptyState, linkButton, mono, timeAgo } from '../kit/ui.js';
import { fieldOfError, loadInto, pageHref, statusContext, statusPill } from './common.js';

export default function componentsTab(ctx, shared) {
  const { t } = ctx;
  const { api, paths } = statusContext(ctx);
  const pageId = shared.page.id;
  const slot = h('div', { class: 'components-list', id: 'components-list' });

  // ---- add
  const nameInput = input({ name: 'name', autocomplete: 'off', maxlength: 200, placeholder: t('status.components.namePlaceholder') });
  const addForm = createForm({
    t,
    id: 'add-component-form',
    inline: true,
    submitLabel: t('status.components.add'),
    submitIcon: icons.plus,
    fields: [{ name: 'name', label: t('status.components.name'), control: nameInput, required: true }],
    fieldOf: (error) => fieldOfError(error),
    async onSubmit(values) {
      const created = await api.post(paths.components(pageId), { name: values.name.trim() }, { signal: ctx.signal });
      addForm.reset();
      ctx.toast(t('status.components.added', { name: created.name }));
      changed();
    },
  });

  function changed() {
    shared.componentsChanged();
    reload();
  }

  // ---- one component
  function renameForm(component, box) {
    const control = input({ name: 'name', value: component.name, maxlength: 200 });
    const form = createForm({
      t,
      inline: true,
      className: 'rename-form',
      submitLabel: t('status.save'),
      fields: [{ name: 'name', label: t('status.components.name'), control, required: true }],
      actions: [button(t('kit.cancel'), { variant: 'secondary', onclick: () => box.replaceChildren() })],
      fieldOf: (error) => fieldOfError(error),
      async onSubmit(values) {
        await api.patch(paths.component(pageId, component.id), { name: values.name.trim() }, { signal: ctx.signal });
        ctx.toast(t('status.components.renamed', { name: values.name.trim() }));
        changed();
      },
    });
    box.replaceChildren(form.element);
    control.focus();
    control.select();
  }

  async function move(list, index, step) {
    const next = [...list];
    const [item] = next.splice(index, 1);
    next.splice(index + step, 0, item);
    try {
      // Orders become 0..n-1 in the new sequence; only the components whose order differs are written.
      for (const [i, c] of next.entries()) {
        if (c.order !== i) await api.patch(paths.component(pageId, c.id), { order: i }, { signal: ctx.signal });
      }
    } catch (error) {
      ctx.reportError(error);
    }
    changed();
  }

  async function remove(component) {
    const ok = await confirmDialog({
      title: t('status.components.deleteTitle', { name: component.name }),
      text: t('status.components.deleteText'),
      confirmLabel: t('status.delete'),
      cancelLabel: t('kit.cancel'),
      danger: true,
    });
    if (!ok) return;
    try {
      await api.del(paths.component(pageId, component.id));
    } catch (error) {
      ctx.reportError(error);
      return;
    }
    ctx.toast(t('status.components.deleted', { name: component.name }));
    changed();
  }

  function checksTable(component, checks) {
    return dataTable({
      caption: t('status.checks.title'),
      rows: checks,
      rowLink: (c) => pageHref(ctx, pageId, 'checks', component.id, c.id),
      rowAttrs: (c) => ({ dataset: { check: c.id } }),
      empty: { title: t('status.checks.emptyTitle'), text: t('status.checks.emptyText'), drawing: icons.shield },
      columns: [
        { label: t('status.checks.name'), primary: true, render: (c) => h('span', { class: 'strong' }, c.name) },
        { label: t('status.checks.status'), className: 'cell-nowrap', render: (c) => statusPill(t, c.status) },
        { label: t('status.checks.target'), className: 'cell-url', render: (c) => h('span', { class: 'check-target' }, mono(c.method), ' ', h('span', { class: 'url' }, c.url)) },
        { label: t('status.checks.interval'), className: 'cell-nowrap', render: (c) => t('status.seconds', { n: t.number(c.intervalSeconds) }) },
        { label: t('status.checks.latency'), className: 'cell-nowrap', render: (c) => (c.lastLatencyMs === null || c.lastLatencyMs === undefined ? h('span', { class: 'muted' }, '—') : t('status.ms', { n: t.number(c.lastLatencyMs) })) },
        { label: t('status.checks.lastChecked'), className: 'cell-nowrap', render: (c) => timeAgo(c.lastCheckedAt) },
      ],
    });
  }

  function componentCard(component, checks, list, index) {
    const renameBox = h('div', { class: 'rename-box' });
    return card(
      {
        title: component.name,
        className: 'component-card',
        dataset: { component: component.id },
        actions: [
          linkButton(t('status.checks.add'), pageHref(ctx, pageId, 'checks', component.id, 'new'), { variant: 'secondary', className: 'btn-small', icon: icons.plus, dataset: { action: 'add-check' } }),
          button(t('status.components.rename'), { variant: 'ghost', className: 'btn-small', icon: icons.edit, dataset: { action: 'rename' }, onclick: () => renameForm(component, renameBox) }),
          button(t('status.components.up'), { variant: 'ghost', className: 'btn-small', icon: icons.left, disabled: index === 0, dataset: { action: 'up' }, 'aria-label': t('status.components.upLabel', { name: component.name }), onclick: () => move(list, index, -1) }),
          button(t('status.components.down'), { variant: 'ghost', className: 'btn-small', icon: icons.right, disabled: index === list.length - 1, dataset: { action: 'down' }, 'aria-label': t('status.components.downLabel', { name: component.name }), onclick: () => move(list, index, 1) }),
          button(t('status.delete'), { variant: 'ghost', className: 'btn-small btn-danger-text', icon: icons.trash, dataset: { action: 'delete-component' }, 'aria-label': t('status.components.deleteTitle', { name: component.name }), onclick: () => remove(component) }),
        ],
      },
      renameBox,
      checksTable(component, checks),
    );
  }

  async function load() {
    const list = await shared.components();
    const checks = await Promise.all(list.map((c) => api.all(paths.checks(pageId, c.id), { signal: ctx.signal })));
    return { list, checks };
  }

  function render({ list, checks }) {
    if (!list.length) return emptyState({ title: t('status.components.emptyTitle'), text: t('status.components.emptyText'), drawing: icons.project });
    return h('div', { class: 'component-cards' }, list.map((c, i) => componentCard(c, checks[i], list, i)));
  }

  const reload = loadInto(ctx, slot, { load, render, loadingText: t('status.components.loading') });
  const root = h('div', { class: 'status-tab' }, card({ title: t('status.components.addTitle'), subtitle: t('status.components.addText'), className: 'add-component-card' }, addForm.element), slot);
  return root;
}
