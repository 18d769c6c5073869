// Small building blocks shared by every dashboard page: buttons, cards, status pills, empty states,
// key-value lists, tabs (and tabs with panels), times, the confirmation dialog.
import { append, h, icon, uid } from './dom.js';
import { icons } from './icons.js';

// variant: primary (default), secondary, ghost, danger. `icon`: an entry of kit/icons.js. Other options are
// attributes (onclick, disabled, dataset, aria-*...).
export function button(label, { variant = 'primary', icon: drawing, type = 'button', className, ...attrs } = {}) {
  return h(
    'button',
    { ...attrs, type, class: ['btn', `btn-${variant}`, className] },
    drawing ? icon(drawing) : null,
    h('span', { class: 'btn-label' }, label),
  );
}

// A link that looks like a button.
export function linkButton(label, href, { variant = 'primary', icon: drawing, className, ...attrs } = {}) {
  return h(
    'a',
    { ...attrs, href, class: ['btn', `btn-${variant}`, className] },
    drawing ? icon(drawing) : null,
    h('span', { class: 'btn-label' }, label),
  );
}

export function card({ title, subtitle, actions, className, ...attrs } = {}, ...children) {
  const headingId = title ? uid('card') : null;
  return h(
    'section',
    { class: ['card', className], 'aria-labelledby': headingId, ...attrs },
    title || actions
      ? h(
          'header',
          { class: 'card-header' },
          h(
            'div',
            { class: 'card-titles' },
            title ? h('h2', { class: 'card-title', id: headingId }, title) : null,
            subtitle ? h('p', { class: 'card-subtitle' }, subtitle) : null,
          ),
          actions ? h('div', { class: 'card-actions' }, actions) : null,
        )
      : null,
    children,
  );
}

// tone: success, warning, danger, info, neutral.
export function pill(label, tone = 'neutral', attrs = {}) {
  return h('span', { class: ['pill', `pill-${tone}`], ...attrs }, h('span', { class: 'pill-dot', 'aria-hidden': 'true' }), label);
}

// A pass/fail/unknown mark with its label, for per-record checks.
export function checkMark(state, label, { passText, failText, unknownText }) {
  const tone = state === true ? 'success' : state === false ? 'danger' : 'neutral';
  const drawing = state === true ? icons.check : state === false ? icons.x : icons.clock;
  const text = state === true ? passText : state === false ? failText : unknownText;
  return h(
    'span',
    { class: ['check', `check-${tone}`], dataset: { check: label.toLowerCase(), state: String(state) } },
    icon(drawing),
    h('span', { class: 'check-name' }, label),
    h('span', { class: 'sr-only' }, `: ${text}`),
  );
}

export function emptyState({ title, text, action, drawing = icons.info }) {
  return h(
    'div',
    { class: 'empty' },
    h('div', { class: 'empty-icon', 'aria-hidden': 'true' }, icon(drawing)),
    h('p', { class: 'empty-title' }, title),
    text ? h('p', { class: 'empty-text' }, text) : null,
    action ? h('div', { class: 'empty-action' }, action) : null,
  );
}

export function spinner(label) {
  return h('span', { class: 'spinner-wrap', role: 'status' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), h('span', { class: 'sr-only' }, label));
}

export function loadingBlock(label) {
  return h('div', { class: 'loading-block' }, spinner(label), h('span', { 'aria-hidden': 'true' }, label));
}

// [[term, value], ...] as a <dl>; a null value is skipped.
export function details(rows, className) {
  return h(
    'dl',
    { class: ['details', className] },
    rows
      .filter(([, value]) => value !== null && value !== undefined && value !== '')
      .map(([term, value]) => h('div', { class: 'details-row' }, h('dt', null, term), h('dd', null, value))),
  );
}

export function mono(text, className) {
  return h('code', { class: ['mono', className] }, text);
}

// Tabs over `items` ([{id, label}]); onSelect(id) when one is chosen. Arrow keys move between tabs.
export function tabs(items, selected, onSelect, { label, className } = {}) {
  const list = h('div', { class: ['tabs', className], role: 'tablist', 'aria-label': label });
  const buttons = items.map((item) =>
    h(
      'button',
      {
        type: 'button',
        role: 'tab',
        class: 'tab',
        'aria-selected': String(item.id === selected),
        tabindex: item.id === selected ? '0' : '-1',
        dataset: { tab: item.id },
        onclick: () => onSelect(item.id),
        onkeydown: (event) => {
          const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
          if (!step) return;
          event.preventDefault();
          const index = (items.findIndex((i) => i.id === item.id) + step + items.length) % items.length;
          onSelect(items[index].id);
          list.querySelector(`[data-tab="${CSS.escape(items[index].id)}"]`)?.focus();
        },
      },
      item.label,
      item.badge ? h('span', { class: 'tab-badge', title: item.badgeLabel ?? null }, item.badge) : null,
    ),
  );
  list.append(...buttons);
  list.select = (id) => {
    for (const b of buttons) {
      const on = b.dataset.tab === id;
      b.setAttribute('aria-selected', String(on));
      b.tabIndex = on ? 0 : -1;
    }
  };
  return list;
}

