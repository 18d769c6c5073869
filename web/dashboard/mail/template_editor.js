// The template editor: name, subject and body (one text for every language, or English and Turkish
// versions; any other locale a template already has keeps its own tab), the verified sending domain, and a
// live preview rendered by the platform core in WebAssembly (the engine the server sends with), over sample
// variables edited as JSON. Missing variables and syntax errors show as you type; the syntax error names the
// line and column and can select the tag. Saving creates (POST) or updates (PATCH) the template.
import { h, icon, mount, uid } from '../kit/dom.js';
import { field, input, select, textarea } from '../kit/form.js';
import { icons } from '../kit/icons.js';
import { pageHeader } from '../kit/layout.js';
import { button, card, confirmDialog, emptyState, loadingBlock, tabs } from '../kit/ui.js';
import { describeError } from '../kit/api.js';
import { mailPath } from './common.js';
import { localizedText, platformCore } from './core.js';
import { compileMjml, loadMjml, sourceOf, withSource, withoutSource } from './mjml.js';

const BASE_LOCALES = ['en', 'tr'];
const ALL = '*'; // the slot of a text that is the same in every language
const FIELDS = ['name', 'subject', 'body'];

// --- Text positions -------------------------------------------------------------------------------------

// The engine reports byte offsets into the UTF-8 text; the textarea counts UTF-16 code units.
export function byteOffsetToIndex(text, offset) {
  let bytes = 0;
  let index = 0;
  for (const ch of text) {
    if (bytes >= offset) break;
    const cp = ch.codePointAt(0);
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    index += ch.length;
  }
  return index;
}

export function lineAndColumn(text, index) {
  const before = text.slice(0, index);
  const line = before.split('\n').length;
  const column = index - before.lastIndexOf('\n');
  return { line, column };
}

