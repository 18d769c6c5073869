// Copy-to-clipboard buttons. The Clipboard API needs a secure context (https, or localhost); elsewhere the
// text is copied through a selected, off-screen textarea. The button says "Copied" for a moment.
import { h, icon } from './dom.js';
import { icons } from './icons.js';

async function writeText(text) {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = h('textarea', { class: 'offscreen', readonly: true, 'aria-hidden': 'true' });
  area.value = text;
  document.body.append(area);
  area.select();
  try {
    if (!document.execCommand('copy')) throw new Error('copy refused');
  } finally {
    area.remove();
  }
}

// `text`: a string or a function answering it at click time. `what` names the value for screen readers
// ("Copy value"); `t` is the page's translator.
export function copyButton(text, t, { what, compact = true } = {}) {
  const label = what ? t('kit.copyLabel', { what }) : t('kit.copy');
  const caption = h('span', { class: 'btn-label' }, compact ? '' : t('kit.copy'));
  const status = h('span', { class: 'sr-only', role: 'status' });
  let timer = 0;
  const button = h(
    'button',
    {
      type: 'button',
      class: ['btn', 'btn-ghost', 'btn-copy', compact && 'btn-icon'],
      title: label,
      'aria-label': label,
      onclick: async () => {
        const value = typeof text === 'function' ? text() : text;
        clearTimeout(timer);
        try {
          await writeText(value);
          button.dataset.state = 'copied';
          button.replaceChildren(icon(icons.check), caption, status);
          caption.textContent = compact ? '' : t('kit.copied');
          status.textContent = t('kit.copied');
        } catch {
          button.dataset.state = 'failed';
          status.textContent = t('kit.copyFailed');
          button.title = t('kit.copyFailed');
        }
        timer = setTimeout(() => {
          delete button.dataset.state;
          button.replaceChildren(icon(icons.copy), caption, status);
          caption.textContent = compact ? '' : t('kit.copy');
          status.textContent = '';
          button.title = label;
        }, 1600);
      },
    },
    icon(icons.copy),
    caption,
    status,
  );
  return button;
}

// A value in monospace with its copy button beside it.
export function copyable(text, t, { what, className } = {}) {
  return h('span', { class: ['copyable', className] }, h('code', { class: 'mono copyable-text' }, text), copyButton(text, t, { what }));
}
