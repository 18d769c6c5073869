// Pieces the mail pages share: API paths, status pills, DNS record purposes.
import { pill } from '../kit/ui.js';

// The company-scoped form of the mail API (docs/mail-api.md, "Paths"): `name`/`dnsRecords`/`body`.
export function mailPath(ctx, ...parts) {
  return `/api/companies/${encodeURIComponent(ctx.company.slug)}/${parts.map((p) => encodeURIComponent(p)).join('/')}`;
}

const DOMAIN_TONES = { verified: 'success', pending: 'warning', failed: 'danger' };
export function domainStatusPill(t, status) {
  return pill(t(`mail.domainStatus.${status}`), DOMAIN_TONES[status] ?? 'neutral', { dataset: { status } });
}

// Mail log and recipient statuses (docs/mail-send.md, "States"), and the timeline's event names
// (spec/DECISIONS.md: queued, sent, delivered, deferred, bounced, complained, suppressed).
const MAIL_TONES = {
  queued: 'info',
  sent: 'info',
  delivered: 'success',
  deferred: 'warning',
  bounced: 'danger',
  complained: 'danger',
  suppressed: 'neutral',
};
export function mailTone(status) {
  return MAIL_TONES[status] ?? 'neutral';
}
export function mailStatusPill(t, status) {
  const key = `mail.status.${status}`;
  return pill(t.has(key) ? t(key) : status, mailTone(status), { dataset: { status } });
}

const REASON_TONES = { bounce: 'danger', complaint: 'warning', manual: 'neutral' };
export function reasonPill(t, reason) {
  const key = `mail.reason.${reason}`;
  return pill(t.has(key) ? t(key) : reason, REASON_TONES[reason] ?? 'neutral', { dataset: { reason } });
}

// What a published record is for, from its shape (core/mail/domain_records.h).
export function recordPurpose(record, domainName) {
  const name = String(record.name ?? record.host ?? '').toLowerCase();
  const value = String(record.value ?? '');
  if (record.type === 'MX') return 'mx';
  if (name.includes('._domainkey.')) return 'dkim';
  if (name.startsWith('_dmarc.')) return 'dmarc';
  if (record.type === 'TXT' && /^v=spf1(\s|$)/i.test(value)) return 'spf';
  return name === domainName ? 'root' : 'other';
}
