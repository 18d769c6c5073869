// A page's Maintenance tab: the windows, newest `scheduledStart` first as the API orders them, filtered by
// status (`?status=`), each with its title and description in the page's language, status (computed by the
// server at the request's time), scheduled start and end, when it actually began and ended or was
// cancelled, and affected components, with the actions its status allows: Start now and Cancel while
// scheduled (Cancel asks first), Mark complete while in progress. Schedule (title and description in
// English and Turkish, start and end in the browser's time zone, sent as ISO UTC, affected components).
// The API's shapes: docs/status-incidents.md, "Maintenance windows".
import { h } from '../kit/dom.js';
import { createForm, input, select } from '../kit/form.js';
import { icons } from '../kit/icons.js';
import { dataTable } from '../kit/table.js';
import { absoluteTime, button, card, confirmDialog } from '../kit/ui.js';
import { componentNames, componentPicker, fieldOfError, loadInto, localizedFields, localizedValue, statusContext, statusPill } from './common.js';

const FILTERS = ['', 'scheduled', 'in_progress', 'completed', 'cancelled'];

// A <input type="datetime-local"> value (local time) as an ISO UTC timestamp; empty stays empty.
function isoFromLocal(value) {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

export default function maintenanceTab(ctx, shared) {
  const { t } = ctx;
  const { api, paths } = statusContext(ctx);
  const pageId = shared.page.id;
  const slot = h('div', { id: 'maintenance-list' });
  const formSlot = h('div');

  function openNew(components) {
    const picker = componentPicker(t, components);
    const form = createForm({
      t,
      id: 'maintenance-form',
      submitLabel: t('status.maintenance.create'),
      submitIcon: icons.plus,
      fields: [
        ...localizedFields(t, 'title', t('status.maintenance.titleField'), { required: true }),
        ...localizedFields(t, 'description', t('status.maintenance.description'), { multiline: true }),
        { name: 'scheduledStart', label: t('status.maintenance.start'), control: input({ name: 'scheduledStart', type: 'datetime-local' }), required: true, className: 'field-half' },
        {
          name: 'end',
          label: t('status.maintenance.end'),
          control: input({ name: 'end', type: 'datetime-local' }),
          required: true,
          className: 'field-half',
          validate: (value, all) => (value && all.scheduledStart && new Date(value) <= new Date(all.scheduledStart) ? t('status.maintenance.endAfterStart') : null),
        },
      ],
      layout: (w) => [
        h('div', { class: 'field-row' }, w.title_en.element, w.title_tr.element),
        h('div', { class: 'field-row' }, w.description_en.element, w.description_tr.element),
        h('div', { class: 'field-row' }, w.scheduledStart.element, w.end.element),
        h('p', { class: 'field-hint' }, t('status.maintenance.timeZone', { zone: Intl.DateTimeFormat().resolvedOptions().timeZone })),
        h('div', { class: 'field' }, h('span', { class: 'field-label' }, t('status.maintenance.affected')), picker),
      ],
      actions: [button(t('kit.cancel'), { variant: 'secondary', onclick: () => formSlot.replaceChildren() })],
      fieldOf: (error) => fieldOfError(error, { invalid_maintenance_end: 'end' }),
      async onSubmit(values) {
        await api.post(
          paths.maintenances(pageId),
          {
            title: localizedValue(values, 'title'),
            // Left out when neither language has one.
            description: values.description_en.trim() || values.description_tr.trim() ? localizedValue(values, 'description') : undefined,
            scheduledStart: isoFromLocal(values.scheduledStart),
            end: isoFromLocal(values.end),
            affectedComponentIds: picker.selected(),
          },
          { signal: ctx.signal },
        );
        formSlot.replaceChildren();
        ctx.toast(t('status.maintenance.created'));
        reload();
      },
    });
    formSlot.replaceChildren(card({ title: t('status.maintenance.newTitle'), subtitle: t('status.maintenance.newText') }, form.element));
    form.fields.title_en.control.focus();
  }

  async function act(window, action) {
    if (action === 'cancel') {
      const ok = await confirmDialog({
        title: t('status.maintenance.cancelTitle', { title: window.title[ctx.lang] }),
        text: t('status.maintenance.cancelText'),
        confirmLabel: t('status.maintenance.cancel'),
        cancelLabel: t('status.maintenance.keep'),
        danger: true,
      });
      if (!ok) return;
    }
    try {
      await api.post(paths.maintenanceAction(pageId, window.id, action), {}, { signal: ctx.signal });
    } catch (error) {
      ctx.reportError(error);
      return;
    }
    ctx.toast(t(`status.maintenance.done.${action}`));
    reload();
  }

  function actions(w) {
    const small = (label, action, variant = 'secondary') => button(label, { variant, className: 'btn-small', dataset: { action: `maintenance-${action}` }, onclick: () => act(w, action) });
    if (w.status === 'scheduled') return h('span', { class: 'row-actions' }, small(t('status.maintenance.start'), 'start'), small(t('status.maintenance.cancel'), 'cancel', 'ghost'));
    if (w.status === 'in_progress') return h('span', { class: 'row-actions' }, small(t('status.maintenance.complete'), 'complete'));
    return null;
  }

  async function load() {
    const [windows, components] = await Promise.all([api.all(paths.maintenances(pageId), { query: { status: filter.value }, signal: ctx.signal }), shared.components()]);
    return { windows, components };
  }
  function render({ windows, components }) {
    newButton.disabled = false;
    newButton.onclick = () => openNew(components);
    return dataTable({
      caption: t('status.tab.maintenance'),
      rows: windows,
      rowAttrs: (w) => ({ dataset: { maintenance: w.id, state: w.status } }),
      empty: { title: t('status.maintenance.emptyTitle'), text: t('status.maintenance.emptyText'), drawing: icons.clock },
      columns: [
        {
          label: t('status.maintenance.titleField'),
          render: (w) => h('span', { class: 'stack' }, h('span', { class: 'strong' }, w.title[ctx.lang]), w.description ? h('span', { class: 'cell-note' }, w.description[ctx.lang]) : null),
        },
        { label: t('status.maintenance.status'), className: 'cell-nowrap', render: (w) => h('span', { class: 'stack' }, statusPill(t, w.status), happened(w)) },
        { label: t('status.maintenance.start'), className: 'cell-nowrap', render: (w) => absoluteTime(w.scheduledStart) },
        { label: t('status.maintenance.end'), className: 'cell-nowrap', render: (w) => absoluteTime(w.end) },
        { label: t('status.maintenance.affected'), render: (w) => componentNames(components, w.affectedComponentIds).join(', ') || '—' },
        { label: t('status.actions'), className: 'cell-actions', render: actions },
      ],
    });
  }

  // What actually happened, by hand or by the clock: cancelled, or began (and ended).
  function happened(w) {
    const note = (key, at) => h('span', { class: 'cell-note', dataset: { happened: key } }, t(`status.maintenance.${key}`), ' ', absoluteTime(at));
    if (w.cancelledAt) return note('cancelledAt', w.cancelledAt);
    return [w.startedAt ? note('startedAt', w.startedAt) : null, w.completedAt ? note('completedAt', w.completedAt) : null];
  }

  const filter = select({ name: 'status', value: '', options: FILTERS.map((f) => ({ value: f, label: f ? t(`status.state.${f}`) : t('status.maintenance.all') })) });
  filter.setAttribute('aria-label', t('status.maintenance.filter'));
  filter.dataset.filter = 'maintenance-status';
  filter.addEventListener('change', () => reload());
  const newButton = button(t('status.maintenance.new'), { icon: icons.plus, disabled: true, dataset: { action: 'new-maintenance' } });
  const reload = loadInto(ctx, slot, { load, render });
  return h('div', { class: 'status-tab' }, h('div', { class: 'tab-toolbar' }, h('p', { class: 'muted' }, t('status.maintenance.intro')), filter, newButton), formSlot, slot);
}
