// The frame of every dashboard page: the top bar (brand, company switcher, language switch, the signed-in
// user and Sign out), the side navigation of the product's pages, the banner for errors and the toasts.
import { describeError } from './api.js';
import { h, icon, mount } from './dom.js';
import { icons } from './icons.js';
import { LANGUAGES } from './i18n.js';

// session: GET /api/session's data. company: the current one (or null). nav: [{ title, items: [{ id, label,
// href, icon }] }]. onCompany(slug), onLang(lang): the shell's reactions.
export function createLayout({ t, lang, session, company, nav, onCompany, onLang }) {
  const banners = h('div', { class: 'banners', 'aria-live': 'polite' });
  const content = h('div', { class: 'page' });
  const toasts = h('div', { class: 'toasts', 'aria-live': 'polite', role: 'status' });
  const main = h('main', { class: 'main', id: 'main', tabindex: '-1' }, banners, content);
  const navList = h('nav', { class: 'sidenav', id: 'sidenav', 'aria-label': t('kit.navigation') });
  const toggle = h(
    'button',
    {
      type: 'button',
      class: 'btn btn-ghost btn-icon nav-toggle',
      'aria-controls': 'sidenav',
      'aria-expanded': 'false',
      'aria-label': t('kit.menu'),
      onclick: () => setNavOpen(root.dataset.nav !== 'open'),
    },
    icon(icons.menu),
  );

  const companies = session.companies ?? [];
  const switcher = companies.length
    ? h(
        'label',
        { class: 'company-switch' },
        h('span', { class: 'sr-only' }, t('kit.company')),
        h(
          'select',
          {
            class: 'input select',
            id: 'company-switch',
            onchange: (event) => onCompany(event.target.value),
          },
          company ? null : h('option', { value: '', selected: true, disabled: true }, t('kit.company')),
          companies.map((c) => h('option', { value: c.slug, selected: c.slug === company?.slug }, c.name)),
        ),
      )
    : null;

  const langSwitch = h(
    'div',
    { class: 'lang-switch', role: 'group', 'aria-label': t('kit.language') },
    LANGUAGES.map((code) =>
      h(
        'button',
        {
          type: 'button',
          lang: code,
          'aria-pressed': String(code === lang),
          dataset: { lang: code },
          onclick: () => code !== lang && onLang(code),
        },
        code.toUpperCase(),
      ),
    ),
  );

  const user = session.user;
  const signOut = h(
    'form',
    { method: 'post', action: '/logout', class: 'signout' },
    h('input', { type: 'hidden', name: 'csrf', value: session.csrfToken }),
    h('button', { type: 'submit', class: 'btn btn-ghost btn-small' }, t('kit.signOut')),
  );

  const root = h(
    'div',
    { class: 'app', dataset: { nav: 'closed' } },
    h('a', { class: 'skip-link', href: '#main' }, t('kit.skip')),
    h(
      'header',
      { class: 'topbar' },
      nav.length ? toggle : null,
      h('a', { class: 'brand', href: company ? `/dashboard/${encodeURIComponent(company.slug)}` : '/dashboard' }, h('span', { class: 'brand-mark', 'aria-hidden': 'true' }, '◆'), t('kit.brand')),
      h('div', { class: 'topbar-spacer' }),
      switcher,
      langSwitch,
      h(
        'div',
        { class: 'user' },
        h('span', { class: 'user-avatar', 'aria-hidden': 'true' }, (user.name || user.email || '?').trim().charAt(0).toUpperCase()),
        h(
          'span',
          { class: 'user-text' },
          h('span', { class: 'user-name' }, user.name || user.email),
          company ? h('span', { class: 'user-role' }, t(`kit.role.${company.role}`)) : null,
        ),
        signOut,
      ),
    ),
    h('div', { class: ['shell', !nav.length && 'shell-wide'] }, nav.length ? navList : null, h('div', { class: 'nav-scrim', onclick: () => setNavOpen(false) }), main),
    toasts,
  );

  root.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && root.dataset.nav === 'open') {
      setNavOpen(false);
      toggle.focus();
    }
  });

  function setNavOpen(open) {
    root.dataset.nav = open ? 'open' : 'closed';
    toggle.setAttribute('aria-expanded', String(open));
  }

  function renderNav(active) {
    mount(
      navList,
      h(
        'div',
        { class: 'sidenav-inner' },
        nav.map((section) =>
        h(
          'div',
          { class: 'nav-section' },
          h('p', { class: 'nav-title' }, section.title),
          h(
            'ul',
            { class: 'nav-list' },
            section.items.map((item) =>
              h(
                'li',
                null,
                h(
                  'a',
                  { href: item.href, class: 'nav-link', 'aria-current': item.id === active ? 'page' : null, dataset: { page: item.id } },
                  item.icon ? icon(item.icon) : null,
                  h('span', null, item.label),
                ),
              ),
            ),
          ),
        ),
        ),
      ),
    );
  }

  let countdown = 0;
  const banner = {
    // An error as a dismissible banner; 429 counts its Retry-After down, 401 offers to sign in again.
    error(error) {
      clearInterval(countdown);
      const text = h('span', { class: 'banner-text' }, describeError(error, t));
      const extra = [];
      if (error?.status === 401) {
        const next = location.pathname + location.search;
        extra.push(h('a', { class: 'banner-link', href: `/login?next=${encodeURIComponent(next)}&ui_locales=${lang}` }, t('kit.signIn')));
      }
      const element = show('danger', text, extra, { kind: error?.status === 429 ? 'rate-limited' : 'error', status: error?.status ?? '' });
      if (error?.status === 429 && error.retryAfter) {
        let left = error.retryAfter;
        countdown = setInterval(() => {
          left -= 1;
          if (left <= 0 || !element.isConnected) {
            clearInterval(countdown);
            element.remove();
            return;
          }
          text.textContent = t('kit.error.rateLimited', { seconds: left });
        }, 1000);
      }
      return element;
    },
    info(message) {
      return show('info', h('span', { class: 'banner-text' }, message), []);
    },
    clear() {
      clearInterval(countdown);
      banners.replaceChildren();
    },
  };

  function show(tone, text, extra, dataset = {}) {
    const element = h(
      'div',
      { class: ['banner', `banner-${tone}`], role: tone === 'danger' ? 'alert' : 'status', dataset },
      icon(tone === 'danger' ? icons.alert : icons.info),
      text,
      extra,
      h('button', { type: 'button', class: 'btn btn-ghost btn-icon banner-close', 'aria-label': t('kit.dismiss'), onclick: () => element.remove() }, icon(icons.x)),
    );
    banners.replaceChildren(element);
    return element;
  }

  function toast(message) {
    const element = h('div', { class: 'toast', role: 'status' }, icon(icons.check), h('span', null, message));
    toasts.append(element);
    while (toasts.children.length > 2) toasts.firstElementChild.remove();
    setTimeout(() => element.classList.add('toast-leaving'), 3600);
    setTimeout(() => element.remove(), 4000);
  }

  return { root, content, main, banner, toast, renderNav, setNavOpen };
}

// The head of a page: an optional back link, the title, a subtitle and actions on the right.
export function pageHeader({ title, subtitle, back, actions, status }) {
  return h(
    'header',
    { class: 'page-header' },
    back ? h('a', { class: 'back-link', href: back.href }, icon(icons.back), h('span', null, back.label)) : null,
    h(
      'div',
      { class: 'page-header-row' },
      h('div', { class: 'page-titles' }, h('h1', { class: 'page-title' }, title, status ? h('span', { class: 'page-status' }, status) : null), subtitle ? h('p', { class: 'page-subtitle' }, subtitle) : null),
      actions ? h('div', { class: 'page-actions' }, actions) : null,
    ),
  );
}
