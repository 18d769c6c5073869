// Taking a payment: the amount on a keypad (digits, 00, delete) or "Exact amount" (what is due), checked
// live by the core's payment rule (at most what is due: no tips, no change through payments).
import { h, icon, uid } from '../../dashboard/kit/dom.js';
import { minorFromDigits, money } from '../format.js';
import { kitIcons, tillIcons } from '../icons.js';

// validate(amountMinor) -> a sentence or null. Resolves the amount, or null when cancelled.
export function askPayment({ t, method, dueMinor, validate }) {
  return new Promise((resolve) => {
    let digits = '';
    const titleId = uid('pay');
    const display = h('output', { class: 'keypad-display', dataset: { role: 'amount' } });
    const problem = h('p', { class: 'field-error', hidden: true, dataset: { role: 'problem' } });
    const confirm = h('button', { type: 'submit', value: 'pay', class: 'btn btn-primary btn-large', dataset: { action: 'pay' } });

    function refresh() {
      const minor = minorFromDigits(digits);
      display.textContent = money(minor, t.locale);
      display.dataset.minor = String(minor);
      const message = minor > 0 ? validate(minor) : null;
      problem.textContent = message ?? '';
      problem.hidden = !message;
      confirm.disabled = minor <= 0 || Boolean(message);
      confirm.textContent = t('till.pay.take', { amount: money(minor, t.locale) });
    }
    const press = (key) => () => {
      if (key === 'back') digits = digits.slice(0, -1);
      else if (key === 'clear') digits = '';
      else if (digits.length < 13) digits += key;
      digits = digits.replace(/^0+/, '');
      refresh();
    };
    const keys = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '00', '0', 'back'].map((key) =>
      h(
        'button',
        { type: 'button', class: 'keypad-key', dataset: { key }, 'aria-label': key === 'back' ? t('till.pay.delete') : null, onclick: press(key) },
        key === 'back' ? icon(kitIcons.back) : key,
      ),
    );
    const dialog = h(
      'dialog',
      { class: 'dialog till-dialog pay-dialog', 'aria-labelledby': titleId, dataset: { method } },
      h(
        'form',
        { method: 'dialog', class: 'dialog-body' },
        h('h2', { class: 'dialog-title', id: titleId }, icon(method === 'card' ? tillIcons.card : tillIcons.cash), ' ', t(`till.pay.title.${method}`)),
        h('p', { class: 'pay-due' }, t('till.pay.due'), ' ', h('strong', { dataset: { minor: dueMinor } }, money(dueMinor, t.locale))),
        display,
        h('div', { class: 'keypad' }, keys),
        h(
          'div',
          { class: 'keypad-extra' },
          h('button', { type: 'button', class: 'btn btn-secondary btn-large', dataset: { action: 'exact' }, onclick: () => { digits = String(dueMinor); refresh(); } }, t('till.pay.exact')),
          h('button', { type: 'button', class: 'btn btn-ghost btn-large', dataset: { action: 'clear' }, onclick: press('clear') }, t('till.pay.clear')),
        ),
        problem,
        h('div', { class: 'dialog-actions' }, h('button', { type: 'submit', value: 'cancel', class: 'btn btn-secondary btn-large', dataset: { action: 'cancel' } }, t('kit.cancel')), confirm),
      ),
    );
    dialog.addEventListener('close', () => {
      resolve(dialog.returnValue === 'pay' ? minorFromDigits(digits) : null);
      dialog.remove();
    });
    refresh();
    document.body.append(dialog);
    dialog.showModal();
  });
}
