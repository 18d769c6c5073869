// The dynamic parts of the public status page (edge/status/public_page_view.cpp renders the first paint on
// the server): the same elements, ids and classes, rebuilt from a snapshot with the kit's safe h() (text is
// always text, never markup), so a live update looks exactly like a reload.
import { h, mount } from '../dashboard/kit/dom.js';

const shortTime = (iso) => (iso && iso.length >= 16 ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : iso ?? '');
const timeEl = (iso) => h('time', { datetime: iso ?? '' }, shortTime(iso));
const statusClass = (s) => `s-${s || 'no-data'}`;
const uptime = (v) => (typeof v === 'number' ? `${v.toFixed(2)} %` : '–');

function affects(t, names, item) {
  const list = (item.affectedComponentIds ?? []).map((id) => names.get(id) ?? id).join(', ');
  return list ? h('p', { class: 'sp-affects' }, `${t.affects}: ${list}`) : null;
}

function incident(t, names, inc) {
  return h(
    'article',
    { class: `sp-incident impact-${inc.impact ?? ''}`, dataset: { id: inc.id } },
    h('h3', null, inc.title ?? '', h('span', { class: 'sp-impact' }, t.impact[inc.impact] ?? inc.impact ?? '')),
    h('p', { class: 'sp-meta' }, `${t.incident[inc.status] ?? inc.status ?? ''} · ${t.started} `, timeEl(inc.startedAt)),
    h(
      'ol',
      { class: 'sp-updates' },
      (inc.updates ?? []).map((u) =>
        h(
          'li',
          { dataset: { id: u.id } },
          h('strong', { class: 'sp-update-status' }, t.incident[u.status] ?? u.status ?? ''),
          h('p', null, u.body ?? ''),
          timeEl(u.createdAt),
        ),
      ),
    ),
    affects(t, names, inc),
  );
}

function maintenance(t, names, m) {
  const end = m.end ?? m.scheduledEnd;
  return h(
    'article',
    { class: 'sp-incident sp-maintenance', dataset: { id: m.id } },
    h('h3', null, m.title ?? ''),
    h('p', { class: 'sp-meta' }, `${t.scheduledFor} `, timeEl(m.scheduledStart), end ? [' – ', timeEl(end)] : null),
    m.description ? h('p', null, m.description) : null,
    affects(t, names, m),
  );
}

function pastIncident(t, names, inc) {
  return h(
    'li',
    { class: `sp-past impact-${inc.impact ?? ''}`, dataset: { id: inc.id } },
    h('strong', null, inc.title ?? ''),
    h('span', { class: 'sp-impact' }, t.impact[inc.impact] ?? inc.impact ?? ''),
    h('p', { class: 'sp-meta' }, `${t.started} `, timeEl(inc.startedAt), inc.resolvedAt ? [` · ${t.resolved} `, timeEl(inc.resolvedAt)] : null),
    affects(t, names, inc),
  );
}

function component(t, c) {
  const days = c.dailyHistory ?? [];
  const counted = days.filter((d) => d.status !== 'no-data').length;
  return h(
    'div',
    { class: 'sp-component', dataset: { id: c.id, status: c.status } },
    h(
      'div',
      { class: 'sp-row' },
      h('span', { class: 'sp-cname' }, c.name ?? ''),
      h('span', { class: `sp-status ${statusClass(c.status)}` }, t[c.status] ?? c.status ?? ''),
    ),
    h(
      'div',
      { class: 'sp-bars', role: 'img', 'aria-label': `${days.length} days, ${counted} with data` },
      days.map((d) =>
        h('span', { class: `sp-bar ${statusClass(d.status)}`, dataset: { date: d.date }, title: `${d.date} · ${t[d.status] ?? d.status}` }),
      ),
    ),
    h(
      'div',
      { class: 'sp-axis' },
      h('span', null, t.daysAgo90),
      h(
        'span',
        { class: 'sp-uptime' },
        `${t.uptime24h} `,
        h('b', { class: 'sp-u24' }, uptime(c.uptime24h)),
        ` · ${t.uptime30d} `,
        h('b', { class: 'sp-u30' }, uptime(c.uptime30d)),
      ),
      h('span', null, t.today),
    ),
  );
}

// The name (when no logo replaces it) and the tagline follow the page's branding.
function applyBranding(doc, snap) {
  const branding = snap.page?.branding ?? {};
  const name = branding.displayName || snap.page?.name || '';
  const nameEl = doc.querySelector('.sp-name');
  if (nameEl) nameEl.textContent = name;
  let tagline = doc.querySelector('.sp-tagline');
  if (branding.tagline && !tagline) {
    tagline = h('p', { class: 'sp-tagline' });
    doc.getElementById('overall').before(tagline);
  }
  if (tagline && !branding.tagline) tagline.remove();
  else if (tagline) tagline.textContent = branding.tagline;
  return name;
}

// Applies `snap` to the page in `doc`, section by section.
export function applySnapshot(doc, t, snap) {
  const pageName = applyBranding(doc, snap);
  const names = new Map((snap.components ?? []).map((c) => [c.id, c.name]));
  const overall = doc.getElementById('overall');
  overall.className = `sp-banner ${statusClass(snap.overall)}`;
  overall.dataset.status = snap.overall;
  overall.querySelector('h1').textContent = t.overall[snap.overall] ?? snap.overall;

  const fill = (id, items) => {
    const section = doc.getElementById(id);
    mount(section.querySelector('.sp-list'), items);
    section.hidden = items.length === 0;
  };
  fill('active-incidents', (snap.activeIncidents ?? []).map((i) => incident(t, names, i)));
  fill('maintenance', (snap.upcomingMaintenances ?? []).map((m) => maintenance(t, names, m)));

  const components = (snap.components ?? []).map((c) => component(t, c));
  mount(
    doc.querySelector('#components .sp-components'),
    components.length ? components : h('p', { class: 'sp-muted sp-empty' }, t.noComponents),
  );
  const past = (snap.pastIncidents ?? []).map((i) => pastIncident(t, names, i));
  mount(
    doc.querySelector('#past-incidents .sp-past-list'),
    past.length ? past : h('li', { class: 'sp-muted sp-empty' }, t.noPastIncidents),
  );
  const generated = doc.getElementById('generated-at');
  generated.dateTime = snap.generatedAt ?? '';
  generated.textContent = shortTime(snap.generatedAt);
  doc.title = `${pageName} · ${t.overall[snap.overall] ?? snap.overall}`;
}
