// A page's Incidents tab: open incidents first, then resolved ones, each a card with its status, impact,
// source (automatic ones say so), affected components, start and end, and its updates newest first (body in
// the page's language, the other language beneath). New incident (title, impact, status, affected
// components, the first update's text in English and Turkish) and Post update (status and text in both
// languages) on each open incident. API: api_paths.js incidents / incidentUpdates (docs/status-dashboard.md).
import { h } from '../kit/dom.js';
import { createForm, input, select } from '../kit/form.js';
import { icons } from '../kit/icons.js';
import { button, card, emptyState, timeAgo } from '../kit/ui.js';
import { componentNames, componentPicker, fieldOfError, loadInto, localized, localizedFields, localizedValue, statusContext, statusPill } from './common.js';

const STATUSES = ['investigating', 'identified', 'monitoring', 'resolved'];
const IMPACTS = ['minor', 'major', 'critical'];

export default function incidentsTab(ctx, shared) {
  const { t } = ctx;
  const { api, paths } = statusContext(ctx);
  const pageId = shared.page.id;
  const slot = h('div', { class: 'incidents-list', id: 'incidents-list' });
  const formSlot = h('div', { class: 'incident-new' });
  const statusOptions = (from = STATUSES) => from.map((s) => ({ value: s, label: t(`status.state.${s}`) }));

  function openNew(components) {
    const picker = componentPicker(t, components);
    const form = createForm({
      t,
      id: 'incident-form',
      submitLabel: t('status.incidents.create'),
      submitIcon: icons.plus,
      fields: [
        { name: 'title', label: t('status.incidents.titleField'), control: input({ name: 'title', maxlength: 200 }), required: true },
        { name: 'impact', label: t('status.incidents.impact'), control: select({ name: 'impact', value: 'minor', options: IMPACTS.map((i) => ({ value: i, label: t(`status.state.${i}`) })) }), className: 'field-half' },
        { name: 'status', label: t('status.incidents.status'), control: select({ name: 'status', value: 'investigating', options: statusOptions(STATUSES.slice(0, 3)) }), className: 'field-half' },
        ...localizedFields(t, 'body', t('status.incidents.body'), { multiline: true, required: true }),
      ],
      layout: (w) => [
        w.title.element,
        h('div', { class: 'field-row' }, w.impact.element, w.status.element),
        h('div', { class: 'field' }, h('span', { class: 'field-label' }, t('status.incidents.affected')), picker),
        h('div', { class: 'field-row' }, w.body_en.element, w.body_tr.element),
      ],
      actions: [button(t('kit.cancel'), { variant: 'secondary', onclick: () => formSlot.replaceChildren() })],
      fieldOf: (error) => fieldOfError(error, { invalid_impact: 'impact', invalid_status: 'status' }),
      async onSubmit(values) {
        await api.post(
          paths.incidents(pageId),
          { title: values.title.trim(), impact: values.impact, status: values.status, affectedComponentIds: picker.selected(), body: localizedValue(values, 'body') },
          { signal: ctx.signal },
        );
        formSlot.replaceChildren();
        ctx.toast(t('status.incidents.created'));
        reload();
      },
    });
    formSlot.replaceChildren(card({ title: t('status.incidents.newTitle'), subtitle: t('status.incidents.newText') }, form.element));
    form.fields.title.control.focus();
  }

  function updateForm(incident, box) {
    const form = createForm({
      t,
      className: 'update-form',
      submitLabel: t('status.incidents.postUpdate'),
      submitIcon: icons.check,
      fields: [
        { name: 'status', label: t('status.incidents.status'), control: select({ name: 'status', value: incident.status, options: statusOptions() }) },
        ...localizedFields(t, 'body', t('status.incidents.body'), { multiline: true, required: true }),
      ],
      layout: (w) => [w.status.element, h('div', { class: 'field-row' }, w.body_en.element, w.body_tr.element)],
      actions: [button(t('kit.cancel'), { variant: 'secondary', onclick: () => box.replaceChildren() })],
      fieldOf: (error) => fieldOfError(error, { invalid_status: 'status', invalid_transition: 'status' }),
      async onSubmit(values) {
        await api.post(paths.incidentUpdates(pageId, incident.id), { status: values.status, body: localizedValue(values, 'body') }, { signal: ctx.signal });
        ctx.toast(t('status.incidents.updated'));
        reload();
      },
    });
    box.replaceChildren(form.element);
    form.fields.body_en.control.focus();
  }

  function updateItem(update) {
    const other = ctx.lang === 'tr' ? 'en' : 'tr';
    const otherText = typeof update.body === 'object' && update.body ? update.body[other] : null;
    return h(
      'li',
      { class: 'update', dataset: { update: update.id ?? '' } },
      h('div', { class: 'update-head' }, statusPill(t, update.status), timeAgo(update.createdAt)),
      h('p', { class: 'update-body' }, localized(ctx, update.body)),
      otherText && otherText !== localized(ctx, update.body) ? h('p', { class: 'update-body update-other', lang: other }, otherText) : null,
    );
  }

  function incidentCard(incident, components) {
    const box = h('div', { class: 'update-box' });
    const open = incident.status !== 'resolved';
    const updates = [...(incident.updates ?? [])].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
    const names = componentNames(components, incident.affectedComponentIds);
    return card(
      {
        title: localized(ctx, incident.title),
        className: `incident-card ${open ? 'incident-open' : 'incident-resolved'}`,
        dataset: { incident: incident.id, state: incident.status },
        actions: open ? [button(t('status.incidents.postUpdate'), { variant: 'secondary', className: 'btn-small', icon: icons.edit, dataset: { action: 'post-update' }, onclick: () => updateForm(incident, box) })] : null,
      },
      h(
        'div',
        { class: 'incident-meta' },
        statusPill(t, incident.status),
        incident.impact ? statusPill(t, incident.impact) : null,
        incident.source === 'auto' ? h('span', { class: 'chip', title: t('status.incidents.autoHint') }, t('status.incidents.auto')) : null,
        h('span', { class: 'muted' }, t('status.incidents.started'), ' ', timeAgo(incident.startedAt)),
        incident.resolvedAt ? h('span', { class: 'muted' }, t('status.incidents.resolvedAt'), ' ', timeAgo(incident.resolvedAt)) : null,
      ),
      names.length ? h('p', { class: 'incident-components' }, t('status.incidents.affected'), ': ', names.join(', ')) : null,
      box,
      updates.length ? h('ol', { class: 'updates' }, updates.map(updateItem)) : null,
    );
  }

  async function load() {
    const [incidents, components] = await Promise.all([api.all(paths.incidents(pageId), { signal: ctx.signal }), shared.components()]);
    return { incidents, components };
  }
  function render({ incidents, components }) {
    newButton.disabled = false;
    newButton.onclick = () => openNew(components);
    if (!incidents.length) return emptyState({ title: t('status.incidents.emptyTitle'), text: t('status.incidents.emptyText'), drawing: icons.alert });
    const open = incidents.filter((i) => i.status !== 'resolved');
    const past = incidents.filter((i) => i.status === 'resolved');
    return h(
      'div',
      null,
      h('h3', { class: 'section-title' }, t('status.incidents.open', { n: open.length })),
      open.length ? open.map((i) => incidentCard(i, components)) : h('p', { class: 'muted' }, t('status.incidents.noneOpen')),
      past.length ? [h('h3', { class: 'section-title' }, t('status.incidents.past')), past.map((i) => incidentCard(i, components))] : null,
    );
  }

  const newButton = button(t('status.incidents.new'), { icon: icons.plus, disabled: true, dataset: { action: 'new-incident' } });
  const reload = loadInto(ctx, slot, { load, render, what: 'incidents' });
  return h('div', { class: 'status-tab' }, h('div', { class: 'tab-toolbar' }, h('p', { class: 'muted' }, t('status.incidents.intro')), newButton), formSlot, slot);
}
