// Forms with their own validation messages (in the page's language, beside each field) and a busy state
// while the request runs (inputs and buttons disabled, the submit button says so). A failure of the request
// shows above the buttons; the form keeps what was typed.
import { describeError } from './api.js';
import { h, icon, uid } from './dom.js';
import { icons } from './icons.js';
import { spinner } from './ui.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

// A labelled control: the label, the control, a hint and the place for its message, wired with ids. A
// switch (toggle()) puts its label and hint beside the control instead of above it. `suffix` (text or a node)
// sits at the control's end, joined to it (`@example.com` after the local part of an address).
export function field({ label, hint, control, className, suffix }) {
  const id = control.id || uid('field');
  control.id = id;
  const hintId = hint ? `${id}-hint` : null;
  const errorId = `${id}-error`;
  control.setAttribute('aria-describedby', [hintId, errorId].filter(Boolean).join(' '));
  const message = h('p', { class: 'field-error', id: errorId, hidden: true });
  const labelElement = h('label', { class: 'field-label', for: id }, label);
  const hintElement = hint ? h('p', { class: 'field-hint', id: hintId }, hint) : null;
  const isSwitch = control.classList.contains('toggle');
  const element = isSwitch
    ? h('div', { class: ['field', 'field-switch', className] }, control, h('div', { class: 'field-switch-text' }, labelElement, hintElement, message))
    : h(
        'div',
        { class: ['field', className] },
        labelElement,
        suffix !== undefined && suffix !== null ? h('div', { class: 'input-group' }, control, h('span', { class: 'input-suffix' }, suffix)) : control,
        hintElement,
        message,
      );
  return {
    element,
    control,
    hint: hintElement,
    setError(text) {
      message.textContent = text ?? '';
      message.hidden = !text;
      element.classList.toggle('has-error', Boolean(text));
      if (text) control.setAttribute('aria-invalid', 'true');
      else control.removeAttribute('aria-invalid');
    },
  };
}

export function input({ name, type = 'text', value = '', ...attrs }) {
  return h('input', { class: 'input', name, type, value, spellcheck: 'false', ...attrs });
}

export function select({ name, options, value, ...attrs }) {
  return h(
    'select',
    { class: 'input select', name, ...attrs },
    options.map((o) => h('option', { value: o.value, selected: o.value === value, disabled: o.disabled }, o.label)),
  );
}

// An on/off switch: a checkbox drawn as a switch (role="switch", so screen readers say on and off). Its
// value in createForm's values() is a boolean.
export function toggle({ name, checked = false, ...attrs }) {
  return h('input', { class: 'toggle', type: 'checkbox', role: 'switch', name, checked: Boolean(checked), ...attrs });
}

export function textarea({ name, value = '', ...attrs }) {
  return h('textarea', { class: 'input textarea', name, value, spellcheck: 'false', ...attrs });
}

// fields: [{ name, label, hint, control, suffix, required, email, validate(value, values) -> message or null }].
// onSubmit(values) may throw (an ApiError): its sentence shows in the form, and beside the field that
// `fieldOf(error)` names (the server's refusal mapped to the input it is about), which is then focused.
// `layout(fields)` arranges the fields' elements (sections, cards) inside the form; by default they stand in
// order. Answers { element, fields, setBusy, setError, setFieldError, reset, values }.
export function createForm({ t, fields, submitLabel, submitIcon, busyLabel, onSubmit, actions = [], className, inline = false, id, layout, fieldOf }) {
  const wired = {};
  for (const f of fields) wired[f.name] = { ...f, ...field({ label: f.label, hint: f.hint, control: f.control, className: f.className, suffix: f.suffix }) };
  const formError = h('div', { class: 'form-error', role: 'alert', hidden: true });
  const submitText = h('span', { class: 'btn-label' }, submitLabel);
  const submit = h('button', { type: 'submit', class: 'btn btn-primary', dataset: { role: 'submit' } }, submitIcon ? icon(submitIcon) : null, submitText);
  const fieldset = h('fieldset', { class: 'form-fields' }, layout ? layout(wired) : Object.values(wired).map((f) => f.element));
  const element = h(
    'form',
    { class: ['form', inline && 'form-inline', className], novalidate: true, id },
    fieldset,
    formError,
    h('div', { class: 'form-actions' }, submit, actions),
  );

  function values() {
    const out = {};
    for (const [name, f] of Object.entries(wired)) out[name] = f.control.type === 'checkbox' ? f.control.checked : f.control.value;
    return out;
  }

  function setError(text) {
    formError.replaceChildren(...(text ? [icon(icons.alert), h('span', null, text)] : []));
    formError.hidden = !text;
  }

  let busy = false;
  function setBusy(on) {
    busy = on;
    fieldset.disabled = on;
    submit.disabled = on;
    element.setAttribute('aria-busy', String(on));
    for (const a of actions) if (a instanceof HTMLButtonElement) a.disabled = on;
    submit.replaceChildren(...(on ? [spinner(busyLabel ?? t('kit.form.busy')), h('span', { class: 'btn-label' }, busyLabel ?? t('kit.form.busy'))] : [submitIcon ? icon(submitIcon) : '', submitText]));
  }

  function validate(all) {
    let first = null;
    for (const f of Object.values(wired)) {
      const value = all[f.name];
      const text = typeof value === 'string' ? value.trim() : value;
      let message = null;
      if (f.required && (text === '' || text === false)) message = t('kit.form.required');
      else if (f.email && text && !EMAIL.test(text)) message = t('kit.form.email');
      else if (f.validate) message = f.validate(text, all) ?? null;
      f.setError(message);
      if (message && !first) first = f;
    }
    return first;
  }

  element.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (busy) return;
    const all = values();
    const invalid = validate(all);
    if (invalid) {
      setError(t('kit.form.fix'));
      invalid.control.focus();
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await onSubmit(all);
    } catch (error) {
      const sentence = describeError(error, t);
      setError(sentence);
      const name = error?.name === 'AbortError' ? null : fieldOf?.(error);
      if (name && wired[name]) {
        wired[name].setError(sentence);
        // After the busy state ends: a disabled control cannot take the focus.
        queueMicrotask(() => {
          wired[name].control.focus();
          wired[name].element.scrollIntoView({ block: 'center', behavior: 'smooth' });
        });
      }
    } finally {
      if (element.isConnected) setBusy(false);
    }
  });
  // A field's message goes as soon as it is edited.
  for (const f of Object.values(wired)) {
    f.control.addEventListener('input', () => f.setError(null));
    f.control.addEventListener('change', () => f.setError(null));
  }

  return {
    element,
    fields: wired,
    submit,
    values,
    setBusy,
    setError,
    setFieldError: (name, text) => wired[name]?.setError(text),
    reset() {
      element.reset();
      for (const f of Object.values(wired)) f.setError(null);
      setError(null);
    },
  };
}
