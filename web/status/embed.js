// The embeddable badge (/p/{slug}/embed, docs/status-public.md): fetches the page's snapshot and derives the
// overall status with the platform_status wasm module (core/status's componentStatus and pageStatus), the
// same rules the server runs, then refreshes every minute (the snapshot is cached 30 s on the server).
import { loadStatus } from '../bindings/status.js';

const REFRESH_MS = 60_000;
const body = document.body;
const texts = JSON.parse(body.dataset.texts);
const badge = document.getElementById('badge');
const statusText = document.getElementById('status-text');
const core = loadStatus();

function unwrap(result) {
  if (!result.ok) throw new Error(result.error?.message ?? 'status rule failed');
  return result.value;
}

// The overall status of a snapshot by the core's rules: each component from its checks (maintenance when
// the server reports the component under maintenance), the page from its components.
export function deriveOverall(status, snapshot) {
  const components = (snapshot.components ?? []).map((c) =>
    unwrap(status.componentStatus((c.checks ?? []).map((k) => k.status), c.status === 'maintenance')),
  );
  return unwrap(status.pageStatus(components));
}

async function refresh() {
  try {
    const [status, res] = await Promise.all([core, fetch(body.dataset.snapshot, { cache: 'no-cache' })]);
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const overall = deriveOverall(status, await res.json());
    badge.dataset.status = overall;
    badge.dataset.source = 'wasm';
    statusText.textContent = texts[overall] ?? overall;
    // The first derived status, for bench/status_embed.mjs.
    if (!performance.getEntriesByName('status-embed:derived').length) performance.mark('status-embed:derived');
  } catch (error) {
    badge.dataset.status = 'error';
    statusText.textContent = texts.error;
    console.error('status embed:', error);
  }
}

await refresh();
setInterval(refresh, REFRESH_MS);
