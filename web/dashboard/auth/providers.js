// A project's social-login providers (OpenID Connect): /{projectId}/providers with name, issuer, clientId,
// clientSecret (write-only: sent when typed, never shown; an edit without it keeps the stored one) and
// scopes. List, add, edit, delete. While the providers routes are missing on a server, the list shows its
// failure with Try again and the banner carries the server's sentence.
import { h, icon, mount } from '../kit/dom.js';
import { createForm, input } from '../kit/form.js';
import { icons } from '../kit/icons.js';
import { listTable } from '../kit/table.js';
import { button, card, confirmDialog, mono } from '../kit/ui.js';
import { authPath } from './common.js';

const DEFAULT_SCOPES = 'openid email profile';

function scopeList(scopes) {
  if (Array.isArray(scopes)) return scopes.map(String);
  return String(scopes ?? '').split(/[\s,]+/).filter(Boolean);
}

export function providersSection(ctx, state) {
  const { t } = ctx;
  const pid = state.project.id;
  const formCard = card({ id: 'provider-form-card', hidden: true });
  let editing = null; // the provider being edited, or null when adding

  function openForm(provider) {
    editing = provider;
    const name = input({ name: 'name', autocomplete: 'off', maxlength: 100, value: provider?.name ?? '', placeholder: 'Google' });
    const issuer = input({ name: 'issuer', type: 'url', autocomplete: 'off', value: provider?.issuer ?? '', placeholder: 'https://accounts.google.com' });
    const clientId = input({ name: 'clientId', autocomplete: 'off', value: provider?.clientId ?? '' });
    const clientSecret = input({ name: 'clientSecret', type: 'password', autocomplete: 'new-password', value: '' });
    const scopes = input({ name: 'scopes', autocomplete: 'off', value: provider ? scopeList(provider.scopes).join(' ') : DEFAULT_SCOPES });
    const form = createForm({
      t,
      id: 'provider-form',
      submitLabel: t(provider ? 'auth.providers.save' : 'auth.providers.create'),
      submitIcon: provider ? icons.check : icons.plus,
      busyLabel: t('auth.providers.saving'),
      fields: [
        { name: 'name', label: t('auth.providers.name'), hint: t('auth.providers.nameHint'), required: true, control: name },
        {
          name: 'issuer',
          label: t('auth.providers.issuer'),
          hint: t('auth.providers.issuerHint'),
          required: true,
          validate: (v) => (/^https?:\/\/\S+$/i.test(v) ? null : t('auth.providers.urlInvalid')),
          control: issuer,
        },
        { name: 'clientId', label: t('auth.providers.clientId'), required: true, control: clientId },
        {
          name: 'clientSecret',
          label: t('auth.providers.clientSecret'),
          hint: t(provider ? 'auth.providers.clientSecretKeep' : 'auth.providers.clientSecretHint'),
          control: clientSecret,
        },
        { name: 'scopes', label: t('auth.providers.scopes'), hint: t('auth.providers.scopesHint'), control: scopes },
      ],
      layout: (f) => [
        h('div', { class: 'grid-2' }, f.name.element, f.issuer.element),
        h('div', { class: 'grid-2' }, f.clientId.element, f.clientSecret.element),
        f.scopes.element,
      ],
      fieldOf: (error) => {
        const m = /'(name|issuer|clientId|clientSecret|scopes)'/.exec(error.message ?? '');
        return m ? m[1] : null;
      },
      actions: [button(t('kit.cancel'), { variant: 'ghost', onclick: closeForm })],
      async onSubmit(v) {
        const body = { name: v.name.trim(), issuer: v.issuer.trim(), clientId: v.clientId.trim(), scopes: scopeList(v.scopes) };
        if (v.clientSecret) body.clientSecret = v.clientSecret;
        const saved = editing
          ? await ctx.api.patch(authPath(ctx, pid, 'providers', editing.id), body)
          : await ctx.api.post(authPath(ctx, pid, 'providers'), body);
        ctx.toast(t(editing ? 'auth.providers.saved' : 'auth.providers.added', { name: saved?.name ?? body.name }));
        closeForm();
        table.reload();
      },
    });
    mount(
      formCard,
      h('header', { class: 'card-header' }, h('div', { class: 'card-titles' }, h('h2', { class: 'card-title' }, provider ? t('auth.providers.editTitle', { name: provider.name }) : t('auth.providers.addTitle')))),
      form.element,
    );
    formCard.hidden = false;
    name.focus();
  }

  function closeForm() {
    editing = null;
    formCard.hidden = true;
    formCard.replaceChildren();
  }

  async function remove(provider) {
    const ok = await confirmDialog({
      title: t('auth.providers.deleteTitle', { name: provider.name }),
      text: t('auth.providers.deleteText'),
      confirmLabel: t('auth.providers.delete'),
      cancelLabel: t('kit.cancel'),
      danger: true,
    });
    if (!ok) return;
    try {
      await ctx.api.del(authPath(ctx, pid, 'providers', provider.id));
      ctx.toast(t('auth.providers.deleted', { name: provider.name }));
      if (editing?.id === provider.id) closeForm();
      table.reload();
    } catch (error) {
      ctx.reportError(error);
    }
  }

  const table = listTable({
    t,
    caption: t('auth.providers.title'),
    load: ({ signal }) => ctx.api.get(authPath(ctx, pid, 'providers'), { signal }),
    onError: (error) => ctx.reportError(error),
    rowAttrs: (p) => ({ dataset: { provider: p.name } }),
    empty: {
      title: t('auth.providers.emptyTitle'),
      text: t('auth.providers.emptyText'),
      drawing: icons.link,
      action: button(t('auth.providers.add'), { icon: icons.plus, onclick: () => openForm(null) }),
    },
    columns: [
      { label: t('auth.providers.colName'), render: (p) => h('span', { class: 'strong' }, p.name) },
      { label: t('auth.providers.colIssuer'), render: (p) => mono(p.issuer, 'cell-wrap') },
      { label: t('auth.providers.colClient'), render: (p) => mono(p.clientId, 'cell-wrap') },
      {
        label: t('auth.providers.colScopes'),
        render: (p) => h('span', { class: 'chips' }, scopeList(p.scopes).map((s) => h('span', { class: 'chip' }, s))),
      },
      {
        label: t('auth.providers.colActions'),
        className: 'cell-actions',
        render: (p) => [
          button(t('auth.providers.edit'), { variant: 'ghost', className: 'btn-small', icon: icons.edit, dataset: { action: 'edit-provider' }, onclick: () => openForm(p) }),
          button(t('auth.providers.delete'), {
            variant: 'ghost',
            className: 'btn-small',
            icon: icons.trash,
            dataset: { action: 'delete-provider' },
            'aria-label': t('auth.providers.deleteTitle', { name: p.name }),
            onclick: () => remove(p),
          }),
        ],
      },
    ],
  });
  state.onCleanup(() => table.abort());

  const socialNote = h(
    'div',
    { class: 'note note-warning page-note', dataset: { note: 'social-off' } },
    icon(icons.info),
    h('p', null, t('auth.providers.socialOff'), ' ', h('button', { type: 'button', class: 'link-button', onclick: () => state.selectTab('settings') }, t('auth.tab.settings'))),
  );
  const showSocialNote = (project) => (socialNote.hidden = Boolean(project.signInMethods?.social));
  showSocialNote(state.project);
  state.watch(showSocialNote);

  return h(
    'div',
    null,
    h(
      'div',
      { class: 'list-toolbar' },
      h('div', null, h('h2', { class: 'section-title' }, t('auth.providers.title')), h('p', { class: 'section-text' }, t('auth.providers.text'))),
      button(t('auth.providers.add'), { icon: icons.plus, dataset: { action: 'add-provider' }, onclick: () => openForm(null) }),
    ),
    socialNote,
    formCard,
    table.element,
  );
}
