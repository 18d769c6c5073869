// Languages of the dashboard: English and Turkish. The language comes from `?lang=` (remembered), then the
// remembered choice, then the browser's languages; English by default. Texts live in dictionaries, one module
// per product (mail/texts.js) plus the kit's own (kit/texts.js), each `{ en: {...}, tr: {...} }`. A value
// is a string with `{name}` placeholders, or a function of the parameters (plurals).

export const LANGUAGES = ['en', 'tr'];
const STORAGE_KEY = 'platform.dashboard.lang';

function remembered() {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null; // storage disabled: the choice lasts for this page only
  }
}

export function rememberLang(lang) {
  try {
    localStorage.setItem(STORAGE_KEY, lang);
  } catch {
    // nothing to do: see remembered()
  }
}

// The language for this page load; `?lang=` is remembered for the next ones.
export function resolveLang(url = new URL(location.href), languages = navigator.languages ?? [navigator.language]) {
  const asked = url.searchParams.get('lang');
  if (LANGUAGES.includes(asked)) {
    rememberLang(asked);
    return asked;
  }
  const stored = remembered();
  if (LANGUAGES.includes(stored)) return stored;
  for (const tag of languages ?? []) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return 'en';
}

const RELATIVE_STEPS = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Infinity],
];

// An i18n object for `lang` over the dictionaries (later ones win on the same key). A key missing in the
// language falls back to English, then to the key itself (visible, so a forgotten text is noticed).
export function createI18n(lang, ...dictionaries) {
  const table = {};
  const english = {};
  for (const dictionary of dictionaries) {
    Object.assign(english, dictionary.en);
    Object.assign(table, dictionary.en, dictionary[lang]);
  }
  const locale = lang === 'tr' ? 'tr-TR' : 'en-GB';
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const dateTimeSeconds = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' });
  const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const numbers = new Intl.NumberFormat(locale);

  function t(key, params = {}) {
    const value = table[key] ?? english[key];
    if (value === undefined) return key;
    if (typeof value === 'function') return value(params, { number: (n) => numbers.format(n) });
    return value.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
  }

  function asDate(value) {
    const date = value instanceof Date ? value : new Date(value);
    return Number.isNaN(date.getTime()) ? null : date;
  }

  const i18n = {
    lang,
    locale,
    t,
    has: (key) => key in table,
    number: (n) => numbers.format(n),
    // `24 Nov 2026, 14:51` in the browser's time zone; '' for a missing or bad value.
    dateTime(value, { seconds = false } = {}) {
      const date = asDate(value);
      if (!date) return '';
      return (seconds ? dateTimeSeconds : dateTime).format(date);
    },
    // `5 minutes ago`, `yesterday`, `in 2 hours`.
    relative(value, now = Date.now()) {
      const date = asDate(value);
      if (!date) return '';
      let amount = (date.getTime() - now) / 1000;
      if (Math.abs(amount) < 45) return t('kit.time.now');
      for (const [unit, size] of RELATIVE_STEPS) {
        if (Math.abs(amount) < size || unit === 'year') return relative.format(Math.round(amount), unit);
        amount /= size;
      }
      return '';
    },
  };
  // `t` carries the rest, so a module given only `t` can format too (t.number, t.dateTime, t.relative).
  Object.assign(t, { lang, locale, has: i18n.has, number: i18n.number, dateTime: i18n.dateTime, relative: i18n.relative });
  return i18n;
}
