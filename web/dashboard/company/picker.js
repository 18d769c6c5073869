// The permission picker of the token form: the platform's plain permissions as checkboxes in their groups
// (permissions.js), each with its words and its name. A checked `<resource>.manage` shows the names it covers
// as checked and "included"; those are not sent, since the server grants them through it.
import { h, uid } from '../kit/dom.js';
import { PERMISSION_GROUPS, covers } from './permissions.js';

// Answers { element, values() -> the chosen names, reset(), setError(text), focus() }.
export function permissionPicker(t) {
  const id = uid('permissions');
  const message = h('p', { class: 'field-error', id: `${id}-error`, hidden: true });
  const boxes = [];

  function option(name) {
    const box = h('input', { type: 'checkbox', name: 'permission', value: name, onchange: sync });
    boxes.push(box);
    return h(
      'li',
      null,
      h(
        'label',
        { class: 'permission-option', dataset: { permission: name } },
        box,
        h(
          'span',
          { class: 'permission-text' },
          h('span', { class: 'permission-label' }, t(`company.perm.${name}`), h('span', { class: 'permission-included', hidden: true }, t('company.tokens.included'))),
          h('code', { class: 'permission-name' }, name),
        ),
      ),
    );
  }

  const element = h(
    'fieldset',
    { class: 'field permission-picker', id, 'aria-describedby': `${id}-hint ${id}-error` },
    h('legend', { class: 'field-label' }, t('company.tokens.permissions')),
    h('p', { class: 'field-hint', id: `${id}-hint` }, t('company.tokens.permissionsHint')),
    h(
      'div',
      { class: 'permission-groups' },
      PERMISSION_GROUPS.map((group) =>
        h(
          'div',
          { class: 'permission-group', role: 'group', 'aria-labelledby': `${id}-${group.id}`, dataset: { group: group.id } },
          h('p', { class: 'permission-group-title', id: `${id}-${group.id}` }, t(`company.group.${group.id}`)),
          h('ul', { class: 'permission-options' }, group.permissions.map(option)),
        ),
      ),
    ),
    message,
  );

  // A covered box keeps what was chosen for it (data-own) and gets it back when the covering `manage` goes.
  function sync() {
    const chosen = boxes.filter((b) => b.checked && !b.dataset.covered).map((b) => b.value);
    for (const box of boxes) {
      const covered = chosen.some((name) => covers(name, box.value));
      if (covered && !box.dataset.covered) {
        box.dataset.own = String(box.checked);
        box.dataset.covered = 'true';
        box.checked = true;
        box.disabled = true;
      } else if (!covered && box.dataset.covered) {
        box.checked = box.dataset.own === 'true';
        delete box.dataset.own;
        delete box.dataset.covered;
        box.disabled = false;
      }
      const label = box.closest('.permission-option');
      label.classList.toggle('is-included', covered);
      label.querySelector('.permission-included').hidden = !covered;
    }
    setError(null);
  }

  function setError(text) {
    message.textContent = text ?? '';
    message.hidden = !text;
    element.classList.toggle('has-error', Boolean(text));
  }

  return {
    element,
    values: () => boxes.filter((b) => b.checked && !b.dataset.covered).map((b) => b.value),
    reset() {
      for (const box of boxes) {
        box.checked = false;
        delete box.dataset.covered;
        delete box.dataset.own;
        box.disabled = false;
      }
      sync();
    },
    setError,
    focus: () => boxes.find((b) => !b.disabled)?.focus(),
  };
}
