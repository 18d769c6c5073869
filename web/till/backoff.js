// How long to wait before trying again after `failures` failures in a row: exponential from 1 s, capped at
// 30 s, with "equal jitter" (half fixed, half random) so that many tills coming back at once spread out.
const BASE_DELAY_MS = 1000;
const MAX_DELAY_MS = 30_000;

export function backoffDelay(failures, random = Math.random) {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.max(0, failures - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
