// The till's frame: the bar (branch and device, the screens, the connection and queue state, the
// language), a warning line while money taken here is not on the server, the screen, and toasts.
import { h, icon, mount } from '../../dashboard/kit/dom.js';
import { LANGUAGES } from '../../dashboard/kit/i18n.js';
import { pill } from '../../dashboard/kit/ui.js';
import { money } from '../format.js';
import { kitIcons, tillIcons } from '../icons.js';

const SCREENS = [
  { id: 'tables', hash: '#/tables', icon: tillIcons.tables },
  { id: 'orders', hash: '#/orders', icon: tillIcons.receipt },
  { id: 'sync', hash: '#/sync', icon: tillIcons.sync },
  { id: 'settings', hash: '#/settings', icon: tillIcons.gear },
];

export function createShell({ t, lang, till, onLang }) {
  const status = h('div', { class: 'till-status', 'aria-live': 'polite' });
  const alert = h('div', { class: 'till-alert', hidden: true, role: 'status' });
  const main = h('main', { class: 'till-main', id: 'main', tabindex: '-1' });
  const toasts = h('div', { class: 'toasts', 'aria-live': 'polite', role: 'status' });
  const brand = h('div', { class: 'till-brand' });
  const navLinks = SCREENS.map((screen) =>
    h(
      'a',
      { class: 'till-tab', href: screen.hash, dataset: { screen: screen.id } },
      icon(screen.icon),
      h('span', { class: 'till-tab-label' }, t(`till.nav.${screen.id}`)),
      screen.id === 'sync' ? h('span', { class: 'till-tab-badge', dataset: { role: 'pending-badge' }, hidden: true }) : null,
    ),
  );
  const nav = h('nav', { class: 'till-nav', 'aria-label': t('till.nav.label') }, navLinks);
  const langSwitch = h(
    'div',
    { class: 'lang-switch', role: 'group', 'aria-label': t('kit.language') },
    LANGUAGES.map((code) =>
      h('button', { type: 'button', lang: code, 'aria-pressed': String(code === lang), dataset: { lang: code }, onclick: () => code !== lang && onLang(code) }, code.toUpperCase()),
    ),
  );
  const root = h(
    'div',
    { class: 'till' },
    h('header', { class: 'till-bar' }, brand, nav, status, langSwitch),
    alert,
    main,
    toasts,
  );

  function connection(s) {
    if (s.halted) return pill(t('till.status.halted'), 'danger', { dataset: { connection: 'halted' } });
    if (s.online) return pill(s.running ? t('till.status.syncing') : t('till.status.online'), 'success', { dataset: { connection: 'online' } });
    return h('span', { class: 'pill pill-warning', dataset: { connection: 'offline' } }, icon(tillIcons.wifiOff), t('till.status.offline'));
  }

  function update(screen) {
    const device = till.state.device;
    const s = till.status();
    mount(
      brand,
      h('span', { class: 'brand-mark', 'aria-hidden': 'true' }, '◆'),
      h('span', { class: 'till-brand-text' }, h('strong', null, device?.branch.name ?? t('till.title')), device ? h('span', { class: 'till-device' }, device.deviceName) : null),
    );
    nav.hidden = !device;
    for (const link of navLinks) link.setAttribute('aria-current', link.dataset.screen === screen ? 'page' : 'false');
    const badge = nav.querySelector('[data-role="pending-badge"]');
    badge.textContent = String(s.pending);
    badge.hidden = !s.pending;
    mount(
      status,
      device ? connection(s) : null,
      device
        ? h(
            'a',
            { class: ['till-pending', s.pending ? 'has-pending' : null], href: '#/sync', dataset: { pending: s.pending } },
            s.pending ? t('till.status.pending', { count: s.pending }) : t('till.status.allSynced'),
          )
        : null,
    );
    alert.hidden = !s.money;
    if (s.money) {
      mount(
        alert,
        icon(kitIcons.alert),
        h('span', null, t('till.status.moneyNotOnServer', { amount: money(s.money, t.locale) })),
        h('span', { class: 'sr-only' }, ' '),
        h('strong', { class: 'till-alert-amount', dataset: { minor: s.money, role: 'unsynced-money' } }, money(s.money, t.locale)),
      );
    }
  }

  function toast(message, tone = 'success') {
    const element = h('div', { class: ['toast', `toast-${tone}`], role: 'status' }, icon(tone === 'success' ? kitIcons.check : kitIcons.alert), h('span', null, message));
    toasts.append(element);
    while (toasts.children.length > 3) toasts.firstElementChild.remove();
    setTimeout(() => element.classList.add('toast-leaving'), 3600);
    setTimeout(() => element.remove(), 4000);
  }

  return { root, main, update, toast };
}
