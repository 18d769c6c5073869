// A project's Settings: every member of core/auth/project_settings.h in one form, grouped in cards, saved
// with one PATCH of the whole settings object. The server's rules decide (bounds, URL shapes, slug, origins);
// its sentence shows beside the field it is about (common.js settingsFieldOf) and at the form's foot.
import { h, icon, mount } from '../kit/dom.js';
import { createForm, input, select, textarea, toggle } from '../kit/form.js';
import { icons } from '../kit/icons.js';
import { dashboardPath } from '../kit/shell.js';
import { button, card } from '../kit/ui.js';
import { METHODS, SLUG, authPath, companyPath, durationText, lines, settingsFieldOf } from './common.js';

const WHOLE = /^\d+$/;
const LOCAL_PART = /^[^\s@]+$/;

export function settingsSection(ctx, state) {
  const { t } = ctx;
  let domains = null; // the company's mail domains, once loaded

  const controls = {
    name: input({ name: 'name', autocomplete: 'off', maxlength: 200 }),
    slug: input({ name: 'slug', autocomplete: 'off', maxlength: 63, class: 'input mono-input' }),
    ...Object.fromEntries(METHODS.map((m) => [`signInMethods.${m}`, toggle({ name: `signInMethods.${m}` })])),
    requireEmailVerification: toggle({ name: 'requireEmailVerification' }),
    'passwordPolicy.minLength': input({ name: 'passwordPolicy.minLength', type: 'number', min: 8, max: 128, step: 1, inputmode: 'numeric' }),
    'passwordPolicy.requireLetter': toggle({ name: 'passwordPolicy.requireLetter' }),
    'passwordPolicy.requireDigit': toggle({ name: 'passwordPolicy.requireDigit' }),
    'passwordPolicy.requireSymbol': toggle({ name: 'passwordPolicy.requireSymbol' }),
    accessTokenTtlSeconds: input({ name: 'accessTokenTtlSeconds', type: 'number', min: 60, max: 86400, step: 1, inputmode: 'numeric' }),
    refreshTokenTtlSeconds: input({ name: 'refreshTokenTtlSeconds', type: 'number', min: 3600, max: 31536000, step: 1, inputmode: 'numeric' }),
    refreshReuseIntervalSeconds: input({ name: 'refreshReuseIntervalSeconds', type: 'number', min: 0, max: 120, step: 1, inputmode: 'numeric' }),
    allowedRedirectUrls: textarea({ name: 'allowedRedirectUrls', rows: 4, placeholder: 'https://app.example.com/verify' }),
    mailOn: toggle({ name: 'mailOn' }),
    'mail.domainId': select({ name: 'mail.domainId', options: [{ value: '', label: t('kit.loading'), disabled: true }], value: '' }),
    'mail.from': input({ name: 'mail.from', autocomplete: 'off', placeholder: 'no-reply' }),
    'mail.fromName': input({ name: 'mail.fromName', autocomplete: 'off', maxlength: 200 }),
    passkeysOn: toggle({ name: 'passkeysOn' }),
    'passkeys.rpId': input({ name: 'passkeys.rpId', autocomplete: 'off', placeholder: 'example.com' }),
    'passkeys.rpName': input({ name: 'passkeys.rpName', autocomplete: 'off' }),
    'passkeys.origins': textarea({ name: 'passkeys.origins', rows: 3, placeholder: 'https://app.example.com' }),
  };
  const c = controls;
  const whole = (message) => (value) => (WHOLE.test(value) ? null : message);
  const seconds = whole(t('auth.settings.seconds'));
  const mailOn = () => c.mailOn.checked;
  const passkeysOn = () => c.passkeysOn.checked;

  const fields = [
    { name: 'name', label: t('auth.projects.name'), required: true },
    {
      name: 'slug',
      label: t('auth.projects.slug'),
      hint: t('auth.settings.slugHint'),
      required: true,
      validate: (v) => (SLUG.test(v) ? null : t('auth.projects.slugInvalid')),
    },
    ...METHODS.map((m) => ({ name: `signInMethods.${m}`, label: t(`auth.method.${m}`), hint: t(`auth.settings.methodHint.${m}`) })),
    { name: 'requireEmailVerification', label: t('auth.settings.requireVerification'), hint: t('auth.settings.requireVerificationHint') },
    {
      name: 'passwordPolicy.minLength',
      label: t('auth.settings.minLength'),
      hint: t('auth.settings.minLengthHint'),
      required: true,
      validate: whole(t('auth.settings.wholeNumber')),
    },
    { name: 'passwordPolicy.requireLetter', label: t('auth.settings.requireLetter') },
    { name: 'passwordPolicy.requireDigit', label: t('auth.settings.requireDigit') },
    { name: 'passwordPolicy.requireSymbol', label: t('auth.settings.requireSymbol') },
    { name: 'accessTokenTtlSeconds', label: t('auth.settings.accessTtl'), hint: ' ', required: true, validate: seconds },
    { name: 'refreshTokenTtlSeconds', label: t('auth.settings.refreshTtl'), hint: ' ', required: true, validate: seconds },
    { name: 'refreshReuseIntervalSeconds', label: t('auth.settings.reuse'), hint: ' ', required: true, validate: seconds },
    { name: 'allowedRedirectUrls', label: t('auth.settings.redirectUrls'), hint: t('auth.settings.redirectUrlsHint') },
    { name: 'mailOn', label: t('auth.settings.mailOn'), hint: t('auth.settings.mailOnHint') },
    {
      name: 'mail.domainId',
      label: t('auth.settings.domain'),
      validate: (v) => (mailOn() && !v ? t('kit.form.required') : null),
    },
    {
      name: 'mail.from',
      label: t('auth.settings.from'),
      hint: t('auth.settings.fromHint'),
      suffix: '@…',
      validate: (v) => (!mailOn() ? null : !v ? t('kit.form.required') : LOCAL_PART.test(v) ? null : t('auth.settings.fromInvalid')),
    },
    { name: 'mail.fromName', label: t('auth.settings.fromName'), hint: t('auth.settings.fromNameHint') },
    { name: 'passkeysOn', label: t('auth.settings.passkeysOn'), hint: t('auth.settings.passkeysOnHint') },
    {
      name: 'passkeys.rpId',
      label: t('auth.settings.rpId'),
      hint: t('auth.settings.rpIdHint'),
      validate: (v) => (passkeysOn() && !v ? t('kit.form.required') : null),
    },
    { name: 'passkeys.rpName', label: t('auth.settings.rpName'), hint: t('auth.settings.rpNameHint') },
    {
      name: 'passkeys.origins',
      label: t('auth.settings.origins'),
      hint: t('auth.settings.originsHint'),
      validate: (v) => (passkeysOn() && !lines(v).length ? t('kit.form.required') : null),
    },
  ].map((f) => ({ ...f, control: controls[f.name] }));

  const domainNote = h('div', { class: 'domain-note', 'aria-live': 'polite' });
  const mailFields = h('div', { class: 'subfields', id: 'mail-fields' });
  const passkeyFields = h('div', { class: 'subfields', id: 'passkey-fields' });
  const dirtyMark = h('span', { class: 'form-dirty', hidden: true }, icon(icons.info), t('auth.settings.unsaved'));
  const discardButton = button(t('auth.settings.discard'), { variant: 'ghost', dataset: { action: 'discard' }, onclick: () => discard() });

  function section(id, title, text, ...children) {
    return card({ title: t(title), subtitle: t(text), className: 'settings-card', dataset: { section: id } }, h('div', { class: 'settings-fields' }, children));
  }

  const form = createForm({
    t,
    id: 'project-settings',
    className: 'settings-form',
    submitLabel: t('auth.settings.save'),
    submitIcon: icons.check,
    busyLabel: t('auth.settings.saving'),
    fields,
    fieldOf: settingsFieldOf,
    actions: [discardButton, dirtyMark],
    layout: (f) => {
      mount(mailFields, domainNote, f['mail.domainId'].element, h('div', { class: 'grid-2' }, f['mail.from'].element, f['mail.fromName'].element));
      mount(passkeyFields, h('div', { class: 'grid-2' }, f['passkeys.rpId'].element, f['passkeys.rpName'].element), f['passkeys.origins'].element);
      return [
        section('general', 'auth.settings.general', 'auth.settings.generalText', h('div', { class: 'grid-2' }, f.name.element, f.slug.element)),
        section(
          'methods',
          'auth.settings.methods',
          'auth.settings.methodsText',
          h('div', { class: 'switch-grid' }, METHODS.map((m) => f[`signInMethods.${m}`].element)),
          h('div', { class: 'settings-divider' }),
          f.requireEmailVerification.element,
        ),
        section(
          'passwords',
          'auth.settings.passwords',
          'auth.settings.passwordsText',
          h('div', { class: 'narrow-field' }, f['passwordPolicy.minLength'].element),
          h('div', { class: 'switch-row' }, ['requireLetter', 'requireDigit', 'requireSymbol'].map((k) => f[`passwordPolicy.${k}`].element)),
        ),
        section(
          'tokens',
          'auth.settings.tokens',
          'auth.settings.tokensText',
          h('div', { class: 'grid-3' }, f.accessTokenTtlSeconds.element, f.refreshTokenTtlSeconds.element, f.refreshReuseIntervalSeconds.element),
        ),
        section('redirects', 'auth.settings.redirects', 'auth.settings.redirectsText', f.allowedRedirectUrls.element),
        section('mail', 'auth.settings.mail', 'auth.settings.mailText', f.mailOn.element, mailFields),
        section('passkeys', 'auth.settings.passkeys', 'auth.settings.passkeysText', f.passkeysOn.element, passkeyFields),
      ];
    },
    async onSubmit(values) {
      const updated = await ctx.api.patch(authPath(ctx, state.project.id), bodyOf(values));
      state.setProject(updated);
      fill(updated);
      ctx.toast(t('auth.settings.saved'));
    },
  });
  const wired = form.fields;

  // Durations beside the seconds, as they are typed.
  function showDurations() {
    for (const name of ['accessTokenTtlSeconds', 'refreshTokenTtlSeconds', 'refreshReuseIntervalSeconds']) {
      const value = c[name].value;
      const hint = wired[name].hint;
      if (name === 'refreshReuseIntervalSeconds') {
        hint.textContent = value === '0' ? t('auth.settings.reuseStrict') : [durationText(t, value), t('auth.settings.reuseHint')].filter(Boolean).join(' · ');
      } else {
        hint.textContent = durationText(t, value) || '\u00a0';
      }
    }
  }

  function selectedDomain() {
    return domains?.find((d) => d.id === c['mail.domainId'].value) ?? null;
  }

  function showSender() {
    mailFields.hidden = !mailOn();
    passkeyFields.hidden = !passkeysOn();
    const domain = selectedDomain();
    wired['mail.from'].element.querySelector('.input-suffix').textContent = domain ? `@${domain.name}` : '@…';
  }

  // The verified domains to pick from; the project's current domain stays listed (marked) if it is no longer
  // verified, so saving other settings does not silently change the sender.
  function fillDomains(current) {
    const picker = c['mail.domainId'];
    // Until the list is in, the current domain stands as an option of its own, so it is kept.
    const choices = domains
      ? domains.filter((d) => d.status === 'verified' || d.id === current)
      : current
        ? [{ id: current, name: t('kit.loading'), status: 'verified' }]
        : [];
    picker.replaceChildren(
      h('option', { value: '', disabled: true }, t('auth.settings.domainPick')),
      ...choices.map((d) => h('option', { value: d.id }, d.status === 'verified' ? d.name : t('auth.settings.domainUnverified', { name: d.name }))),
    );
    picker.value = choices.some((d) => d.id === current) ? current : '';
    if (domains && !domains.some((d) => d.status === 'verified')) {
      mount(
        domainNote,
        h(
          'div',
          { class: 'note note-warning' },
          icon(icons.alert),
          h('p', null, t('auth.settings.noDomains'), ' ', h('a', { href: dashboardPath(ctx.company.slug, 'mail', 'domains') }, t('auth.settings.toDomains'))),
        ),
      );
    } else {
      domainNote.replaceChildren();
    }
  }

  function fill(p) {
    c.name.value = p.name;
    c.slug.value = p.slug;
    for (const m of METHODS) c[`signInMethods.${m}`].checked = Boolean(p.signInMethods?.[m]);
    c.requireEmailVerification.checked = Boolean(p.requireEmailVerification);
    c['passwordPolicy.minLength'].value = String(p.passwordPolicy?.minLength ?? 8);
    c['passwordPolicy.requireLetter'].checked = Boolean(p.passwordPolicy?.requireLetter);
    c['passwordPolicy.requireDigit'].checked = Boolean(p.passwordPolicy?.requireDigit);
    c['passwordPolicy.requireSymbol'].checked = Boolean(p.passwordPolicy?.requireSymbol);
    c.accessTokenTtlSeconds.value = String(p.accessTokenTtlSeconds);
    c.refreshTokenTtlSeconds.value = String(p.refreshTokenTtlSeconds);
    c.refreshReuseIntervalSeconds.value = String(p.refreshReuseIntervalSeconds);
    c.allowedRedirectUrls.value = (p.allowedRedirectUrls ?? []).join('\n');
    c.mailOn.checked = Boolean(p.mail);
    fillDomains(p.mail?.domainId ?? '');
    c['mail.from'].value = p.mail ? p.mail.from.replace(/@[^@]*$/, '') : '';
    c['mail.fromName'].value = p.mail?.fromName ?? '';
    c.passkeysOn.checked = Boolean(p.passkeys);
    c['passkeys.rpId'].value = p.passkeys?.rpId ?? '';
    c['passkeys.rpName'].value = p.passkeys?.rpName ?? '';
    c['passkeys.origins'].value = (p.passkeys?.origins ?? []).join('\n');
    for (const f of Object.values(wired)) f.setError(null);
    form.setError(null);
    showDurations();
    showSender();
    setDirty(false);
  }

  function bodyOf(v) {
    const domain = selectedDomain();
    return {
      name: v.name.trim(),
      slug: v.slug.trim(),
      signInMethods: Object.fromEntries(METHODS.map((m) => [m, v[`signInMethods.${m}`]])),
      requireEmailVerification: v.requireEmailVerification,
      passwordPolicy: {
        minLength: Number(v['passwordPolicy.minLength']),
        requireLetter: v['passwordPolicy.requireLetter'],
        requireDigit: v['passwordPolicy.requireDigit'],
        requireSymbol: v['passwordPolicy.requireSymbol'],
      },
      accessTokenTtlSeconds: Number(v.accessTokenTtlSeconds),
      refreshTokenTtlSeconds: Number(v.refreshTokenTtlSeconds),
      refreshReuseIntervalSeconds: Number(v.refreshReuseIntervalSeconds),
      allowedRedirectUrls: lines(v.allowedRedirectUrls),
      mail: v.mailOn
        ? { domainId: v['mail.domainId'], from: `${v['mail.from'].trim()}@${domain?.name ?? ''}`, fromName: v['mail.fromName'].trim() }
        : null,
      // An empty relying-party name is left out: the server then names it after the project.
      passkeys: v.passkeysOn
        ? {
            rpId: v['passkeys.rpId'].trim(),
            ...(v['passkeys.rpName'].trim() ? { rpName: v['passkeys.rpName'].trim() } : {}),
            origins: lines(v['passkeys.origins']),
          }
        : null,
    };
  }

  function setDirty(on) {
    dirtyMark.hidden = !on;
    discardButton.hidden = !on;
    ctx.setDirty(on);
  }

  function discard() {
    fill(state.project);
  }

  form.element.addEventListener('input', () => setDirty(true));
  form.element.addEventListener('change', () => {
    setDirty(true);
    showSender();
  });
  for (const name of ['accessTokenTtlSeconds', 'refreshTokenTtlSeconds', 'refreshReuseIntervalSeconds']) c[name].addEventListener('input', showDurations);
  // Ctrl+S / Cmd+S saves, as in the template editor.
  form.element.addEventListener('keydown', (event) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
      event.preventDefault();
      form.element.requestSubmit();
    }
  });

  fill(state.project);
  ctx.api
    .all(companyPath(ctx, 'domains'), { signal: ctx.signal })
    .then((list) => {
      domains = list;
      const keep = c['mail.domainId'].value || state.project.mail?.domainId || '';
      fillDomains(keep);
      showSender();
    })
    .catch((error) => {
      if (error?.name === 'AbortError') return;
      domains = [];
      fillDomains(state.project.mail?.domainId ?? '');
      mount(domainNote, h('div', { class: 'note note-danger' }, icon(icons.alert), h('p', null, t('auth.settings.domainsFailed'))));
      ctx.reportError(error);
    });

  return form.element;
}
