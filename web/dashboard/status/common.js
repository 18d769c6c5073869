// What the status screens share: the API client and paths of this company, the words and tones of the
// statuses, loading into a slot, the field a refusal is about, and the pair of TR/EN inputs of a localized
// text.
import { describeError } from '../kit/api.js';
import { h, icon } from '../kit/dom.js';
import { field, input, textarea } from '../kit/form.js';
import { icons } from '../kit/icons.js';
import { button, pill } from '../kit/ui.js';
import { createStatusApi } from './api.js';
import { statusPaths } from './api_paths.js';

// ctx.status: {api, paths}, made once per mounted page.
export function statusContext(ctx) {
  if (!ctx.status) ctx.status = { api: createStatusApi({ csrfToken: ctx.api.csrfToken }), paths: statusPaths(ctx.company.slug) };
  return ctx.status;
}

// A page's address inside the product: /dashboard/{slug}/status/pages/{...rest}.
export function pageHref(ctx, ...rest) {
  return ctx.href('pages', ...rest);
}

const TONES = {
  operational: 'success',
  degraded: 'warning',
  down: 'danger',
  maintenance: 'info',
  'no-data': 'neutral',
  investigating: 'danger',
  identified: 'warning',
  monitoring: 'info',
  resolved: 'success',
  scheduled: 'info',
  in_progress: 'warning',
  completed: 'success',
  cancelled: 'neutral',
  verified: 'success',
  minor: 'warning',
  major: 'danger',
  critical: 'danger',
  pending: 'neutral',
};

// A status word of the API (check, component, incident, maintenance, impact) as a pill in the page's language.
export function statusPill(t, value, attrs = {}) {
  const key = `status.state.${value}`;
  return pill(t.has(key) ? t(key) : String(value ?? '—'), TONES[value] ?? 'neutral', { dataset: { state: value ?? '' }, ...attrs });
}

// Loads with `load()` into `slot`: a loading state, then render(result), or the failure with Try again (its
// sentence also in the banner). Answers reload().
export function loadInto(ctx, slot, { load, render, loadingText }) {
  const { t } = ctx;
  let shown = false;
  async function run() {
    slot.setAttribute('aria-busy', 'true');
    // A reload keeps what is shown (dimmed) until the answer is in, so nothing jumps after each change.
    if (shown) slot.classList.add('is-loading');
    else slot.replaceChildren(h('div', { class: 'loading-block' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), h('span', null, loadingText ?? t('kit.loading'))));
    let result;
    try {
      result = await load();
    } catch (error) {
      if (error?.name === 'AbortError' || ctx.signal.aborted) return;
      slot.setAttribute('aria-busy', 'false');
      slot.classList.remove('is-loading');
      shown = false;
      slot.replaceChildren(
        h(
          'div',
          { class: 'table-failed', role: 'alert', dataset: { status: error?.status ?? '' } },
          icon(icons.alert),
          h('span', null, error?.status === 403 ? describeError(error, t) : t('kit.table.failed')),
          error?.status === 403 ? null : button(t('kit.retry'), { variant: 'secondary', icon: icons.refresh, onclick: run }),
        ),
      );
      if (error?.status !== 403) ctx.reportError(error);
      return;
    }
    if (ctx.signal.aborted) return;
    slot.setAttribute('aria-busy', 'false');
    slot.classList.remove('is-loading');
    shown = true;
    slot.replaceChildren(render(result) ?? '');
  }
  run();
  return run;
}

// The member a refusal names (`field 'x' is required`, `field 'x' must be ...`), or the member of a
// validation code (`codes`: {code: member}).
// A language of a localized text (`field 'title.tr' ...`) is the input of that language (`title_tr`).
export function fieldOfError(error, codes = {}) {
  const message = error?.message ?? '';
  const pair = /field '([A-Za-z]+)\.(tr|en)'/.exec(message);
  if (pair) return `${pair[1]}_${pair[2]}`;
  const quoted = /field '([A-Za-z]+)'/.exec(message);
  if (quoted) return quoted[1];
  return codes[error?.code] ?? null;
}

// Two inputs (English, Turkish) for a localized text `{en, tr}`; `multiline` for a body.
export function localizedFields(t, name, label, { value = {}, multiline = false, required = false } = {}) {
  const make = (lang) => (multiline ? textarea({ name: `${name}_${lang}`, value: value?.[lang] ?? '', rows: 3 }) : input({ name: `${name}_${lang}`, value: value?.[lang] ?? '' }));
  return [
    { name: `${name}_en`, label: `${label} (${t('status.lang.en')})`, control: make('en'), required, className: 'field-half' },
    { name: `${name}_tr`, label: `${label} (${t('status.lang.tr')})`, control: make('tr'), required, className: 'field-half' },
  ];
}

export function localizedValue(values, name) {
  return { en: values[`${name}_en`].trim(), tr: values[`${name}_tr`].trim() };
}

// Checkboxes over the page's components, for "affected components".
export function componentPicker(t, components, selected = []) {
  const box = h('div', { class: 'component-picker', role: 'group' });
  if (!components.length) box.append(h('p', { class: 'muted' }, t('status.components.none')));
  for (const c of components) {
    box.append(
      h(
        'label',
        { class: 'checkbox' },
        h('input', { type: 'checkbox', value: c.id, checked: selected.includes(c.id), dataset: { component: c.id } }),
        h('span', null, c.name),
      ),
    );
  }
  box.selected = () => [...box.querySelectorAll('input:checked')].map((i) => i.value);
  return box;
}

// Component names for ids, the unknown ones as their id.
export function componentNames(components, ids) {
  const names = new Map(components.map((c) => [c.id, c.name]));
  return (ids ?? []).map((id) => names.get(id) ?? id);
}

// A whole number from a form's text, or the text itself when it is none (so the server's refusal speaks).
export function integer(text) {
  const trimmed = String(text ?? '').trim();
  if (trimmed === '') return undefined;
  return /^-?\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
}

export { field };