// The tag starting at `index` ({x}, {{#x}}, ...): its length, for selecting it.
function tagLength(text, index) {
  const match = /^\{\{?[#^/]?\^?\w+\}?\}?/.exec(text.slice(index));
  return match ? match[0].length : 1;
}

// --- The model ---------------------------------------------------------------------------------------------

// A LocalizedString as editor slots: { '*': text } for a plain string, { en, tr, ... } for an object.
function slotsOf(value) {
  if (value === null || value === undefined) return { [ALL]: '' };
  if (typeof value === 'string') return { [ALL]: value };
  return { ...value };
}

// What to send for one field: a plain string in single mode; in per-language mode an object of the
// languages that have text (a plain string again when they all say the same).
function localizedValue(slots, localized, locales) {
  if (!localized) return slots[ALL] ?? '';
  const entries = locales.map((l) => [l, slots[l] ?? '']).filter(([, text]) => text !== '');
  if (!entries.length) return '';
  if (entries.length === locales.length && entries.every(([, text]) => text === entries[0][1])) return entries[0][1];
  return Object.fromEntries(entries);
}

// Sample values for names the sample lacks: a text naming the variable, or one list element for a section.
function sampleFor(missing, sectionFields) {
  const sections = new Map(sectionFields.map((s) => [s.section, s.names]));
  const out = {};
  for (const name of missing) {
    out[name] = sections.has(name) ? [Object.fromEntries(sections.get(name).map((f) => [f, `${f} 1`]))] : `${name}`;
  }
  return out;
}

function sampleKey(companySlug, id) {
  return `platform.dashboard.mail.sample.${companySlug}.${id ?? 'new'}`;
}

function loadSample(key) {
  try {
    const text = localStorage.getItem(key);
    if (text && JSON.parse(text) && typeof JSON.parse(text) === 'object') return text;
  } catch {
    // storage off or a bad entry: start empty
  }
  return null;
}

// --- The page --------------------------------------------------------------------------------------------

export default async function templateEditor(ctx, id) {
  const { t } = ctx;
  const back = { href: ctx.href('templates'), label: t('mail.templates.title') };
  mount(ctx.root, pageHeader({ title: id ? t('mail.editor.loading') : t('mail.editor.newTitle'), back }), loadingBlock(t('kit.loading')));

  const mjmlLoad = loadMjml().then(
    (compile) => compile,
    () => null,
  );
  let template = null;
  let domains;
  let core = null;
  let coreError = null;
  try {
    [template, domains, core] = await Promise.all([
      id ? ctx.api.get(mailPath(ctx, 'templates', id), { signal: ctx.signal }) : null,
      ctx.api.all(mailPath(ctx, 'domains'), { signal: ctx.signal }),
      platformCore().catch((error) => {
        coreError = error;
        return null;
      }),
    ]);
  } catch (error) {
    if (ctx.signal.aborted) return;
    if (error.status === 404) {
      mount(ctx.root, pageHeader({ title: t('mail.editor.notFound'), back }), emptyState({ title: t('mail.editor.notFound'), text: t('mail.editor.notFoundText'), drawing: icons.template }));
      return;
    }
    ctx.reportError(error);
    mount(ctx.root, pageHeader({ title: t('mail.templates.title'), back }), emptyState({ title: t('kit.table.failed'), drawing: icons.alert, action: button(t('kit.retry'), { variant: 'secondary', icon: icons.refresh, onclick: () => templateEditor(ctx, id) }) }));
    return;
  }
  const mjml = await mjmlLoad;
  if (ctx.signal.aborted) return;

  // ---- state
  const slots = Object.fromEntries(FIELDS.map((f) => [f, slotsOf(template?.[f])]));
  let localized = FIELDS.some((f) => !(ALL in slots[f]));
  const extraLocales = [...new Set(FIELDS.flatMap((f) => Object.keys(slots[f]).filter((l) => l !== ALL && !BASE_LOCALES.includes(l))))];
  const locales = [...BASE_LOCALES, ...extraLocales];
  if (localized) {
    // A plain-string field of a per-language template: every language starts from it.
    for (const f of FIELDS) if (ALL in slots[f]) for (const l of locales) slots[f][l] = slots[f][ALL];
  }
  // MJML: a body whose saved HTML carries its source opens as MJML (when the compiler is here).
  let format = 'html';
  const hasSource = FIELDS.includes('body') && Object.values(slots.body).some((b) => sourceOf(b) !== null);
  if (hasSource && mjml) {
    format = 'mjml';
    for (const l of Object.keys(slots.body)) slots.body[l] = sourceOf(slots.body[l]) ?? withoutSource(slots.body[l]);
  } else {
    for (const l of Object.keys(slots.body)) slots.body[l] = withoutSource(slots.body[l]);
  }
  let tab = localized ? (locales.includes(ctx.lang) ? ctx.lang : 'en') : ALL;
  let domainId = template?.domainId ?? '';
  let dirty = false;
  const key = sampleKey(ctx.company.slug, template?.id);
  let sampleText = loadSample(key) ?? '{}';

  const verified = domains.filter((d) => d.status === 'verified');
  if (!domainId && verified.length === 1) domainId = verified[0].id;

  // ---- controls
  const nameInput = input({ name: 'name', autocomplete: 'off', placeholder: t('mail.editor.namePlaceholder') });
  const subjectInput = input({ name: 'subject', autocomplete: 'off', placeholder: t('mail.editor.subjectPlaceholder') });
  const bodyInput = textarea({ name: 'body', rows: 18, class: 'input textarea body-input', wrap: 'off' });
  const domainOptions = [{ value: '', label: verified.length ? t('mail.editor.domainChoose') : t('mail.editor.domainNone'), disabled: true }]
    .concat(verified.map((d) => ({ value: d.id, label: d.name })));
  const current = domains.find((d) => d.id === domainId);
  if (domainId && !verified.some((d) => d.id === domainId)) {
    domainOptions.push({ value: domainId, label: current ? t('mail.editor.domainUnverified', { name: current.name }) : t('mail.editor.domainMissing') });
  }
  const domainSelect = select({ name: 'domainId', options: domainOptions, value: domainId });
  if (!domainId) domainSelect.value = '';

  const nameField = field({ label: t('mail.editor.name'), hint: t('mail.editor.nameHint'), control: nameInput });
  const domainField = field({
    label: t('mail.editor.domain'),
    hint: verified.length ? t('mail.editor.domainHint') : null,
    control: domainSelect,
  });
  const subjectField = field({ label: t('mail.editor.subject'), control: subjectInput });
  const bodyField = field({ label: t('mail.editor.body'), hint: null, control: bodyInput, className: 'body-field' });
  const bodyHint = h('p', { class: 'field-hint body-hint' });
  bodyField.element.insertBefore(bodyHint, bodyField.control.nextSibling);

  const languageSwitch = segmented(
    [
      { id: 'single', label: t('mail.editor.single') },
      { id: 'localized', label: t('mail.editor.localized') },
    ],
    localized ? 'localized' : 'single',
    (value) => setLocalized(value === 'localized'),
    { label: t('mail.editor.languages'), name: 'languages' },
  );
  const formatSwitch = mjml
    ? segmented(
        [
          { id: 'html', label: 'HTML' },
          { id: 'mjml', label: 'MJML' },
        ],
        format,
        (value) => setFormat(value),
        { label: t('mail.editor.format'), name: 'format' },
      )
    : null;
  const tabBar = h('div', { class: 'locale-tabs' });
  const variablesBox = h('div', { class: 'variables', id: 'variables' });
  const formError = h('div', { class: 'form-error', role: 'alert', hidden: true });

  const saveButton = button(id ? t('mail.editor.save') : t('mail.editor.create'), { icon: icons.check, dataset: { action: 'save' } });
  const deleteButton = id ? button(t('mail.editor.delete'), { variant: 'danger-outline', icon: icons.trash, dataset: { action: 'delete' } }) : null;

  // preview
  const missingBox = h('div', { class: 'missing', id: 'missing', 'aria-live': 'polite' });
  const previewSubject = h('p', { class: 'preview-subject', id: 'preview-subject' });
  const frame = h('iframe', { class: 'preview-frame', id: 'preview-frame', sandbox: '', title: t('mail.editor.previewFrame'), referrerpolicy: 'no-referrer' });
  const previewError = h('div', { class: 'preview-error', id: 'preview-error', role: 'status', hidden: true });
  const sampleInput = textarea({ name: 'sample', rows: 8, class: 'input textarea sample-input', id: 'sample' });
  sampleInput.value = sampleText;
  const sampleField = field({ label: t('mail.editor.sample'), hint: t('mail.editor.sampleHint'), control: sampleInput });
  const fillButton = button(t('mail.editor.fillSample'), { variant: 'secondary', className: 'btn-small', icon: icons.plus, dataset: { action: 'fill-sample' } });
  const widthSwitch = segmented(
    [
      { id: 'desktop', label: t('mail.editor.desktop') },
      { id: 'mobile', label: t('mail.editor.mobile') },
    ],
    'desktop',
    (value) => (frameWrap.dataset.width = value),
    { label: t('mail.editor.width'), name: 'width', small: true },
  );
  const previewLocale = h('span', { class: 'preview-locale' });
  const frameWrap = h('div', { class: 'preview-frame-wrap', dataset: { width: 'desktop' } }, frame);

  const coreNote = core
    ? null
    : h('div', { class: 'note note-danger' }, icon(icons.alert), h('p', null, t('mail.editor.coreFailed', { message: coreError?.message ?? '' })));

  const editorCard = card(
    { title: t('mail.editor.content'), className: 'editor-card' },
    h('div', { class: 'editor-row' }, nameField.element, domainField.element),
    verified.length
      ? null
      : h('div', { class: 'note note-warning' }, icon(icons.alert), h('p', null, t('mail.templates.needDomain'), ' ', h('a', { href: ctx.href('domains') }, t('mail.templates.toDomains')))),
    h(
      'div',
      { class: 'editor-switches' },
      h('div', { class: 'switch-group' }, h('span', { class: 'switch-label', id: 'languages-label' }, t('mail.editor.languages')), languageSwitch.element),
      formatSwitch ? h('div', { class: 'switch-group' }, h('span', { class: 'switch-label' }, t('mail.editor.format')), formatSwitch.element) : null,
    ),
    mjml ? null : h('p', { class: 'field-hint' }, t('mail.editor.noMjml')),
    tabBar,
    subjectField.element,
    bodyField.element,
    h('div', { class: 'variables-wrap' }, h('p', { class: 'switch-label' }, t('mail.editor.variables')), variablesBox),
  );
  const previewCard = card(
    {
      title: t('mail.editor.preview'),
      subtitle: t('mail.editor.previewText'),
      className: 'preview-card',
      actions: [widthSwitch.element],
    },
    coreNote,
    missingBox,
    h('div', { class: 'preview-mail' }, h('div', { class: 'preview-meta' }, h('span', { class: 'preview-label' }, t('mail.editor.subject')), previewSubject, previewLocale), frameWrap),
    previewError,
    h('div', { class: 'sample-box' }, sampleField.element, h('div', { class: 'sample-actions' }, fillButton)),
  );

  const headerSlot = h('div');
  function renderHeader() {
    const title = localizedText(core, localizedValue(slots.name, localized, locales) || '', ctx.lang) || (id ? id : t('mail.editor.newTitle'));
    mount(
      headerSlot,
      pageHeader({
        title,
        subtitle: template ? t('mail.editor.version', { version: template.version }) : t('mail.editor.newText'),
        back,
        actions: [deleteButton, saveButton],
      }),
    );
  }

  mount(ctx.root, headerSlot, formError, h('div', { class: 'editor-grid' }, editorCard, previewCard));
  renderHeader();

  // ---- tabs and modes
  function slotOf(f) {
    return localized ? tab : ALL;
  }

  function fillInputs() {
    nameInput.value = slots.name[slotOf('name')] ?? '';
    subjectInput.value = slots.subject[slotOf('subject')] ?? '';
    bodyInput.value = slots.body[slotOf('body')] ?? '';
    bodyHint.textContent = format === 'mjml' ? t('mail.editor.bodyHintMjml') : t('mail.editor.bodyHintHtml');
    bodyInput.placeholder = format === 'mjml' ? '<mjml>\n  <mj-body>\n    <mj-section><mj-column><mj-text>Hello {name}</mj-text></mj-column></mj-section>\n  </mj-body>\n</mjml>' : '<p>Hello {name},</p>';
  }

  let localeProblems = {};
  function renderTabs() {
    if (!localized) {
      tabBar.replaceChildren();
      return;
    }
    mount(
      tabBar,
      tabs(
        locales.map((l) => ({ id: l, label: localeName(t, l), badge: localeProblems[l] ? '!' : null, badgeLabel: t('mail.editor.tabError') })),
        tab,
        (next) => {
          tab = next;
          renderTabs();
          fillInputs();
          update();
        },
        { label: t('mail.editor.languages'), className: 'locale-tab-list' },
      ),
      h('p', { class: 'field-hint' }, t('mail.editor.fallback')),
    );
  }

  async function setLocalized(on) {
    if (on === localized) return;
    if (!on) {
      // One text for every language: the one of the tab on screen. Others that differ are dropped: ask.
      const differ = FIELDS.some((f) => new Set(locales.map((l) => slots[f][l] ?? '').filter(Boolean)).size > 1);
      const ok =
        !differ ||
        (await confirmDialog({
          title: t('mail.editor.toSingleTitle'),
          text: t('mail.editor.toSingleText', { language: localeName(t, tab) }),
          confirmLabel: t('mail.editor.toSingleConfirm'),
          cancelLabel: t('kit.cancel'),
        }));
      if (!ok) {
        languageSwitch.select('localized');
        return;
      }
    }
    if (on) {
      for (const f of FIELDS) {
        const text = slots[f][ALL] ?? '';
        slots[f] = Object.fromEntries(locales.map((l) => [l, text]));
      }
      tab = locales.includes(ctx.lang) ? ctx.lang : 'en';
    } else {
      // One text for every language: the one of the tab on screen.
      for (const f of FIELDS) slots[f] = { [ALL]: slots[f][tab] ?? slots[f].en ?? '' };
      tab = ALL;
    }
    localized = on;
    markDirty();
    renderTabs();
    fillInputs();
    update();
  }

  async function setFormat(next) {
    if (next === format) return;
    if (next === 'html') {
      // MJML -> HTML: every body becomes its compiled HTML, edited as HTML from now on.
      const ok = await confirmDialog({
        title: t('mail.editor.toHtmlTitle'),
        text: t('mail.editor.toHtmlText'),
        confirmLabel: t('mail.editor.toHtmlConfirm'),
        cancelLabel: t('kit.cancel'),
      });
      if (!ok) {
        formatSwitch.select('mjml');
        return;
      }
      for (const l of Object.keys(slots.body)) {
        if (slots.body[l].trim()) slots.body[l] = (await compileMjml(mjml, slots.body[l])).html;
      }
    }
    format = next;
    markDirty();
    fillInputs();
    update();
  }

  function markDirty() {
    // An edit answers the last refusal: its message goes until the next save.
    formError.hidden = true;
    if (!dirty) {
      dirty = true;
      ctx.setDirty(true);
    }
  }

  nameInput.addEventListener('input', () => {
    slots.name[slotOf('name')] = nameInput.value;
    nameField.setError(null);
    markDirty();
  });
  subjectInput.addEventListener('input', () => {
    slots.subject[slotOf('subject')] = subjectInput.value;
    markDirty();
    update();
  });
  bodyInput.addEventListener('input', () => {
    slots.body[slotOf('body')] = bodyInput.value;
    markDirty();
    update();
  });
  bodyInput.addEventListener('keydown', (event) => {
    // Tab indents inside the body (two spaces) instead of leaving it; Escape then Tab leaves.
    if (event.key !== 'Tab' || event.shiftKey || bodyInput.dataset.escaped === 'true') return;
    event.preventDefault();
    bodyInput.setRangeText('  ', bodyInput.selectionStart, bodyInput.selectionEnd, 'end');
    bodyInput.dispatchEvent(new Event('input'));
  });
  bodyInput.addEventListener('keyup', (event) => {
    if (event.key === 'Escape') bodyInput.dataset.escaped = 'true';
  });
  bodyInput.addEventListener('blur', () => delete bodyInput.dataset.escaped);
  domainSelect.addEventListener('change', () => {
    domainId = domainSelect.value;
    domainField.setError(null);
    markDirty();
  });
  sampleInput.addEventListener('input', () => {
    try {
      localStorage.setItem(key, sampleInput.value);
    } catch {
      // not remembered
    }
    update();
  });
  fillButton.addEventListener('click', () => {
    const sample = parseSample();
    if (!sample.ok) return;
    const extra = sampleFor(lastMissing, lastSections);
    sampleInput.value = JSON.stringify({ ...sample.value, ...extra }, null, 2);
    sampleInput.dispatchEvent(new Event('input'));
  });

  // ---- checks and preview
  function parseSample() {
    try {
      const value = JSON.parse(sampleInput.value || '{}');
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: false, message: t('mail.editor.sampleNotObject') };
      return { ok: true, value };
    } catch (error) {
      return { ok: false, message: t('mail.editor.sampleInvalid', { message: error.message }) };
    }
  }

  // The engine's checks of one text: null, or { code, message, index, line, column }.
  function syntaxError(text) {
    if (!core) return null;
    const compiled = core.compileTemplate(text);
    if (compiled.ok) return null;
    const index = byteOffsetToIndex(text, compiled.offset ?? 0);
    return { code: compiled.code, message: compiled.message, index, ...lineAndColumn(text, index) };
  }

  function problemView(which, error, input_) {
    const text = t.has(`mail.editor.syntax.${error.code}`) ? t(`mail.editor.syntax.${error.code}`) : error.message;
    const where = t('mail.editor.at', { line: error.line, column: error.column });
    return h(
      'span',
      { class: 'syntax-error', dataset: { code: error.code, field: which } },
      `${text} ${where} `,
      h(
        'button',
        {
          type: 'button',
          class: 'link-button',
          dataset: { action: 'show-error' },
          onclick: () => {
            input_.focus();
            const length = tagLength(input_.value, error.index);
            input_.setSelectionRange(error.index, error.index + length);
            // Bring the line into view: a textarea scrolls to the selection on focus in most browsers,
            // and this places it for the others.
            if (input_.tagName === 'TEXTAREA') {
              const lineHeight = Number.parseFloat(getComputedStyle(input_).lineHeight) || 20;
              input_.scrollTop = Math.max(0, (error.line - 3) * lineHeight);
            }
          },
        },
        t('mail.editor.showError'),
      ),
    );
  }

  let lastMissing = [];
  let lastSections = [];
  let updateTimer = 0;
  let generation = 0;
  function update() {
    clearTimeout(updateTimer);
    // The engine answers in microseconds: at once. MJML takes a few milliseconds per compile: after a pause.
    if (format === 'mjml') updateTimer = setTimeout(refresh, 250);
    else refresh();
  }

  async function refresh() {
    const run = ++generation;
    const slot = localized ? tab : ALL;
    const subject = slots.subject[slot] ?? '';
    const source = slots.body[slot] ?? '';
    previewLocale.textContent = localized ? localeName(t, slot) : '';

    // Syntax of every language's texts (for the tab badges); messages for the one on screen.
    localeProblems = {};
    for (const l of localized ? locales : [ALL]) {
      if (syntaxError(slots.subject[l] ?? '') || syntaxError(slots.body[l] ?? '')) localeProblems[l] = true;
    }
    if (localized) {
      for (const button_ of tabBar.querySelectorAll('[role="tab"]')) {
        const badge = button_.querySelector('.tab-badge');
        const has = localeProblems[button_.dataset.tab];
        if (has && !badge) button_.append(h('span', { class: 'tab-badge', title: t('mail.editor.tabError') }, '!'));
        if (!has && badge) badge.remove();
      }
    }
    const subjectProblem = syntaxError(subject);
    const bodyProblem = syntaxError(source);
    subjectField.setError(null);
    bodyField.setError(null);
    if (subjectProblem) showFieldProblem(subjectField, problemView('subject', subjectProblem, subjectInput));
    if (bodyProblem) showFieldProblem(bodyField, problemView('body', bodyProblem, bodyInput));

    // Variables of subject and body together (the resource's `variables`: subject first).
    const info = core && !subjectProblem && !bodyProblem ? mergeInfo(core.compileTemplate(subject), core.compileTemplate(source)) : null;
    renderVariables(info);

    // The HTML that would be stored: MJML compiled first.
    let html = source;
    let mjmlErrors = [];
    if (format === 'mjml' && source.trim()) {
      try {
        const compiled = await compileMjml(mjml, source);
        if (run !== generation) return;
        html = compiled.html;
        mjmlErrors = compiled.errors;
      } catch (error) {
        if (run !== generation) return;
        html = '';
        mjmlErrors = [String(error.message ?? error)];
      }
    }
    if (!core) {
      previewSubject.textContent = subject;
      frame.srcdoc = html;
      return;
    }
    if (subjectProblem || bodyProblem) {
      showPreviewError(t('mail.editor.previewSyntax'));
      renderMissing(null);
      return;
    }
    const htmlProblem = format === 'mjml' ? syntaxError(html) : null;
    if (htmlProblem) {
      showPreviewError(t('mail.editor.mjmlLostTag'));
      renderMissing(null);
      return;
    }

    const sample = parseSample();
    sampleField.setError(sample.ok ? null : sample.message);
    if (!sample.ok) {
      showPreviewError(t('mail.editor.previewSample'));
      return;
    }
    const missing = core.missingVariables(subject, sample.value);
    const missingBody = core.missingVariables(html, sample.value);
    const names = [...new Set([...(missing.ok ? missing.value : []), ...(missingBody.ok ? missingBody.value : [])])];
    lastMissing = names;
    lastSections = info?.sectionFields ?? [];
    renderMissing(names);

    // Missing names are shown as {name} in the preview rather than leaving it blank; a missing section is
    // an empty list.
    const sections = new Set(lastSections.map((s) => s.section));
    const filled = { ...sample.value };
    for (const name of names) filled[name] = sections.has(name) ? [] : `{${name}}`;
    const renderedSubject = core.renderTemplate(subject, filled, 'none');
    const renderedBody = core.renderTemplate(html, filled, 'html');
    const failure = [renderedSubject, renderedBody].find((r) => !r.ok);
    if (failure) {
      showPreviewError(t('mail.editor.renderFailed', { message: failure.message }));
      return;
    }
    previewError.hidden = true;
    previewError.replaceChildren();
    frameWrap.classList.remove('is-stale');
    previewSubject.textContent = renderedSubject.value || '—';
    frame.srcdoc = renderedBody.value;
    if (mjmlErrors.length) {
      previewError.hidden = false;
      mount(previewError, h('div', { class: 'note note-warning' }, icon(icons.alert), h('div', null, h('p', null, t('mail.editor.mjmlWarnings')), mjmlErrors.slice(0, 5).map((e) => h('p', { class: 'mono' }, e)))));
    }
  }

  function showFieldProblem(f, view) {
    f.setError(' ');
    const message = f.element.querySelector('.field-error');
    message.replaceChildren(view);
  }

  function showPreviewError(text) {
    frameWrap.classList.add('is-stale');
    previewError.hidden = false;
    mount(previewError, h('div', { class: 'note note-danger' }, icon(icons.alert), h('p', null, text)));
  }

  function mergeInfo(a, b) {
    if (!a.ok || !b.ok) return null;
    const variables = [...new Set([...a.value.variables, ...b.value.variables])];
    const sections = new Map();
    for (const s of [...a.value.sectionFields, ...b.value.sectionFields]) {
      sections.set(s.section, [...new Set([...(sections.get(s.section) ?? []), ...s.names])]);
    }
    return { variables, sectionFields: [...sections].map(([section, names]) => ({ section, names })) };
  }

  function renderVariables(info) {
    if (!info) {
      mount(variablesBox, h('span', { class: 'muted' }, core ? '—' : t('mail.editor.noCore')));
      return;
    }
    if (!info.variables.length) {
      mount(variablesBox, h('span', { class: 'muted' }, t('mail.editor.noVariables')));
      return;
    }
    const sections = new Map(info.sectionFields.map((s) => [s.section, s.names]));
    mount(
      variablesBox,
      h(
        'span',
        { class: 'chips' },
        info.variables.map((name) =>
          sections.has(name)
            ? h('span', { class: 'chip chip-section', title: t('mail.editor.sectionTitle') }, `#${name}`, sections.get(name).length ? ` (${sections.get(name).join(', ')})` : '')
            : h('span', { class: 'chip', dataset: { variable: name } }, name),
        ),
      ),
    );
  }

  function renderMissing(names) {
    fillButton.disabled = !names?.length;
    if (!names?.length) {
      missingBox.replaceChildren();
      missingBox.hidden = true;
      return;
    }
    missingBox.hidden = false;
    mount(
      missingBox,
      h(
        'div',
        { class: 'note note-warning', dataset: { missing: names.join(',') } },
        icon(icons.alert),
        h('div', null, h('p', null, h('strong', null, t('mail.editor.missingTitle', { count: names.length })), ' ', h('span', { class: 'chips chips-inline' }, names.map((n) => h('span', { class: 'chip chip-warning' }, n)))), h('p', null, t('mail.editor.missingText'))),
      ),
    );
  }

  // ---- save and delete
  async function save() {
    formError.hidden = true;
    let invalid = null;
    const name = localizedValue(slots.name, localized, locales);
    if (!name || (typeof name === 'string' && !name.trim())) {
      nameField.setError(t('kit.form.required'));
      invalid ??= nameInput;
    }
    if (!domainId) {
      domainField.setError(verified.length ? t('mail.editor.domainRequired') : t('mail.editor.domainNone'));
      invalid ??= domainSelect;
    }
    const subject = localizedValue(slots.subject, localized, locales);
    if (!subject) {
      subjectField.setError(t('kit.form.required'));
      invalid ??= subjectInput;
    }
    if (!localizedValue(slots.body, localized, locales)) {
      bodyField.setError(t('kit.form.required'));
      invalid ??= bodyInput;
    }
    if (Object.keys(localeProblems).length) {
      invalid ??= bodyInput;
      showFormError(t('mail.editor.fixSyntax'));
    } else if (invalid) {
      showFormError(t('kit.form.fix'));
    }
    if (invalid) {
      invalid.focus();
      return;
    }
    saveButton.disabled = true;
    saveButton.setAttribute('aria-busy', 'true');
    saveButton.querySelector('.btn-label').textContent = t('kit.form.busy');
    try {
      // MJML bodies are compiled here; the API stores HTML (with the source kept in a comment).
      const bodySlots = { ...slots.body };
      if (format === 'mjml') {
        for (const [l, text] of Object.entries(bodySlots)) {
          if (!text.trim()) continue;
          const compiled = await compileMjml(mjml, text);
          bodySlots[l] = withSource(compiled.html, text);
        }
      }
      const payload = { name, subject, body: localizedValue(bodySlots, localized, locales), domainId };
      const saved = id
        ? await ctx.api.patch(mailPath(ctx, 'templates', id), payload)
        : await ctx.api.post(mailPath(ctx, 'templates'), payload);
      dirty = false;
      ctx.setDirty(false);
      ctx.clearError();
      if (!id) {
        // The sample typed for the new template goes with it.
        try {
          localStorage.setItem(sampleKey(ctx.company.slug, saved.id), sampleInput.value);
          localStorage.removeItem(key);
        } catch {
          // not remembered
        }
        ctx.toast(t('mail.editor.created'));
        ctx.navigate(ctx.href('templates', saved.id), { replace: true, force: true });
        return;
      }
      template = saved;
      ctx.toast(t('mail.editor.saved', { version: saved.version }));
      renderHeader();
    } catch (error) {
      showFormError(describeError(error, t));
      if (error.status === 0 || error.status === 429 || error.status >= 500 || error.status === 401) ctx.reportError(error);
    } finally {
      saveButton.disabled = false;
      saveButton.removeAttribute('aria-busy');
      saveButton.querySelector('.btn-label').textContent = id ? t('mail.editor.save') : t('mail.editor.create');
    }
  }

  function showFormError(text) {
    formError.hidden = false;
    formError.replaceChildren(icon(icons.alert), h('span', null, text));
  }

  saveButton.addEventListener('click', save);
  ctx.root.addEventListener('keydown', (event) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
      event.preventDefault();
      save();
    }
  });
  deleteButton?.addEventListener('click', async () => {
    const ok = await confirmDialog({
      title: t('mail.editor.deleteTitle'),
      text: t('mail.editor.deleteText'),
      confirmLabel: t('mail.editor.delete'),
      cancelLabel: t('kit.cancel'),
      danger: true,
    });
    if (!ok) return;
    deleteButton.disabled = true;
    try {
      await ctx.api.del(mailPath(ctx, 'templates', id));
      ctx.setDirty(false);
      ctx.toast(t('mail.editor.deleted'));
      ctx.navigate(ctx.href('templates'), { force: true });
    } catch (error) {
      deleteButton.disabled = false;
      ctx.reportError(error);
    }
  });

  renderTabs();
  fillInputs();
  await refresh();
  if (!id) nameInput.focus();
  return () => clearTimeout(updateTimer);
}

function localeName(t, locale) {
  return t.has(`mail.locale.${locale}`) ? t(`mail.locale.${locale}`) : locale;
}

// A small segmented control (radio buttons styled as one bar).
function segmented(items, selected, onChange, { label, name, small = false }) {
  const group = uid(name);
  const element = h(
    'div',
    { class: ['segmented', small && 'segmented-small'], role: 'radiogroup', 'aria-label': label, dataset: { name } },
    items.map((item) =>
      h(
        'label',
        { class: 'segment' },
        h('input', {
          type: 'radio',
          name: group,
          value: item.id,
          checked: item.id === selected,
          onchange: (event) => event.target.checked && onChange(item.id),
        }),
        h('span', null, item.label),
      ),
    ),
  );
  return {
    element,
    select(id) {
      for (const radio of element.querySelectorAll('input')) radio.checked = radio.value === id;
    },
  };
}
