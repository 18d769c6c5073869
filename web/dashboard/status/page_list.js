// Status › Pages: the company's status pages (name, public address, custom domain, subscribers, created) and
// New page (name and slug; the slug is proposed from the name until it is typed by hand). A row opens the
// page. Address: /dashboard/{slug}/status/pages (`?new` opens the form, `?skip=` is the list's page).
import { h, mount } from '../kit/dom.js';
import { createForm, input } from '../kit/form.js';
import { icons } from '../kit/icons.js';
import { pageHeader } from '../kit/layout.js';
import { pagedTable } from '../kit/table.js';
import { button, card, mono, pill, timeAgo } from '../kit/ui.js';
import { fieldOfError, pageHref, statusContext } from './common.js';
import { slugFrom } from './slug.js';

export default function pageList(ctx) {
  const { t } = ctx;
  const { api, paths } = statusContext(ctx);

  // ---- create
  const nameInput = input({ name: 'name', autocomplete: 'off', maxlength: 200 });
  const slugInput = input({ name: 'slug', autocomplete: 'off', maxlength: 63 });
  let slugTouched = false;
  nameInput.addEventListener('input', () => {
    if (!slugTouched) slugInput.value = slugFrom(nameInput.value);
  });
  slugInput.addEventListener('input', () => {
    slugTouched = slugInput.value !== '';
  });
  const createCard = card({ title: t('status.pages.createTitle'), subtitle: t('status.pages.createText'), id: 'create-page-card', hidden: true });
  const form = createForm({
    t,
    id: 'create-page-form',
    submitLabel: t('status.pages.create'),
    submitIcon: icons.plus,
    fields: [
      { name: 'name', label: t('status.pages.name'), control: nameInput, required: true },
      { name: 'slug', label: t('status.pages.slug'), hint: t('status.pages.slugHint'), control: slugInput, required: true },
    ],
    actions: [button(t('kit.cancel'), { variant: 'secondary', onclick: () => closeCreate() })],
    fieldOf: (error) => fieldOfError(error, { invalid_slug: 'slug', slug_taken: 'slug' }),
    async onSubmit(values) {
      const created = await api.post(paths.pages(), { name: values.name.trim(), slug: values.slug.trim() }, { signal: ctx.signal });
      ctx.toast(t('status.pages.created', { name: created.name }));
      ctx.navigate(pageHref(ctx, created.id, 'components'));
    },
  });
  createCard.append(form.element);
  function openCreate() {
    createCard.hidden = false;
    nameInput.focus();
  }
  function closeCreate() {
    createCard.hidden = true;
    form.reset();
    slugTouched = false;
  }

  // ---- list
  const skip = Number.parseInt(ctx.route.query.get('skip') ?? '', 10);
  const table = pagedTable({
    t,
    skip: Number.isInteger(skip) && skip > 0 ? skip : 0,
    caption: t('status.pages.title'),
    load: ({ limit, skip: s, signal }) => api.list(paths.pages(), { limit, skip: s, signal }),
    onPage: (s) => ctx.setQuery({ skip: s || null }),
    onError: (error) => ctx.reportError(error),
    rowLink: (p) => pageHref(ctx, p.id),
    rowAttrs: (p) => ({ dataset: { statusPage: p.id, slug: p.slug } }),
    empty: {
      title: t('status.pages.emptyTitle'),
      text: t('status.pages.emptyText'),
      drawing: icons.globe,
      action: button(t('status.pages.new'), { icon: icons.plus, onclick: openCreate }),
    },
    columns: [
      { label: t('status.pages.name'), primary: true, render: (p) => h('span', { class: 'strong' }, p.branding?.displayName ?? p.name) },
      {
        label: t('status.pages.address'),
        className: 'cell-nowrap',
        render: (p) => h('a', { href: paths.publicPage(p.slug), target: '_blank', rel: 'noopener', class: 'public-link' }, mono(paths.publicPage(p.slug))),
      },
      { label: t('status.pages.customDomain'), render: (p) => (p.customDomain ? mono(p.customDomain) : h('span', { class: 'muted' }, '—')) },
      {
        label: t('status.pages.subscribers'),
        className: 'cell-nowrap',
        render: (p) => (p.subscribersEnabled ? pill(t('status.on'), 'success') : pill(t('status.off'), 'neutral')),
      },
      { label: t('status.pages.created.column'), className: 'cell-nowrap', render: (p) => timeAgo(p.createdAt) },
    ],
  });

  mount(
    ctx.root,
    pageHeader({
      title: t('status.pages.title'),
      subtitle: t('status.pages.subtitle'),
      actions: [button(t('status.pages.new'), { icon: icons.plus, onclick: openCreate, dataset: { action: 'new-page' } })],
    }),
    createCard,
    h('div', { id: 'status-pages-table' }, table.element),
  );
  if (ctx.route.query.get('new') !== null) openCreate();
  return () => table.abort();
}
