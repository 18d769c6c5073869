// A page's Subscribers tab: who subscribed, oldest first and paged as the API lists them (docs/status-
// subscribers.md, "Dashboard API"): type, where notifications go (the webhook URL, the e-mail address or the
// Telegram chat, by type), topic (all, incidents, maintenance), the components they filter on (none: all),
// language, confirmed (`verified`) or waiting for the opt-in (`pending`), since when; Remove (asks first). A
// note says when the page does not take new subscribers (Settings). No secrets are shown: the API never
// returns the management token, webhook secret or bot token.
import { h } from '../kit/dom.js';
import { icons } from '../kit/icons.js';
import { pagedTable } from '../kit/table.js';
import { button, confirmDialog, mono, pill, timeAgo } from '../kit/ui.js';
import { componentNames, statusContext, statusPill } from './common.js';

// The member that holds a subscriber's destination, per type.
const DESTINATION = { webhook: 'webhookUrl', email: 'email', telegram: 'chatId' };
const destination = (s) => s[DESTINATION[s.type]];

export default function subscribersTab(ctx, shared) {
  const { t } = ctx;
  const { api, paths } = statusContext(ctx);
  const pageId = shared.page.id;
  const slot = h('div', { id: 'subscribers-list' });
  const note = h('div');
  const drawNote = () =>
    note.replaceChildren(...(shared.page.subscribersEnabled ? [] : [h('p', { class: 'note note-info', dataset: { note: 'subscribers-off' } }, t('status.subscribers.off'))]));
  drawNote();
  let components = [];

  async function remove(s) {
    const ok = await confirmDialog({
      title: t('status.subscribers.removeTitle', { who: destination(s) }),
      text: t('status.subscribers.removeText'),
      confirmLabel: t('status.subscribers.remove'),
      cancelLabel: t('kit.cancel'),
      danger: true,
    });
    if (!ok) return;
    try {
      await api.del(paths.subscriber(pageId, s.id));
    } catch (error) {
      ctx.reportError(error);
      return;
    }
    ctx.toast(t('status.subscribers.removed', { who: destination(s) }));
    table.reload();
  }

  const chips = (items) => h('span', { class: 'chips' }, items.map((x) => h('span', { class: 'chip' }, x)));
  const table = pagedTable({
    t,
    caption: t('status.tab.subscribers'),
    load: async (args) => {
      const [page, list] = await Promise.all([api.list(paths.subscribers(pageId), args), shared.components()]);
      components = list;
      return page;
    },
    onError: (error) => ctx.reportError(error),
    rowAttrs: (s) => ({ dataset: { subscriber: s.id, type: s.type, state: s.status } }),
    empty: { title: t('status.subscribers.emptyTitle'), text: t('status.subscribers.emptyText'), drawing: icons.users },
    columns: [
      { label: t('status.subscribers.type'), className: 'cell-nowrap', render: (s) => pill(t(`status.subscribers.type.${s.type}`), 'info') },
      { label: t('status.subscribers.destination'), className: 'cell-destination', render: (s) => mono(destination(s)) },
      { label: t('status.subscribers.topic'), className: 'cell-nowrap', render: (s) => t(`status.subscribers.topic.${s.topic}`) },
      {
        label: t('status.subscribers.components'),
        render: (s) => (s.componentIds.length ? chips(componentNames(components, s.componentIds)) : h('span', { class: 'muted' }, t('status.subscribers.allComponents'))),
      },
      { label: t('status.subscribers.lang'), className: 'cell-nowrap', render: (s) => t(`status.lang.${s.lang}`) },
      { label: t('status.subscribers.state'), className: 'cell-nowrap', render: (s) => statusPill(t, s.status) },
      { label: t('status.subscribers.since'), className: 'cell-nowrap', render: (s) => timeAgo(s.createdAt) },
      { label: t('status.actions'), className: 'cell-actions', render: (s) => button(t('status.subscribers.remove'), { variant: 'ghost', className: 'btn-small', icon: icons.trash, dataset: { action: 'remove-subscriber' }, onclick: () => remove(s) }) },
    ],
  });
  slot.append(table.element);
  return h('div', { class: 'status-tab' }, h('div', { class: 'tab-toolbar' }, h('p', { class: 'muted' }, t('status.subscribers.intro'))), note, slot);
}
