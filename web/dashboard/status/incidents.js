// A page's Incidents tab: open incidents (`?state=active`) first, then resolved ones (`?state=resolved`),
// each newest `startedAt` first as the API orders them, a card with its status, impact, source (automatic
// ones say so), affected components, start and end, and its updates newest first (body in the page's
// language, the other language beneath). New incident (title and first update in English and Turkish,
// impact, status, affected components) and Post update (status and text in both languages) on each open
// incident. The API's shapes: docs/status-incidents.md; every title and body is {tr, en}. The order of
// statuses is the server's (a step back is its 409 `invalid_incident_transition`, shown beside Status).
import { h } from '../kit/dom.js';
import { createForm, select } from '../kit/form.js';
import { icons } from '../kit/icons.js';
import { button, card, emptyState, timeAgo } from '../kit/ui.js';
import { componentNames, componentPicker, fieldOfError, loadInto, localizedFields, localizedValue, statusContext, statusPill } from './common.js';

const STATUSES = ['investigating', 'identified', 'monitoring', 'resolved'];
const IMPACTS = ['minor', 'major', 'critical'];

export default function incidentsTab(ctx, shared) {
  const { t } = ctx;
  const { api, paths } = statusContext(ctx);
  const pageId = shared.page.id;
  const slot = h('div', { class: 'incidents-list', id: 'incidents-list' });
  const formSlot = h('div', { class: 'incident-new' });
  const statusOptions = (from = STATUSES) => from.map((s) => ({ value: s, label: t(`status.state.${s}`) }));
  // The refusals of the incident API and the input each is about.
  const CODES = { invalid_impact: 'impact', invalid_incident_status: 'status', invalid_incident_transition: 'status', incident_resolved: 'status', too_many_updates: 'status' };

  function openNew(components) {
    const picker = componentPicker(t, components);
    const form = createForm({
      t,
      id: 'incident-form',
      submitLabel: t('status.incidents.create'),
      submitIcon: icons.plus,
      fields: [
        ...localizedFields(t, 'title', t('status.incidents.titleField'), { required: true }),
        { name: 'impact', label: t('status.incidents.impact'), control: select({ name: 'impact', value: 'minor', options: IMPACTS.map((i) => ({ value: i, label: t(`status.state.${i}`) })) }), className: 'field-half' },
        { name: 'status', label: t('status.incidents.status'), control: select({ name: 'status', value: 'investigating', options: statusOptions(STATUSES.slice(0, 3)) }), className: 'field-half' },
        ...localizedFields(t, 'body', t('status.incidents.body'), { multiline: true, required: true }),
      ],
      layout: (w) => [
        h('div', { class: 'field-row' }, w.title_en.element, w.title_tr.element),
        h('div', { class: 'field-row' }, w.impact.element, w.status.element),
        h('div', { class: 'field' }, h('span', { class: 'field-label' }, t('status.incidents.affected')), picker),
        h('div', { class: 'field-row' }, w.body_en.element, w.body_tr.element),
      ],
      actions: [button(t('kit.cancel'), { variant: 'secondary', onclick: () => formSlot.replaceChildren() })],
      fieldOf: (error) => fieldOfError(error, CODES),
      async onSubmit(values) {
        await api.post(
          paths.incidents(pageId),
          { title: localizedValue(values, 'title'), impact: values.impact, status: values.status, affectedComponentIds: picker.selected(), body: localizedValue(values, 'body') },
          { signal: ctx.signal },
        );
        formSlot.replaceChildren();
        ctx.toast(t('status.incidents.created'));
        reload();
      },
    });
    formSlot.replaceChildren(card({ title: t('status.incidents.newTitle'), subtitle: t('status.incidents.newText') }, form.element));
    form.fields.title_en.control.focus();
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
      fieldOf: (error) => fieldOfError(error, CODES),
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
    return h(
      'li',
      { class: 'update', dataset: { update: update.id, state: update.status } },
      h('div', { class: 'update-head' }, statusPill(t, update.status), timeAgo(update.createdAt)),
      h('p', { class: 'update-body', lang: ctx.lang }, update.body[ctx.lang]),
      update.body[other] !== update.body[ctx.lang] ? h('p', { class: 'update-body update-other', lang: other }, update.body[other]) : null,
    );
  }

  function incidentCard(incident, components) {
    const box = h('div', { class: 'update-box' });
    const open = incident.status !== 'resolved';
    // The API keeps them oldest first; the timeline reads newest first, as the public page shows it.
    const updates = [...incident.updates].reverse();
    const names = componentNames(components, incident.affectedComponentIds);
    return card(
      {
        title: incident.title[ctx.lang],
        className: `incident-card ${open ? 'incident-open' : 'incident-resolved'}`,
        dataset: { incident: incident.id, state: incident.status },
        actions: open ? [button(t('status.incidents.postUpdate'), { variant: 'secondary', className: 'btn-small', icon: icons.edit, dataset: { action: 'post-update' }, onclick: () => updateForm(incident, box) })] : null,
      },
      h(
        'div',
        { class: 'incident-meta' },
        statusPill(t, incident.status),
        statusPill(t, incident.impact),
        incident.source === 'auto' ? h('span', { class: 'chip', title: t('status.incidents.autoHint') }, t('status.incidents.auto')) : null,
        h('span', { class: 'muted' }, t('status.incidents.started'), ' ', timeAgo(incident.startedAt)),
        incident.resolvedAt ? h('span', { class: 'muted' }, t('status.incidents.resolvedAt'), ' ', timeAgo(incident.resolvedAt)) : null,
      ),
      names.length ? h('p', { class: 'incident-components' }, t('status.incidents.affected'), ': ', names.join(', ')) : null,
      box,
      h('ol', { class: 'updates' }, updates.map(updateItem)),
    );
  }

  async function load() {
    const [open, past, components] = await Promise.all([
      api.all(paths.incidents(pageId), { query: { state: 'active' }, signal: ctx.signal }),
      api.all(paths.incidents(pageId), { query: { state: 'resolved' }, signal: ctx.signal }),
      shared.components(),
    ]);
    return { open, past, components };
  }
  function render({ open, past, components }) {
    newButton.disabled = false;
    newButton.onclick = () => openNew(components);
    if (!open.length && !past.length) return emptyState({ title: t('status.incidents.emptyTitle'), text: t('status.incidents.emptyText'), drawing: icons.alert });
    return h(
      'div',
      null,
      h('h3', { class: 'section-title' }, t('status.incidents.open', { n: open.length })),
      open.length ? open.map((i) => incidentCard(i, components)) : h('p', { class: 'muted' }, t('status.incidents.noneOpen')),
      past.length ? [h('h3', { class: 'section-title' }, t('status.incidents.past')), past.map((i) => incidentCard(i, components))] : null,
    );
  }

  const newButton = button(t('status.incidents.new'), { icon: icons.plus, disabled: true, dataset: { action: 'new-incident' } });
  const reload = loadInto(ctx, slot, { load, render });
  return h('div', { class: 'status-tab' }, h('div', { class: 'tab-toolbar' }, h('p', { class: 'muted' }, t('status.incidents.intro')), newButton), formSlot, slot);
}
