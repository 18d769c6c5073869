// A page's Settings tab: name, slug (the public address), branding (display name, primary colour, logo and
// its link, tagline), custom domain and whether visitors may subscribe, saved with one PATCH. An emptied
// optional member is sent as null (cleared). The rules are the server's; its refusal shows beside the field.
import { h } from '../kit/dom.js';
import { createForm, input, toggle } from '../kit/form.js';
import { icons } from '../kit/icons.js';
import { card } from '../kit/ui.js';
import { fieldOfError, statusContext } from './common.js';

const BRANDING = ['displayName', 'primaryColor', 'logoUrl', 'logoLinkUrl', 'tagline'];

export default function settingsTab(ctx, shared) {
  const { t } = ctx;
  const { api, paths } = statusContext(ctx);
  const page = shared.page;
  const b = page.branding ?? {};
  const text = (name, value, attrs = {}) => input({ name, value: value ?? '', autocomplete: 'off', ...attrs });

  const colorInput = text('primaryColor', b.primaryColor, { placeholder: '#1f6feb', maxlength: 7 });
  const swatch = h('span', { class: 'color-swatch', 'aria-hidden': 'true' });
  const paint = () => {
    swatch.classList.toggle('color-swatch-empty', !/^#[0-9a-fA-F]{6}$/.test(colorInput.value));
    // A CSS custom property set through the style object: the kit refuses style attributes, not this.
    if (/^#[0-9a-fA-F]{6}$/.test(colorInput.value)) swatch.style.setProperty('--swatch', colorInput.value);
  };
  colorInput.addEventListener('input', paint);
  paint();

  const fields = [
    { name: 'name', label: t('status.pages.name'), hint: t('status.settings.nameHint'), control: text('name', page.name, { maxlength: 200 }), required: true },
    { name: 'slug', label: t('status.pages.slug'), hint: t('status.settings.slugHint'), control: text('slug', page.slug, { maxlength: 63 }), required: true },
    { name: 'displayName', label: t('status.settings.displayName'), hint: t('status.settings.displayNameHint'), control: text('displayName', b.displayName, { maxlength: 200 }) },
    { name: 'primaryColor', label: t('status.settings.primaryColor'), hint: t('status.settings.primaryColorHint'), control: colorInput, suffix: swatch },
    { name: 'logoUrl', label: t('status.settings.logoUrl'), control: text('logoUrl', b.logoUrl, { type: 'url', placeholder: 'https://' }) },
    { name: 'logoLinkUrl', label: t('status.settings.logoLinkUrl'), control: text('logoLinkUrl', b.logoLinkUrl, { type: 'url', placeholder: 'https://' }) },
    { name: 'tagline', label: t('status.settings.tagline'), control: text('tagline', b.tagline, { maxlength: 500 }) },
    { name: 'customDomain', label: t('status.settings.customDomain'), hint: t('status.settings.customDomainHint'), control: text('customDomain', page.customDomain, { placeholder: 'status.example.com' }) },
    { name: 'subscribersEnabled', label: t('status.settings.subscribersEnabled'), hint: t('status.settings.subscribersEnabledHint'), control: toggle({ name: 'subscribersEnabled', checked: page.subscribersEnabled }) },
  ];

  let lastValues = null;
  const form = createForm({
    t,
    id: 'page-settings-form',
    submitLabel: t('status.save'),
    submitIcon: icons.check,
    fields,
    layout: (w) => [
      card({ title: t('status.settings.general') }, w.name.element, w.slug.element),
      card({ title: t('status.settings.branding'), subtitle: t('status.settings.brandingText') }, BRANDING.map((n) => w[n].element)),
      card({ title: t('status.settings.visitors') }, w.customDomain.element, w.subscribersEnabled.element),
    ],
    // invalid_url does not name its member: the first URL field that holds something.
    fieldOf: (error) =>
      fieldOfError(error, {
        invalid_slug: 'slug',
        slug_taken: 'slug',
        invalid_color: 'primaryColor',
        invalid_domain: 'customDomain',
        invalid_url: ['logoUrl', 'logoLinkUrl'].find((n) => lastValues?.[n]?.trim()) ?? 'logoUrl',
      }),
    async onSubmit(values) {
      lastValues = values;
      const cleared = (v) => (v.trim() === '' ? null : v.trim());
      const body = {
        name: values.name.trim(),
        slug: values.slug.trim(),
        branding: Object.fromEntries(BRANDING.map((n) => [n, cleared(values[n])])),
        customDomain: cleared(values.customDomain),
        subscribersEnabled: values.subscribersEnabled,
      };
      const saved = await api.patch(paths.page(page.id), body, { signal: ctx.signal });
      // The stored values (trimmed, colour and domain in lower case) replace what was typed.
      const f = form.fields;
      f.name.control.value = saved.name;
      f.slug.control.value = saved.slug;
      for (const n of BRANDING) f[n].control.value = saved.branding?.[n] ?? '';
      f.customDomain.control.value = saved.customDomain ?? '';
      f.subscribersEnabled.control.checked = Boolean(saved.subscribersEnabled);
      paint();
      ctx.setDirty(false);
      shared.pageChanged(saved);
      ctx.toast(t('status.settings.saved'));
    },
  });
  form.element.addEventListener('input', () => ctx.setDirty(true));
  form.element.addEventListener('change', () => ctx.setDirty(true));
  return h('div', { class: 'status-tab settings-tab' }, form.element);
}
