// A page's SLA tab: the report per component for a period (from and to, days in UTC as the uptime is;
// the last 30 days by default): checks, uptime, and the minutes up (degraded included), degraded, down, in
// maintenance and unknown (the worker was not probing: never counted as up), and the worst day, all as the
// API gives them (docs/status-api.md, "SLA report"). Download CSV is the same report as a file
// (`format=csv`).
import { h } from '../kit/dom.js';
import { createForm, input } from '../kit/form.js';
import { icons } from '../kit/icons.js';
import { dataTable } from '../kit/table.js';
import { linkButton } from '../kit/ui.js';
import { loadInto, statusContext } from './common.js';

const day = (date) => date.toISOString().slice(0, 10);

export default function slaTab(ctx, shared) {
  const { t } = ctx;
  const { api, paths } = statusContext(ctx);
  const pageId = shared.page.id;
  const today = new Date();
  const from = input({ name: 'from', type: 'date', value: day(new Date(today.getTime() - 30 * 86_400_000)) });
  const to = input({ name: 'to', type: 'date', value: day(today) });
  const slot = h('div', { id: 'sla-report' });
  const csv = linkButton(t('status.sla.csv'), '#', { variant: 'secondary', download: '', dataset: { action: 'sla-csv' } });
  const setCsv = () => {
    csv.href = `${paths.sla(pageId)}?${new URLSearchParams({ from: from.value, to: to.value, format: 'csv' })}`;
  };

  const percent = (v) => (v === null ? '—' : `${t.number(v)} %`);
  const minutes = (v) => t('status.sla.minutes', { n: t.number(v) });
  function render(report) {
    return dataTable({
      caption: t('status.tab.sla'),
      rows: report.components,
      rowAttrs: (r) => ({ dataset: { component: r.id } }),
      empty: { title: t('status.sla.emptyTitle'), text: t('status.sla.emptyText'), drawing: icons.logs },
      columns: [
        { label: t('status.sla.component'), render: (r) => h('span', { class: 'strong' }, r.name) },
        { label: t('status.sla.checks'), className: 'cell-number', render: (r) => t.number(r.checks) },
        { label: t('status.sla.uptime'), className: 'cell-number', render: (r) => percent(r.uptime) },
        { label: t('status.sla.up'), className: 'cell-number', render: (r) => minutes(r.upMinutes) },
        { label: t('status.sla.degraded'), className: 'cell-number', render: (r) => minutes(r.degradedMinutes) },
        { label: t('status.sla.down'), className: 'cell-number', render: (r) => minutes(r.downMinutes) },
        { label: t('status.sla.maintenance'), className: 'cell-number', render: (r) => minutes(r.maintenanceMinutes) },
        { label: t('status.sla.unknown'), className: 'cell-number', render: (r) => minutes(r.unknownMinutes) },
        { label: t('status.sla.worstDay'), className: 'cell-nowrap', render: (r) => (r.worstDay ? `${r.worstDay.date} (${percent(r.worstDay.uptime)})` : '—') },
      ],
    });
  }
  const run = () => {
    setCsv();
    return loadInto(ctx, slot, { load: () => api.get(paths.sla(pageId), { query: { from: from.value, to: to.value, format: 'json' }, signal: ctx.signal }), render });
  };
  const form = createForm({
    t,
    inline: true,
    id: 'sla-form',
    submitLabel: t('status.sla.show'),
    fields: [
      { name: 'from', label: t('status.sla.from'), control: from, required: true },
      { name: 'to', label: t('status.sla.to'), control: to, required: true, validate: (v, all) => (v < all.from ? t('status.sla.toAfterFrom') : null) },
    ],
    actions: [csv],
    onSubmit: async () => run(),
  });
  run();
  return h('div', { class: 'status-tab' }, h('p', { class: 'muted' }, t('status.sla.intro')), form.element, slot);
}
