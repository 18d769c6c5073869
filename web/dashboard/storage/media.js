// Storage > a bucket (/dashboard/{slug}/storage/buckets/{bucket}): its settings (name, visibility), Delete
// (with every file), Upload (each file its own multipart request through XMLHttpRequest, for its progress
// bar), and the media grid with filters (type, folder, file name), sorting and paging, kept in the address.
import { h, mount } from '../kit/dom.js';
import { createForm, input, select, toggle } from '../kit/form.js';
import { describeError } from '../kit/api.js';
import { icons } from '../kit/icons.js';
import { pageHeader } from '../kit/layout.js';
import { pager } from '../kit/table.js';
import { absoluteTime, button, card, confirmDialog, emptyState, loadingBlock, pill } from '../kit/ui.js';
import { formatBytes, quotaBar, storagePath, visibilityPill } from './common.js';

const TYPES = ['image', 'video', 'audio', 'doc', 'other'];
const SORTS = ['position', 'createdAt', 'filename', 'size'];
const PAGE = 24;

export async function bucketPage(ctx, slug) {
  const { t } = ctx;
  mount(ctx.root, loadingBlock(t('kit.loading')));
  let bucket;
  try {
    bucket = await ctx.api.get(storagePath(ctx, 'buckets', slug), { signal: ctx.signal });
  } catch (error) {
    if (error?.name === 'AbortError') return;
    mount(ctx.root, pageHeader({ title: slug, back: { href: ctx.href('buckets'), label: t('storage.bucket.back') } }), emptyState({ title: describeError(error, t), drawing: icons.alert }));
    return;
  }
  ctx.setTitle(bucket.name);
  const quota = quotaBar(ctx);
  const query = ctx.route.query;
  const state = {
    type: TYPES.includes(query.get('type')) ? query.get('type') : '',
    folder: query.get('folder') ?? '',
    q: query.get('q') ?? '',
    sort: SORTS.includes(query.get('sort')) ? query.get('sort') : 'position',
    dir: query.get('dir') === 'desc' ? 'desc' : 'asc',
    skip: Math.max(0, Number.parseInt(query.get('skip') ?? '0', 10) || 0),
  };

  // ---- header and settings
  const status = h('span', { dataset: { role: 'visibility' } }, visibilityPill(t, bucket.visibility));
  const deleteButton = button(t('storage.bucket.delete'), { variant: 'danger-outline', icon: icons.trash, dataset: { action: 'delete-bucket' } });
  deleteButton.addEventListener('click', async () => {
    const ok = await confirmDialog({
      title: t('storage.bucket.deleteTitle', { name: bucket.name }),
      text: t('storage.bucket.deleteText'),
      confirmLabel: t('storage.bucket.delete'),
      cancelLabel: t('kit.cancel'),
      danger: true,
    });
    if (!ok) return;
    try {
      const gone = await ctx.api.del(storagePath(ctx, 'buckets', bucket.slug));
      ctx.toast(t('storage.bucket.deleted', { slug: gone.slug, count: t.number(gone.deletedMedia) }));
      ctx.navigate(ctx.href('buckets'));
    } catch (error) {
      ctx.reportError(error);
    }
  });
  const header = pageHeader({ title: bucket.name, subtitle: bucket.slug, back: { href: ctx.href('buckets'), label: t('storage.bucket.back') }, actions: deleteButton, status });

  const settings = createForm({
    t,
    inline: true,
    id: 'bucket-settings',
    submitLabel: t('storage.bucket.save'),
    busyLabel: t('storage.bucket.saving'),
    fields: [
      { name: 'name', label: t('storage.buckets.name'), required: true, control: input({ name: 'name', value: bucket.name, autocomplete: 'off' }) },
      {
        name: 'visibility',
        label: t('storage.buckets.visibility'),
        control: select({ name: 'visibility', value: bucket.visibility, options: ['private', 'public'].map((v) => ({ value: v, label: t(`storage.visibility.${v}`) })) }),
      },
    ],
    fieldOf: (error) => (/name/.test(error.message) ? 'name' : null),
    async onSubmit({ name, visibility }) {
      bucket = await ctx.api.patch(storagePath(ctx, 'buckets', bucket.slug), { name: name.trim(), visibility });
      header.querySelector('.page-title').firstChild.textContent = bucket.name;
      mount(status, visibilityPill(t, bucket.visibility));
      uploadForm.fields.isPublic.control.checked = bucket.visibility === 'public';
      ctx.setTitle(bucket.name);
      ctx.toast(t('storage.bucket.saved'));
      grid.reload();
    },
  });
  const settingsCard = card({ title: t('storage.bucket.settings'), subtitle: t('storage.bucket.publicHint'), id: 'settings-card' }, settings.element);

  // ---- upload
  const progressList = h('ul', { class: 'upload-list', id: 'upload-list', 'aria-live': 'polite' });
  const uploadForm = createForm({
    t,
    id: 'upload',
    submitLabel: t('storage.upload.start'),
    submitIcon: icons.plus,
    busyLabel: t('storage.upload.busy'),
    fields: [
      { name: 'files', label: t('storage.upload.files'), control: h('input', { class: 'input', type: 'file', name: 'files', multiple: true }), validate: () => (fileInput().files.length ? null : t('storage.upload.choose')) },
      { name: 'folder', label: t('storage.upload.folder'), hint: t('storage.upload.folderHint'), control: input({ name: 'folder', autocomplete: 'off' }) },
      { name: 'isPublic', label: t('storage.upload.public'), control: toggle({ name: 'isPublic', checked: bucket.visibility === 'public' }) },
    ],
    async onSubmit({ folder, isPublic }) {
      const files = [...fileInput().files];
      for (const file of files) await uploadOne(file, folder.trim(), isPublic);
      fileInput().value = '';
      quota.reload();
      grid.reload();
    },
  });
  const fileInput = () => uploadForm.fields.files.control;

  // One file: multipart field `file` and the optional fields, with a progress bar of its own. Resolves
  // either way; a refusal (413 quota or size, 422 type) stays listed with the server's sentence.
  function uploadOne(file, folder, isPublic) {
    const bar = h('progress', { class: 'upload-progress', max: file.size || 1, value: 0 });
    const note = h('span', { class: 'upload-note' });
    const item = h('li', { class: 'upload-item', dataset: { file: file.name, state: 'uploading' } }, h('span', { class: 'upload-name' }, file.name), bar, note);
    progressList.append(item);
    return new Promise((resolve) => {
      const body = new FormData();
      body.append('file', file, file.name);
      if (folder) body.append('folder', folder);
      body.append('isPublic', String(Boolean(isPublic)));
      const xhr = new XMLHttpRequest();
      xhr.open('POST', storagePath(ctx, 'buckets', bucket.slug, 'media'));
      xhr.setRequestHeader('X-CSRF-Token', ctx.api.csrfToken);
      xhr.setRequestHeader('Accept', 'application/json');
      xhr.upload.addEventListener('progress', (event) => {
        if (event.lengthComputable) {
          bar.max = event.total;
          bar.value = event.loaded;
        }
      });
      xhr.addEventListener('load', () => {
        let envelope = null;
        try {
          envelope = JSON.parse(xhr.responseText);
        } catch {
          envelope = null;
        }
        if (xhr.status === 201) {
          bar.value = bar.max;
          item.dataset.state = 'done';
          note.textContent = formatBytes(t, envelope.data.size);
          ctx.toast(t('storage.upload.done', { name: file.name }));
        } else {
          item.dataset.state = 'failed';
          item.dataset.status = String(xhr.status);
          note.textContent = t('storage.upload.failed', { name: file.name, reason: envelope?.error ?? xhr.statusText });
        }
        resolve();
      });
      xhr.addEventListener('error', () => {
        item.dataset.state = 'failed';
        note.textContent = t('storage.upload.failed', { name: file.name, reason: t('kit.error.network') });
        resolve();
      });
      xhr.send(body);
    });
  }
  const uploadCard = card({ title: t('storage.upload.title'), id: 'upload-card' }, uploadForm.element, progressList);

  // ---- filters and grid
  const typeSelect = select({ name: 'type', value: state.type, options: [{ value: '', label: t('storage.media.allTypes') }, ...TYPES.map((v) => ({ value: v, label: t(`storage.media.type.${v}`) }))] });
  const folderInput = input({ name: 'folder', value: state.folder, autocomplete: 'off' });
  const searchInput = input({ name: 'q', type: 'search', value: state.q, autocomplete: 'off' });
  const sortSelect = select({ name: 'sort', value: state.sort, options: SORTS.map((v) => ({ value: v, label: t(`storage.media.sort.${v}`) })) });
  const dirSelect = select({ name: 'dir', value: state.dir, options: [{ value: 'asc', label: t('storage.media.asc') }, { value: 'desc', label: t('storage.media.desc') }] });
  const labelled = (text, control) => h('label', { class: 'filter' }, h('span', { class: 'filter-label' }, text), control);
  const filters = h(
    'div',
    { class: 'media-filters', id: 'media-filters' },
    labelled(t('storage.media.type'), typeSelect),
    labelled(t('storage.media.folder'), folderInput),
    labelled(t('storage.media.search'), searchInput),
    labelled(t('storage.media.sort'), sortSelect),
    labelled(t('storage.media.dir'), dirSelect),
  );
  let typing = null;
  function filtersChanged() {
    state.type = typeSelect.value;
    state.folder = folderInput.value.trim();
    state.q = searchInput.value.trim();
    state.sort = sortSelect.value;
    state.dir = dirSelect.value;
    state.skip = 0;
    grid.reload();
  }
  for (const control of [typeSelect, sortSelect, dirSelect]) control.addEventListener('change', filtersChanged);
  for (const control of [folderInput, searchInput])
    control.addEventListener('input', () => {
      clearTimeout(typing);
      typing = setTimeout(filtersChanged, 250);
    });

  const grid = mediaGrid(ctx, {
    state,
    bucket: () => bucket,
    onChange: () => quota.reload(),
  });

  mount(ctx.root, header, quota.element, settingsCard, uploadCard, card({ title: t('storage.media.title'), id: 'media-card' }, filters, grid.element));
  return () => clearTimeout(typing);
}