// Tabs with their panels: items [{ id, label, render() -> node }]. A panel is drawn the first time its tab
// is shown and then kept (hidden), so what was typed in one tab survives a visit to another. onChange(id) is
// told of every switch (to put the tab into the address). Answers { element, select(id), invalidate(id) }:
// invalidate() drops a kept panel so it is drawn again when next shown (its data changed).
export function tabPanels(items, selected, { label, onChange, className } = {}) {
  const prefix = uid('tabs');
  const panels = new Map();
  const stack = h('div', { class: 'tab-panels' });
  let current = null;
  const list = tabs(items, selected, (id) => {
    if (id === current) return;
    show(id);
    onChange?.(id);
  }, { label, className });
  for (const button of list.querySelectorAll('[role="tab"]')) {
    button.id = `${prefix}-tab-${button.dataset.tab}`;
    button.setAttribute('aria-controls', `${prefix}-panel-${button.dataset.tab}`);
  }

  function show(id) {
    const item = items.find((i) => i.id === id) ?? items[0];
    current = item.id;
    list.select(item.id);
    if (!panels.has(item.id)) {
      const panel = h('div', {
        class: 'tab-panel',
        role: 'tabpanel',
        id: `${prefix}-panel-${item.id}`,
        'aria-labelledby': `${prefix}-tab-${item.id}`,
        dataset: { panel: item.id },
      });
      append(panel, item.render());
      panels.set(item.id, panel);
      stack.append(panel);
    }
    for (const [id2, panel] of panels) panel.hidden = id2 !== item.id;
  }

  show(selected);
  return {
    element: h('div', { class: 'tabbed' }, list, stack),
    select: show,
    get current() {
      return current;
    },
    invalidate(id) {
      const panel = panels.get(id);
      if (!panel) return;
      panels.delete(id);
      panel.remove();
      if (current === id) show(id);
    },
  };
}

// A <time> showing `5 minutes ago` with the absolute time as its title; kept fresh by the ticker below.
let currentI18n = null;
export function setTimeI18n(i18n) {
  currentI18n = i18n;
}

export function timeAgo(value, { seconds = false } = {}) {
  if (!value || !currentI18n) return h('span', { class: 'muted' }, '—');
  return h(
    'time',
    {
      datetime: String(value),
      title: currentI18n.dateTime(value, { seconds: true }),
      dataset: { relative: seconds ? 'seconds' : 'yes' },
    },
    currentI18n.relative(value),
  );
}

export function absoluteTime(value, { seconds = false } = {}) {
  if (!value || !currentI18n) return h('span', { class: 'muted' }, '—');
  return h('time', { datetime: String(value), title: currentI18n.relative(value) }, currentI18n.dateTime(value, { seconds }));
}

if (typeof window !== 'undefined') {
  setInterval(() => {
    if (!currentI18n) return;
    for (const element of document.querySelectorAll('time[data-relative]')) {
      element.textContent = currentI18n.relative(element.dateTime);
    }
  }, 30_000);
}

// A modal confirmation (<dialog>). Resolves true when confirmed, false when cancelled or closed.
export function confirmDialog({ title, text, confirmLabel, cancelLabel, danger = false, details: extra }) {
  return new Promise((resolve) => {
    const titleId = uid('dialog');
    const textId = uid('dialog-text');
    const dialog = h(
      'dialog',
      { class: 'dialog', 'aria-labelledby': titleId, 'aria-describedby': textId },
      h(
        'form',
        { method: 'dialog', class: 'dialog-body' },
        h('h2', { class: 'dialog-title', id: titleId }, title),
        h('p', { class: 'dialog-text', id: textId }, text),
        extra ?? null,
        h(
          'div',
          { class: 'dialog-actions' },
          h('button', { type: 'submit', value: 'cancel', class: 'btn btn-secondary', dataset: { action: 'cancel' } }, cancelLabel),
          h(
            'button',
            { type: 'submit', value: 'confirm', class: ['btn', danger ? 'btn-danger' : 'btn-primary'], dataset: { action: 'confirm' } },
            confirmLabel,
          ),
        ),
      ),
    );
    dialog.addEventListener('close', () => {
      resolve(dialog.returnValue === 'confirm');
      dialog.remove();
    });
    document.body.append(dialog);
    dialog.showModal();
    dialog.querySelector('[data-action="cancel"]').focus();
  });
}
