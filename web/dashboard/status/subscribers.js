// A page's Subscribers tab: who subscribed (type, where notifications go, topics and components they
// filter on, confirmed or waiting for the opt-in, since when), paged, with Remove (asks first). A note says
// when the page does not take new subscribers (Settings). No secrets are shown: the API never returns the
// management token, webhook secret or bot token. API: api_paths.js subscribers / subscriber.
import { h } from '../kit/dom.js';
import { icons } from '../kit/icons.js';
import { pagedTable } from '../kit/table.js';
import { button, confirmDialog, mono, pill, timeAgo } from '../kit/ui.js';
import { isMissingApi } from './api.js';
import { unavailable, statusContext } from './common.js';

// Where a subscriber's notifications go, whatever the type calls it.
function destination(s) {
  return s.email ?? s.webhookUrl ?? (s.chatId !== undefined ? `chat ${s.chatId}` : null) ?? '—';
}

export default function subscribersTab(ctx, shared) {
  const { t } = ctx;
  const { api, paths } = statusContext(ctx);
  const pageId = shared.page.id;
  const slot = h('div', { id: 'subscribers-list' });
  const note = h('div');
  const drawNote = () =>
    note.replaceChildren(...(shared.page.subscribersEnabled ? [] : [h('p', { class: 'note note-info', dataset: { note: 'subscribers-off' } }, t('status.subscribers.off'))]));
  drawNote();

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

  const list = (items, empty) => (items?.length ? h('span', { class: 'chips' }, items.map((x) => h('span', { class: 'chip' }, x))) : h('span', { class: 'muted' }, empty));
  const table = pagedTable({
    t,
    caption: t('status.tab.subscribers'),
    load: async (args) => {
      try {
        return await api.list(paths.subscribers(pageId), args);
      } catch (error) {
        if (isMissingApi(error)) {
          slot.replaceChildren(unavailable(t, 'subscribers'));
          return new Promise(() => {}); // the table is gone; nothing more to draw
        }
        throw error;
      }
    },
    onError: (error) => ctx.reportError(error),
    rowAttrs: (s) => ({ dataset: { subscriber: s.id } }),
    empty: { title: t('status.subscribers.emptyTitle'), text: t('status.subscribers.emptyText'), drawing: icons.users },
    columns: [
      { label: t('status.subscribers.type'), className: 'cell-nowrap', render: (s) => pill(t.has(`status.subscribers.type.${s.type}`) ? t(`status.subscribers.type.${s.type}`) : s.type, 'info') },
      { label: t('status.subscribers.destination'), render: (s) => mono(String(destination(s))) },
      { label: t('status.subscribers.topics'), render: (s) => list(s.topic && s.topic !== 'all' ? [s.topic] : [], t('status.subscribers.allTopics')) },
      { label: t('status.subscribers.components'), render: (s) => list(s.componentIds, t('status.subscribers.allComponents')) },
      {
        label: t('status.subscribers.state'),
        className: 'cell-nowrap',
        render: (s) => {
          const confirmed = s.status === 'verified';
          return pill(t(confirmed ? 'status.state.confirmed' : 'status.state.pending'), confirmed ? 'success' : 'neutral');
        },
      },
      { label: t('status.subscribers.since'), className: 'cell-nowrap', render: (s) => timeAgo(s.createdAt) },
      { label: t('status.actions'), className: 'cell-actions', render: (s) => button(t('status.subscribers.remove'), { variant: 'ghost', className: 'btn-small', icon: icons.trash, dataset: { action: 'remove-subscriber' }, onclick: () => remove(s) }) },
    ],
  });
  slot.append(table.element);
  return h('div', { class: 'status-tab' }, h('div', { class: 'tab-toolbar' }, h('p', { class: 'muted' }, t('status.subscribers.intro'))), note, slot);
}