function mediaGrid(ctx, { state, bucket, onChange }) {
  const { t } = ctx;
  const element = h('div', { class: 'media-area', 'aria-busy': 'true' });
  let controller = null;

  async function reload() {
    controller?.abort();
    controller = new AbortController();
    const { signal } = controller;
    const query = { sort: state.sort, dir: state.dir };
    if (state.type) query.type = state.type;
    if (state.folder) query.folder = state.folder;
    if (state.q) query.q = state.q;
    ctx.setQuery({ type: state.type || null, folder: state.folder || null, q: state.q || null, sort: state.sort, dir: state.dir, skip: state.skip || null });
    element.setAttribute('aria-busy', 'true');
    let page;
    try {
      ({ data: page } = await ctx.api.request('GET', storagePath(ctx, 'buckets', bucket().slug, 'media'), { query: { ...query, limit: PAGE, skip: state.skip }, signal }));
    } catch (error) {
      if (error?.name === 'AbortError' || signal.aborted) return;
      element.setAttribute('aria-busy', 'false');
      mount(element, emptyState({ title: describeError(error, t), drawing: icons.alert }));
      ctx.reportError(error);
      return;
    }
    if (page.items.length === 0 && state.skip > 0 && page.total > 0) {
      state.skip = Math.max(0, Math.floor((page.total - 1) / PAGE) * PAGE);
      return reload();
    }
    element.setAttribute('aria-busy', 'false');
    element.dataset.total = String(page.total);
    if (page.items.length === 0) {
      mount(element, emptyState({ title: t('storage.media.empty'), text: t('storage.media.emptyText') }));
      return;
    }
    mount(
      element,
      h('ul', { class: 'media-grid', id: 'media-grid' }, page.items.map(tile)),
      pager({
        t,
        skip: state.skip,
        limit: PAGE,
        total: page.total,
        count: page.items.length,
        onPage: (skip) => {
          state.skip = skip;
          reload();
        },
      }),
    );
  }

  function preview(m) {
    if (m.type === 'image' && m.isPublic) {
      const img = h('img', { src: m.url, alt: m.filename, loading: 'lazy', class: 'media-thumb' });
      img.addEventListener('error', () => img.replaceWith(h('span', { class: 'media-kind' }, t(`storage.media.type.${m.type}`))));
      return img;
    }
    return h('span', { class: 'media-kind' }, t(`storage.media.type.${m.type}`));
  }

  function tile(m) {
    const download = button(t('storage.media.download'), { variant: 'secondary', className: 'btn-small', dataset: { action: 'download' } });
    download.addEventListener('click', async () => {
      try {
        const link = await ctx.api.get(storagePath(ctx, 'buckets', bucket().slug, 'media', m.id, 'download'));
        location.assign(link.url);
      } catch (error) {
        ctx.reportError(error);
      }
    });
    const remove = button(t('storage.media.delete'), { variant: 'danger-outline', className: 'btn-small', icon: icons.trash, dataset: { action: 'delete' } });
    remove.addEventListener('click', async () => {
      const ok = await confirmDialog({
        title: t('storage.media.deleteTitle', { name: m.filename }),
        text: t('storage.media.deleteText'),
        confirmLabel: t('storage.media.delete'),
        cancelLabel: t('kit.cancel'),
        danger: true,
      });
      if (!ok) return;
      try {
        await ctx.api.del(storagePath(ctx, 'buckets', bucket().slug, 'media', m.id));
        ctx.toast(t('storage.media.deleted', { name: m.filename }));
        onChange();
        reload();
      } catch (error) {
        ctx.reportError(error);
      }
    });
    return h(
      'li',
      { class: 'media-tile', dataset: { media: m.id, type: m.type } },
      h('div', { class: 'media-preview' }, preview(m)),
      h('div', { class: 'media-name', title: m.filename }, m.filename),
      h(
        'div',
        { class: 'media-meta' },
        h('span', { dataset: { role: 'size' } }, formatBytes(t, m.size)),
        pill(m.isPublic ? t('storage.media.public') : t('storage.media.private'), m.isPublic ? 'info' : 'neutral'),
        m.folder ? h('span', { class: 'mono media-folder' }, m.folder) : null,
      ),
      h('div', { class: 'media-time' }, absoluteTime(m.createdAt)),
      h('div', { class: 'media-actions' }, download, remove),
    );
  }

  reload();
  return { element, reload };
}
