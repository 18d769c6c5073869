// Storage > Buckets: the company's buckets with their usage under the quota bar, creating one; and a
// bucket's own page (/buckets/{slug}) with its settings, upload and media grid (media.js).
import { h, mount } from '../kit/dom.js';
import { createForm, input, select } from '../kit/form.js';
import { icons } from '../kit/icons.js';
import { pageHeader } from '../kit/layout.js';
import { listTable } from '../kit/table.js';
import { button, card } from '../kit/ui.js';
import { formatBytes, quotaBar, storagePath, visibilityPill } from './common.js';
import { bucketPage } from './media.js';

export default function bucketsPage(ctx) {
  const bucket = ctx.route.rest[0];
  if (bucket) return bucketPage(ctx, bucket);
  return listPage(ctx);
}

function listPage(ctx) {
  const { t } = ctx;
  ctx.setTitle(t('storage.buckets.title'));
  const quota = quotaBar(ctx);

  const createCard = card({ title: t('storage.buckets.createTitle'), id: 'create-bucket-card', hidden: true });
  const form = createForm({
    t,
    id: 'create-bucket',
    submitLabel: t('storage.buckets.create'),
    submitIcon: icons.plus,
    busyLabel: t('storage.buckets.creating'),
    fields: [
      { name: 'name', label: t('storage.buckets.name'), required: true, control: input({ name: 'name', autocomplete: 'off' }) },
      { name: 'slug', label: t('storage.buckets.slug'), hint: t('storage.buckets.slugHint'), required: true, control: input({ name: 'slug', autocomplete: 'off' }) },
      {
        name: 'visibility',
        label: t('storage.buckets.visibility'),
        control: select({
          name: 'visibility',
          value: 'private',
          options: ['private', 'public'].map((v) => ({ value: v, label: t(`storage.visibility.${v}`) })),
        }),
      },
    ],
    fieldOf: (error) => (/slug/.test(error.message) ? 'slug' : /name/.test(error.message) ? 'name' : null),
    actions: [button(t('kit.cancel'), { variant: 'ghost', onclick: () => (createCard.hidden = true) })],
    async onSubmit({ name, slug, visibility }) {
      const made = await ctx.api.post(storagePath(ctx, 'buckets'), { name: name.trim(), slug: slug.trim(), visibility });
      ctx.toast(t('storage.buckets.created', { slug: made.slug }));
      form.reset();
      createCard.hidden = true;
      table.reload();
    },
  });
  createCard.append(form.element);

  const table = listTable({
    t,
    caption: t('storage.buckets.title'),
    async load({ signal }) {
      const [buckets, usage] = await Promise.all([
        ctx.api.all(storagePath(ctx, 'buckets'), { signal }),
        ctx.api.get(storagePath(ctx, 'usage'), { signal }),
      ]);
      const bySlug = new Map(usage.buckets.map((u) => [u.bucket, u]));
      return buckets.map((b) => ({ ...b, usage: bySlug.get(b.slug) ?? { bytes: 0, count: 0 } }));
    },
    rowLink: (b) => ctx.href('buckets', b.slug),
    rowAttrs: (b) => ({ dataset: { bucket: b.slug } }),
    onError: ctx.reportError,
    empty: { title: t('storage.buckets.empty'), text: t('storage.buckets.emptyText') },
    columns: [
      { label: t('storage.buckets.colName'), primary: true, render: (b) => h('strong', null, b.name) },
      { label: t('storage.buckets.colSlug'), render: (b) => h('span', { class: 'mono' }, b.slug) },
      { label: t('storage.buckets.colVisibility'), render: (b) => visibilityPill(t, b.visibility) },
      { label: t('storage.buckets.colFiles'), className: 'num', render: (b) => t.number(b.usage.count) },
      { label: t('storage.buckets.colSize'), className: 'num', render: (b) => formatBytes(t, b.usage.bytes) },
    ],
  });
  table.element.id = 'buckets-table';

  const newButton = button(t('storage.buckets.new'), { icon: icons.plus, dataset: { action: 'new-bucket' } });
  newButton.addEventListener('click', () => {
    createCard.hidden = false;
    form.fields.name.control.focus();
  });
  mount(
    ctx.root,
    pageHeader({ title: t('storage.buckets.title'), subtitle: t('storage.buckets.subtitle'), actions: newButton }),
    quota.element,
    createCard,
    card({ className: 'card-flush' }, table.element),
  );
}
