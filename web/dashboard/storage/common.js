// Pieces the storage pages share: API paths, byte sizes in words, the quota bar, visibility pills.
import { h } from '../kit/dom.js';
import { card, pill } from '../kit/ui.js';

// `/api/companies/{slug}/<parts...>`, each part percent-encoded.
export function storagePath(ctx, ...parts) {
  return `/api/companies/${encodeURIComponent(ctx.company.slug)}/${parts.map((p) => encodeURIComponent(p)).join('/')}`;
}

// 1234567 -> "1.2 MB" (decimal units, as the limits are given).
export function formatBytes(t, bytes) {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = Number(bytes) || 0;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${t.number(Number(value.toFixed(digits)))} ${units[unit]}`;
}

export function visibilityPill(t, visibility) {
  return pill(t(`storage.visibility.${visibility}`), visibility === 'public' ? 'info' : 'neutral', { dataset: { visibility } });
}

// The company's quota as a bar: GET /storage-quota. Answers { element, reload() }.
export function quotaBar(ctx) {
  const { t } = ctx;
  const meter = h('progress', { class: 'quota-meter', max: 1, value: 0, 'aria-label': t('storage.quota.title') });
  const text = h('p', { class: 'quota-text', dataset: { role: 'quota-text' } }, '…');
  const element = card({ title: t('storage.quota.title'), className: 'quota-card', id: 'quota' }, meter, text);
  async function reload() {
    try {
      const q = await ctx.api.get(storagePath(ctx, 'storage-quota'), { signal: ctx.signal });
      meter.max = Math.max(1, q.limit);
      meter.value = Math.min(q.used, q.limit);
      const percent = q.limit > 0 ? Math.round((q.used / q.limit) * 1000) / 10 : 0;
      element.dataset.used = String(q.used);
      element.dataset.limit = String(q.limit);
      element.classList.toggle('quota-high', percent >= 90);
      text.textContent = t('storage.quota.text', { used: formatBytes(t, q.used), limit: formatBytes(t, q.limit), percent: t.number(percent) });
    } catch (error) {
      if (error?.name !== 'AbortError') ctx.reportError(error);
    }
  }
  reload();
  return { element, reload };
}
