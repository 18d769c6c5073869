// Pieces the auth-project pages share: API paths, sign-in method chips, user badges, durations, and where a
// refusal of the settings belongs.
import { h } from '../kit/dom.js';
import { pill } from '../kit/ui.js';

// The dashboard API of auth projects (edge/auth_projects/project_routes.cpp):
// /api/companies/{slug}/auth-projects[/...], each part percent-encoded.
export function authPath(ctx, ...parts) {
  return companyPath(ctx, 'auth-projects', ...parts);
}

// Another company-scoped API (the mail domains the sender is picked from).
export function companyPath(ctx, ...parts) {
  return `/api/companies/${encodeURIComponent(ctx.company.slug)}/${parts.map((p) => encodeURIComponent(p)).join('/')}`;
}

// core/auth/project_settings.h SignInMethods, in the order the settings show them.
export const METHODS = ['password', 'passkey', 'social', 'totp'];

export function methodChips(t, methods) {
  const on = METHODS.filter((m) => methods?.[m]);
  if (!on.length) return h('span', { class: 'muted' }, t('auth.method.none'));
  return h(
    'span',
    { class: 'chips' },
    on.map((m) => h('span', { class: 'chip chip-method', dataset: { method: m } }, t(`auth.method.${m}`))),
  );
}

// Verified / Unverified, Disabled, 2FA: what the users list and a user's page show about an account.
export function userBadges(t, user) {
  return h(
    'span',
    { class: 'badges' },
    user.disabled ? pill(t('auth.users.disabled'), 'danger', { dataset: { badge: 'disabled' } }) : null,
    user.emailVerified
      ? pill(t('auth.users.verified'), 'success', { dataset: { badge: 'verified' } })
      : pill(t('auth.users.unverified'), 'warning', { dataset: { badge: 'unverified' } }),
    user.mfa?.totp ? pill(t('auth.users.mfa'), 'info', { dataset: { badge: 'mfa' } }) : null,
  );
}

const UNITS = [
  ['day', 86400],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

// `15 minutes`, `30 days`, `1 hour 30 minutes` in the page's language (Intl unit names); '' for a value that
// is not a positive whole number.
export function durationText(t, seconds) {
  const n = Number(seconds);
  if (!Number.isInteger(n) || n <= 0) return '';
  const parts = [];
  let rest = n;
  for (const [unit, size] of UNITS) {
    const amount = Math.floor(rest / size);
    if (!amount) continue;
    parts.push(new Intl.NumberFormat(t.locale, { style: 'unit', unit, unitDisplay: 'long' }).format(amount));
    rest -= amount * size;
    if (parts.length === 2) break;
  }
  return parts.join(' ');
}

// A project slug proposed from its name: Turkish letters to their ASCII base, anything else to single dashes
// (the rule is core's validate_slug; the server has the last word).
export function slugFrom(name) {
  const ascii = name
    .toLocaleLowerCase('tr-TR')
    .replace(/[ıİ]/g, 'i')
    .replace(/ş/g, 's')
    .replace(/ğ/g, 'g')
    .replace(/ü/g, 'u')
    .replace(/ö/g, 'o')
    .replace(/ç/g, 'c')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '');
  return ascii.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 63).replace(/-+$/, '');
}

export const SLUG = /^(?!-)(?!.*--)[a-z0-9-]{2,63}(?<!-)$/;

// The settings form's field for a refusal of PATCH/POST auth-projects: the API's sentences name the member
// they are about in quotes, or start with the rule's subject (core/auth/project_settings.cpp,
// core/validate.cpp). Answers null when the sentence names no field (it then shows at the form's foot only).
const FIELD_RULES = [
  [/'accessTokenTtlSeconds'/, 'accessTokenTtlSeconds'],
  [/'refreshTokenTtlSeconds'/, 'refreshTokenTtlSeconds'],
  [/'refreshReuseIntervalSeconds'/, 'refreshReuseIntervalSeconds'],
  [/'minLength'/, 'passwordPolicy.minLength'],
  [/'allowedRedirectUrls'|allowed redirect URL|^URL /, 'allowedRedirectUrls'],
  [/passkey sign-in needs/, 'signInMethods.passkey'],
  [/'rpId'/, 'passkeys.rpId'],
  [/'rpName'/, 'passkeys.rpName'],
  [/passkey origin|'origins'/, 'passkeys.origins'],
  [/'domainId'/, 'mail.domainId'],
  [/'fromName'/, 'mail.fromName'],
  [/'from'|^email must/, 'mail.from'],
  [/^slug |with slug '|'slug'/, 'slug'],
  [/'name'/, 'name'],
];
export function settingsFieldOf(error) {
  if (!error || error.status !== 400 && error.status !== 409 && error.status !== 422) return null;
  const message = String(error.message ?? '');
  for (const [pattern, name] of FIELD_RULES) if (pattern.test(message)) return name;
  return null;
}

// Lines of a textarea as a list: trimmed, empty lines dropped.
export function lines(text) {
  return String(text ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}
