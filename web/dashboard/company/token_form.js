// The form that creates an access token: its name, the permissions from the picker, and an optional limit
// to one restaurant branch (`restaurant.branch:<id>`, read and write on that branch: what a paired till
// holds). Who may grant what is the server's rule (a member grants only permissions it holds): its refusal
// shows at the form's foot, and beside the picker when it is about a permission.
import { describeError } from '../kit/api.js';
import { h } from '../kit/dom.js';
import { createForm, input, select } from '../kit/form.js';
import { icons } from '../kit/icons.js';
import { button } from '../kit/ui.js';
import { BRANCH_SCOPE } from './permissions.js';
import { permissionPicker } from './picker.js';

// branches: the company's restaurant branches ([] hides the branch select). onCreated(answer) gets the
// POST's answer, which alone holds the plaintext `token`.
export function tokenForm(ctx, { path, branches, onCreated, onCancel }) {
  const { t } = ctx;
  const picker = permissionPicker(t);
  const fields = [
    {
      name: 'name',
      label: t('company.tokens.name'),
      hint: t('company.tokens.nameHint'),
      required: true,
      control: input({ name: 'name', autocomplete: 'off', maxlength: 200, placeholder: t('company.tokens.namePlaceholder') }),
    },
  ];
  if (branches.length) {
    fields.push({
      name: 'branch',
      label: t('company.tokens.branch'),
      hint: t('company.tokens.branchHint'),
      control: select({
        name: 'branch',
        value: '',
        options: [
          { value: '', label: t('company.tokens.branchNone') },
          ...branches.map((b) => ({ value: b.id, label: b.active === false ? t('company.tokens.inactive', { name: b.name }) : b.name })),
        ],
      }),
    });
  }

  const form = createForm({
    t,
    id: 'create-token',
    submitLabel: t('company.tokens.create'),
    submitIcon: icons.plus,
    busyLabel: t('company.tokens.creating'),
    fields,
    layout: (wired) => [h('div', { class: 'grid-2' }, wired.name.element, wired.branch?.element), picker.element],
    fieldOf: (error) => (/'name'/.test(error.message) ? 'name' : null),
    actions: [button(t('kit.cancel'), { variant: 'ghost', onclick: onCancel })],
    async onSubmit({ name, branch }) {
      picker.setError(null);
      const permissions = [...picker.values(), ...(branch ? [`${BRANCH_SCOPE}${branch}`] : [])];
      if (!permissions.length) {
        picker.setError(t('company.tokens.permissionsRequired'));
        setTimeout(() => picker.focus()); // once the form is no longer busy (disabled)
        throw new Error(t('kit.form.fix'));
      }
      let created;
      try {
        created = await ctx.api.post(path, { name: name.trim(), permissions });
      } catch (error) {
        // `unknown permission 'x'` (400), `cannot grant permission 'x' that the caller does not hold` (403).
        if (/unknown permission|grant permission/.test(error?.message ?? '')) picker.setError(describeError(error, t));
        throw error;
      }
      reset();
      onCreated(created);
    },
  });

  function reset() {
    form.reset();
    picker.reset();
  }

  return { element: form.element, focus: () => form.fields.name.control.focus(), reset };
}
