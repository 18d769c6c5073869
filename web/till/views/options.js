// The option picker of a product with option groups: one fieldset per group (radio buttons when one may be
// chosen, checkboxes otherwise; "None" while the group is optional), a quantity stepper, and the price the
// core computes for the choice (core.priceItem: the unit price the server will snapshot). Add stays off
// while the core refuses the choice (a required group without a pick, too many picks).
import { h, icon, uid } from '../../dashboard/kit/dom.js';
import { money } from '../format.js';
import { kitIcons, tillIcons } from '../icons.js';
import { groupsOf } from '../menu.js';

function groupHint(group, t) {
  const min = group.minSelect ?? 0;
  const max = group.maxSelect ?? 1;
  if (min === 0 && max === 1) return t('till.options.optionalOne');
  if (min === 0) return t('till.options.upTo', { max });
  if (min === max) return t('till.options.exactly', { count: min });
  return t('till.options.between', { min, max });
}

// Resolves {optionIds, quantity}, or null when cancelled.
export function chooseOptions({ t, core, menu, product }) {
  return new Promise((resolve) => {
    const groups = groupsOf(menu, product);
    const chosen = new Map(groups.map((g) => [g.id, new Set()]));
    let quantity = 1;
    const titleId = uid('options');
    const price = h('p', { class: 'options-price', dataset: { role: 'price' } });
    const problem = h('p', { class: 'field-error', hidden: true, dataset: { role: 'problem' } });
    const addButton = h('button', { type: 'submit', value: 'add', class: 'btn btn-primary btn-large', dataset: { action: 'add' } }, t('till.options.add'));
    const quantityText = h('output', { class: 'stepper-value', dataset: { role: 'quantity' } }, '1');

    const fieldsets = groups.map((group) => {
      const single = (group.maxSelect ?? 1) === 1;
      const name = uid('group');
      const inputs = [];
      const choice = (option) => {
        const input = h('input', {
          type: single ? 'radio' : 'checkbox',
          name,
          value: option ? option.id : '',
          checked: option === null && single,
          dataset: { option: option?.id ?? 'none' },
          onchange: () => {
            const set = chosen.get(group.id);
            if (single) {
              set.clear();
              if (option) set.add(option.id);
            } else if (input.checked) set.add(option.id);
            else set.delete(option.id);
            refresh();
          },
        });
        inputs.push(input);
        return h(
          'label',
          { class: 'option-choice' },
          input,
          h('span', { class: 'option-name' }, option ? option.name : t('till.options.none')),
          option?.priceDeltaMinor ? h('span', { class: 'option-delta' }, `+${money(option.priceDeltaMinor, t.locale)}`) : null,
        );
      };
      return h(
        'fieldset',
        { class: 'option-group', dataset: { group: group.id } },
        h('legend', null, h('span', { class: 'option-group-name' }, group.name), h('span', { class: 'option-group-hint' }, groupHint(group, t))),
        single && (group.minSelect ?? 0) === 0 ? choice(null) : null,
        group.options.map((o) => choice(o)),
      );
    });

    function refresh() {
      quantityText.textContent = String(quantity);
      const optionIds = [...chosen.values()].flatMap((s) => [...s]);
      const priced = core.priceItem(product, groups, optionIds);
      if (priced.ok) {
        price.textContent = t('till.options.price', { unit: money(priced.value.unitPriceMinor, t.locale), quantity, total: money(priced.value.unitPriceMinor * quantity, t.locale) });
        price.dataset.minor = String(priced.value.unitPriceMinor * quantity);
        problem.hidden = true;
        addButton.disabled = false;
      } else {
        price.textContent = '';
        problem.textContent = t.has(`till.error.${priced.code}`) ? t(`till.error.${priced.code}`) : priced.message;
        problem.hidden = false;
        addButton.disabled = true;
      }
      return optionIds;
    }

    const step = (delta) => () => {
      quantity = Math.min(99, Math.max(1, quantity + delta));
      refresh();
    };
    const dialog = h(
      'dialog',
      { class: 'dialog till-dialog options-dialog', 'aria-labelledby': titleId },
      h(
        'form',
        { method: 'dialog', class: 'dialog-body' },
        h('h2', { class: 'dialog-title', id: titleId }, product.name),
        h('div', { class: 'option-groups' }, fieldsets),
        h(
          'div',
          { class: 'stepper', role: 'group', 'aria-label': t('till.options.quantity') },
          h('button', { type: 'button', class: 'btn btn-secondary btn-icon-large', 'aria-label': t('till.options.less'), dataset: { action: 'less' }, onclick: step(-1) }, icon(tillIcons.minus)),
          quantityText,
          h('button', { type: 'button', class: 'btn btn-secondary btn-icon-large', 'aria-label': t('till.options.more'), dataset: { action: 'more' }, onclick: step(1) }, icon(kitIcons.plus)),
        ),
        price,
        problem,
        h(
          'div',
          { class: 'dialog-actions' },
          h('button', { type: 'submit', value: 'cancel', class: 'btn btn-secondary btn-large', dataset: { action: 'cancel' } }, t('kit.cancel')),
          addButton,
        ),
      ),
    );
    dialog.addEventListener('close', () => {
      const optionIds = [...chosen.values()].flatMap((s) => [...s]);
      resolve(dialog.returnValue === 'add' ? { optionIds, quantity } : null);
      dialog.remove();
    });
    refresh();
    document.body.append(dialog);
    dialog.showModal();
  });
}
