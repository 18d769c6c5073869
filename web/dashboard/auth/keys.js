// A project's API keys (`aps_`: create with the plaintext shown once, list by prefix, revoke) and its
// signing keys (the kids jwks.json publishes, the current one marked; rotate).
import { copyable } from '../kit/clipboard.js';
import { h, icon, mount } from '../kit/dom.js';
import { createForm, input } from '../kit/form.js';
import { icons } from '../kit/icons.js';
import { listTable } from '../kit/table.js';
import { button, card, confirmDialog, mono, pill, timeAgo } from '../kit/ui.js';
import { authPath } from './common.js';

export function keysSection(ctx, state) {
  const { t } = ctx;
  const pid = state.project.id;
  const secret = h('div', { id: 'new-key', 'aria-live': 'polite' });

  // The plaintext exists only in this answer: it is shown here until dismissed, and never again.
  function showSecret(created) {
    const done = button(t('auth.keys.done'), {
      variant: 'secondary',
      icon: icons.check,
      dataset: { action: 'dismiss-key' },
      onclick: () => secret.replaceChildren(),
    });
    mount(
      secret,
      h(
        'div',
        { class: 'note note-warning secret-note', role: 'status' },
        icon(icons.key),
        h(
          'div',
          { class: 'secret-body' },
          h('p', null, h('strong', null, t('auth.keys.newTitle'))),
          h('p', null, t('auth.keys.newText')),
          copyable(created.key, t, { what: t('auth.keys.key'), className: 'secret-value' }),
          h('div', null, done),
        ),
      ),
    );
    secret.querySelector('.btn-copy')?.focus();
  }

  const form = createForm({
    t,
    inline: true,
    id: 'create-key',
    submitLabel: t('auth.keys.create'),
    submitIcon: icons.plus,
    busyLabel: t('auth.keys.creating'),
    fields: [
      {
        name: 'name',
        label: t('auth.keys.name'),
        hint: t('auth.keys.nameHint'),
        control: input({ name: 'name', autocomplete: 'off', maxlength: 100, placeholder: t('auth.keys.namePlaceholder') }),
      },
    ],
    fieldOf: (error) => (/'name'/.test(error.message) ? 'name' : null),
    async onSubmit({ name }) {
      const created = await ctx.api.post(authPath(ctx, pid, 'keys'), { name: name.trim() });
      form.reset();
      showSecret(created);
      ctx.toast(t('auth.keys.created'));
      table.reload();
    },
  });

  async function revoke(key) {
    const label = key.name || key.tokenPrefix;
    const ok = await confirmDialog({
      title: t('auth.keys.revokeTitle', { name: label }),
      text: t('auth.keys.revokeText'),
      confirmLabel: t('auth.keys.revoke'),
      cancelLabel: t('kit.cancel'),
      danger: true,
    });
    if (!ok) return;
    try {
      await ctx.api.del(authPath(ctx, pid, 'keys', key.id));
      ctx.toast(t('auth.keys.revokeDone'));
      table.reload();
    } catch (error) {
      ctx.reportError(error);
    }
  }

  const table = listTable({
    t,
    caption: t('auth.keys.listTitle'),
    load: ({ signal }) => ctx.api.get(authPath(ctx, pid, 'keys'), { signal }),
    onError: (error) => ctx.reportError(error),
    rowAttrs: (k) => ({ dataset: { key: k.id, state: k.revokedAt ? 'revoked' : 'active' } }),
    empty: { title: t('auth.keys.emptyTitle'), text: t('auth.keys.emptyText'), drawing: icons.key },
    columns: [
      { label: t('auth.keys.colName'), render: (k) => (k.name ? h('span', { class: 'strong' }, k.name) : h('span', { class: 'muted' }, t('auth.keys.unnamed'))) },
      { label: t('auth.keys.colPrefix'), render: (k) => mono(`${k.tokenPrefix}…`) },
      { label: t('auth.keys.colCreated'), className: 'cell-nowrap', render: (k) => timeAgo(k.createdAt) },
      {
        label: t('auth.keys.colStatus'),
        render: (k) =>
          k.revokedAt
            ? h('span', { class: 'stack' }, pill(t('auth.keys.revoked'), 'neutral'), h('span', { class: 'cell-note' }, timeAgo(k.revokedAt)))
            : pill(t('auth.keys.active'), 'success'),
      },
      {
        label: t('auth.keys.colActions'),
        className: 'cell-actions',
        render: (k) =>
          k.revokedAt
            ? null
            : button(t('auth.keys.revoke'), {
                variant: 'ghost',
                className: 'btn-small',
                icon: icons.block,
                dataset: { action: 'revoke-key' },
                'aria-label': t('auth.keys.revokeTitle', { name: k.name || k.tokenPrefix }),
                onclick: () => revoke(k),
              }),
      },
    ],
  });
  state.onCleanup(() => table.abort());

  return h(
    'div',
    null,
    card({ title: t('auth.keys.createTitle'), subtitle: t('auth.keys.createText'), id: 'create-key-card' }, form.element, secret),
    h('div', { class: 'list-toolbar' }, h('h2', { class: 'section-title' }, t('auth.keys.listTitle'))),
    table.element,
  );
}

export function signingSection(ctx, state) {
  const { t } = ctx;
  const pid = state.project.id;
  const rotateButton = button(t('auth.signing.rotate'), { icon: icons.refresh, dataset: { action: 'rotate' } });

  rotateButton.addEventListener('click', async () => {
    const ok = await confirmDialog({
      title: t('auth.signing.rotateTitle'),
      text: t('auth.signing.rotateText'),
      confirmLabel: t('auth.signing.rotate'),
      cancelLabel: t('kit.cancel'),
    });
    if (!ok) return;
    const label = rotateButton.querySelector('.btn-label');
    rotateButton.disabled = true;
    rotateButton.setAttribute('aria-busy', 'true');
    label.textContent = t('auth.signing.rotating');
    try {
      const { kid } = await ctx.api.post(authPath(ctx, pid, 'signing-keys', 'rotate'));
      ctx.toast(t('auth.signing.rotated', { kid }));
      table.reload();
    } catch (error) {
      ctx.reportError(error);
    } finally {
      rotateButton.disabled = false;
      rotateButton.removeAttribute('aria-busy');
      label.textContent = t('auth.signing.rotate');
    }
  });

  const table = listTable({
    t,
    caption: t('auth.signing.title'),
    load: ({ signal }) => ctx.api.get(authPath(ctx, pid, 'signing-keys'), { signal }),
    onError: (error) => ctx.reportError(error),
    rowAttrs: (k) => ({ dataset: { kid: k.kid, current: String(Boolean(k.current)) } }),
    empty: { title: t('auth.signing.emptyTitle'), text: t('auth.signing.emptyText'), drawing: icons.lock },
    columns: [
      { label: t('auth.signing.colKid'), render: (k) => copyable(k.kid, t, { what: t('auth.signing.colKid') }) },
      {
        label: t('auth.signing.colState'),
        className: 'cell-nowrap',
        render: (k) => (k.current ? pill(t('auth.signing.current'), 'success', { dataset: { state: 'current' } }) : pill(t('auth.signing.retired'), 'neutral', { dataset: { state: 'retired' } })),
      },
    ],
  });
  state.onCleanup(() => table.abort());

  return card(
    { title: t('auth.signing.title'), subtitle: t('auth.signing.text'), id: 'signing-keys', className: 'card-flush', actions: [rotateButton] },
    h('div', { class: 'card-body' }, copyable(state.project.jwksUrl, t, { what: t('auth.call.jwks'), className: 'jwks-link' })),
    table.element,
  );
}
