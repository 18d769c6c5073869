// Settings: language, this device (its company, branch, token), the menu copy, the counter board, and
// Unpair / Clear local data, both refused while anything waits to be synced (the refusal says how much money
// is among it).
import { h, mount } from '../../dashboard/kit/dom.js';
import { absoluteTime, button, card, confirmDialog, details, mono } from '../../dashboard/kit/ui.js';
import { LANGUAGES } from '../../dashboard/kit/i18n.js';
import { tillIcons } from '../icons.js';
import { refusal } from './common.js';

export function settingsView({ t, lang, till, toast, onLang }) {
  const element = h('section', { class: 'till-screen', dataset: { screen: 'settings' } });
  const refusalNote = h('div', { class: 'note note-danger', hidden: true, role: 'alert', dataset: { role: 'refusal' } });

  function refuse(error) {
    refusalNote.replaceChildren(h('p', null, refusal(error, t)));
    refusalNote.hidden = false;
    refusalNote.scrollIntoView({ block: 'center' });
  }

  async function unpair() {
    refusalNote.hidden = true;
    try {
      till.refuseWhileUnsynced();
    } catch (error) {
      refuse(error);
      return;
    }
    const ok = await confirmDialog({ title: t('till.settings.unpairTitle'), text: t('till.settings.unpairText'), confirmLabel: t('till.settings.unpair'), cancelLabel: t('kit.cancel'), danger: true });
    if (!ok) return;
    try {
      const { revoked } = await till.unpair();
      toast(revoked ? t('till.settings.unpairedRevoked') : t('till.settings.unpairedRevokeYourself'), revoked ? 'success' : 'warning');
    } catch (error) {
      refuse(error);
    }
  }

  async function clearData() {
    refusalNote.hidden = true;
    try {
      till.refuseWhileUnsynced();
    } catch (error) {
      refuse(error);
      return;
    }
    const ok = await confirmDialog({ title: t('till.settings.clearTitle'), text: t('till.settings.clearText'), confirmLabel: t('till.settings.clear'), cancelLabel: t('kit.cancel'), danger: true });
    if (!ok) return;
    try {
      await till.clearLocalData();
      toast(t('till.settings.cleared'));
    } catch (error) {
      refuse(error);
    }
  }

  function update() {
    const device = till.state.device;
    const menu = till.state.menu;
    if (!device) return;
    mount(
      element,
      h('header', { class: 'till-screen-header' }, h('h1', { class: 'till-title' }, t('till.settings.title'))),
      refusalNote,
      h(
        'div',
        { class: 'grid-2' },
        card(
          { title: t('till.settings.language') },
          h(
            'div',
            { class: 'lang-choice', role: 'group', 'aria-label': t('kit.language') },
            LANGUAGES.map((code) => button(t(`till.settings.lang.${code}`), { variant: code === lang ? 'primary' : 'secondary', className: 'btn-large', 'aria-pressed': String(code === lang), dataset: { lang: code }, onclick: () => code !== lang && onLang(code) })),
          ),
        ),
        card(
          { title: t('till.settings.board'), subtitle: t('till.settings.boardText') },
          h('a', { class: 'btn btn-secondary btn-large', href: '/web/till/board.html', target: '_blank', rel: 'noopener' }, t('till.settings.openBoard')),
        ),
      ),
      card(
        {
          title: t('till.settings.device'),
          subtitle: t('till.settings.deviceText', { name: device.tokenName ?? `Till: ${device.deviceName}` }),
          actions: h('a', { class: 'btn btn-secondary', href: '#/repair', title: t('till.settings.repairHint'), dataset: { action: 'repair' } }, t('till.settings.repair')),
          dataset: { role: 'device' },
        },
        details([
          [t('till.settings.deviceName'), device.deviceName],
          [t('till.settings.company'), device.company.name],
          [t('till.settings.branch'), device.branch.name],
          [t('till.settings.token'), h('span', null, device.tokenName ?? '', ' ', mono(`${device.tokenPrefix}…`))],
          [t('till.settings.pairedAt'), absoluteTime(device.pairedAt)],
        ]),
      ),
      card(
        {
          title: t('till.settings.menu'),
          subtitle: menu ? t('till.settings.menuText', { products: menu.products.length, tables: menu.tables.length }) : t('till.tables.noMenuText'),
          actions: button(t('till.settings.refreshMenu'), {
            variant: 'secondary',
            icon: tillIcons.sync,
            dataset: { action: 'refresh-menu' },
            onclick: async () => {
              try {
                const answer = await till.refreshMenu();
                toast(answer.ok ? t('till.settings.menuRefreshed') : t('till.tables.menuFailed'), answer.ok ? 'success' : 'danger');
              } catch {
                toast(t('till.tables.menuFailed'), 'danger');
              }
            },
          }),
        },
        menu ? details([[t('till.settings.menuFetched'), absoluteTime(menu.fetchedAt)]]) : null,
      ),
      card(
        { title: t('till.settings.danger'), className: 'card-danger' },
        h(
          'div',
          { class: 'danger-row' },
          h('div', null, h('p', { class: 'strong' }, t('till.settings.unpair')), h('p', { class: 'muted' }, t('till.settings.unpairHint'))),
          button(t('till.settings.unpair'), { variant: 'danger-outline', className: 'btn-large', dataset: { action: 'unpair' }, onclick: unpair }),
        ),
        h(
          'div',
          { class: 'danger-row' },
          h('div', null, h('p', { class: 'strong' }, t('till.settings.clear')), h('p', { class: 'muted' }, t('till.settings.clearHint'))),
          button(t('till.settings.clear'), { variant: 'danger-outline', className: 'btn-large', dataset: { action: 'clear' }, onclick: clearData }),
        ),
      ),
    );
  }

  update();
  return { element, update };
}
