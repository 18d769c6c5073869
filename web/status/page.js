// The public status page's script (docs/status-public.md): keeps the server-rendered page live from the
// Server-Sent Events stream GET /api/v1/status/{slug}/events (a `snapshot` on connect and after every
// change), reconnecting with exponential backoff and jitter, and sends the subscribe form with fetch.
import { applySnapshot } from './render.js';

const BASE_DELAY_MS = 1000;
const MAX_DELAY_MS = 60_000;

// Exponential from 1 s, capped at 60 s, "equal jitter", so that the viewers of a page that comes back after
// a restart do not all reconnect in the same second.
export function backoffDelay(failures, random = Math.random) {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.max(0, failures - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

const body = document.body;
const texts = JSON.parse(body.dataset.texts);
const live = document.getElementById('live');
let newest = document.getElementById('generated-at')?.dateTime ?? '';
// For the browser tests and the curious: how many snapshots were applied without a reload.
window.statusPage = { updates: 0, connected: false };

function setLive(state) {
  live.dataset.state = state;
  live.textContent = state === 'live' ? texts.live : texts.reconnecting;
  window.statusPage.connected = state === 'live';
}

function connect(failures = 0) {
  const source = new EventSource(body.dataset.events);
  let retry = null;
  const again = () => {
    source.close();
    if (retry) return;
    setLive('reconnecting');
    retry = setTimeout(() => connect(failures + 1), backoffDelay(failures + 1));
  };
  source.addEventListener('open', () => {
    failures = 0;
    setLive('live');
  });
  source.addEventListener('snapshot', (event) => {
    const snap = JSON.parse(event.data);
    // Two changes published at once may arrive in either order: keep the newest.
    if ((snap.generatedAt ?? '') < newest) return;
    newest = snap.generatedAt ?? newest;
    applySnapshot(document, texts, snap);
    window.statusPage.updates += 1;
  });
  source.addEventListener('gone', () => {
    source.close();
    setLive('gone');
  });
  source.addEventListener('error', again);
}

function wireSubscribe() {
  const form = document.getElementById('subscribe-form');
  if (!form) return;
  const address = form.elements.address;
  const result = document.getElementById('subscribe-result');
  form.addEventListener('change', () => {
    const webhook = form.elements.type.value === 'webhook';
    address.type = webhook ? 'url' : 'email';
    address.placeholder = webhook ? texts.webhookUrl : texts.emailAddress;
    address.setAttribute('aria-label', address.placeholder);
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const type = form.elements.type.value;
    const payload = type === 'webhook' ? { type, webhookUrl: address.value } : { type, email: address.value };
    result.hidden = false;
    result.className = 'sp-result';
    try {
      const res = await fetch(form.action, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(payload),
      });
      const answer = await res.json().catch(() => ({}));
      if (!res.ok) throw new Error(answer.message ?? `HTTP ${res.status}`);
      result.replaceChildren(texts.subscribeDone, ' ', Object.assign(document.createElement('code'), { textContent: answer.managementToken ?? '' }));
      result.classList.add('ok');
      form.reset();
    } catch (error) {
      result.textContent = `${texts.subscribeFailed} ${error.message}`;
      result.classList.add('failed');
    }
  });
}

wireSubscribe();
connect();
