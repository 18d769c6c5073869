// Auth projects > Projects: the company's projects (list, create, delete), and the addresses under it:
//   /projects                          the list
//   /projects/{id}[/{section}]         one project (project.js): overview, settings, keys, signing, users,
//                                      providers
//   /projects/{id}/users/{userId}      one end user and their sessions (user.js)
import { mount } from '../kit/dom.js';
import { createForm, input } from '../kit/form.js';
import { icons } from '../kit/icons.js';
import { pageHeader } from '../kit/layout.js';
import { listTable } from '../kit/table.js';
import { button, card, confirmDialog, mono, timeAgo } from '../kit/ui.js';
import { SLUG, authPath, methodChips, slugFrom } from './common.js';

export default async function projectsPage(ctx) {
  const [projectId, section, userId] = ctx.route.rest;
  if (!projectId) return showList(ctx);
  if (section === 'users' && userId) {
    const { default: showUser } = await import('./user.js');
    return showUser(ctx, projectId, userId);
  }
  const { default: showProject } = await import('./project.js');
  return showProject(ctx, projectId, section);
}

// Asks, deletes, and says so. Answers whether the project is gone.
export async function deleteProject(ctx, project) {
  const { t } = ctx;
  const ok = await confirmDialog({
    title: t('auth.projects.deleteTitle', { name: project.name }),
    text: t('auth.projects.deleteText'),
    confirmLabel: t('auth.projects.deleteProject'),
    cancelLabel: t('kit.cancel'),
    danger: true,
  });
  if (!ok) return false;
  try {
    await ctx.api.del(authPath(ctx, project.id));
  } catch (error) {
    ctx.reportError(error);
    return false;
  }
  ctx.toast(t('auth.projects.deleted', { name: project.name }));
  return true;
}

function createProjectForm(ctx, { onCancel }) {
  const { t } = ctx;
  const nameInput = input({ name: 'name', placeholder: t('auth.projects.namePlaceholder'), autocomplete: 'off', maxlength: 200 });
  const slugInput = input({ name: 'slug', placeholder: 'acme-notes', autocomplete: 'off', maxlength: 63, class: 'input mono-input' });
  // The slug follows the name until it is typed in by hand.
  let slugTouched = false;
  nameInput.addEventListener('input', () => {
    if (!slugTouched) slugInput.value = slugFrom(nameInput.value);
  });
  slugInput.addEventListener('input', () => {
    slugTouched = slugInput.value !== '';
  });
  return createForm({
    t,
    inline: true,
    id: 'create-project',
    submitLabel: t('auth.projects.create'),
    submitIcon: icons.plus,
    busyLabel: t('auth.projects.creating'),
    fields: [
      { name: 'name', label: t('auth.projects.name'), required: true, control: nameInput },
      {
        name: 'slug',
        label: t('auth.projects.slug'),
        hint: t('auth.projects.slugHint'),
        required: true,
        validate: (value) => (SLUG.test(value) ? null : t('auth.projects.slugInvalid')),
        control: slugInput,
      },
    ],
    fieldOf: (error) => (/slug/.test(error.message) ? 'slug' : /'name'/.test(error.message) ? 'name' : null),
    actions: [button(t('kit.cancel'), { variant: 'ghost', onclick: onCancel })],
    async onSubmit({ name, slug }) {
      const project = await ctx.api.post(authPath(ctx), { name: name.trim(), slug: slug.trim() });
      ctx.toast(t('auth.projects.created', { name: project.name }));
      ctx.navigate(ctx.href('projects', project.id));
    },
  });
}

function showList(ctx) {
  const { t } = ctx;
  const createCard = card({ title: t('auth.projects.createTitle'), subtitle: t('auth.projects.createText'), id: 'create-project-card', hidden: true });
  let form = null;
  const openCreate = () => {
    if (!form) {
      form = createProjectForm(ctx, { onCancel: () => (createCard.hidden = true) });
      createCard.append(form.element);
    }
    createCard.hidden = false;
    form.fields.name.control.focus();
  };

  const table = listTable({
    t,
    caption: t('auth.projects.title'),
    load: ({ signal }) => ctx.api.get(authPath(ctx), { signal }),
    onError: (error) => ctx.reportError(error),
    rowLink: (p) => ctx.href('projects', p.id),
    rowAttrs: (p) => ({ dataset: { project: p.slug } }),
    empty: {
      title: t('auth.projects.emptyTitle'),
      text: t('auth.projects.emptyText'),
      drawing: icons.project,
      action: button(t('auth.projects.new'), { icon: icons.plus, onclick: openCreate }),
    },
    columns: [
      { label: t('auth.projects.colName'), primary: true, render: (p) => p.name },
      { label: t('auth.projects.colSlug'), render: (p) => mono(p.slug) },
      { label: t('auth.projects.colMethods'), render: (p) => methodChips(t, p.signInMethods) },
      { label: t('auth.projects.colCreated'), className: 'cell-nowrap', render: (p) => timeAgo(p.createdAt) },
      {
        label: t('auth.projects.colActions'),
        className: 'cell-actions',
        render: (p) =>
          button(t('auth.projects.delete'), {
            variant: 'ghost',
            className: 'btn-small',
            icon: icons.trash,
            dataset: { action: 'delete-project' },
            'aria-label': t('auth.projects.deleteTitle', { name: p.name }),
            onclick: async () => {
              if (await deleteProject(ctx, p)) table.reload();
            },
          }),
      },
    ],
  });

  mount(
    ctx.root,
    pageHeader({
      title: t('auth.projects.title'),
      subtitle: t('auth.projects.subtitle'),
      actions: [button(t('auth.projects.new'), { icon: icons.plus, onclick: openCreate, dataset: { action: 'new-project' } })],
    }),
    createCard,
    table.element,
  );
  if (ctx.route.query.get('new') !== null) openCreate();
  return () => table.abort();
}
