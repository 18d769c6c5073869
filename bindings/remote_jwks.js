// createRemoteJwks: a JWK Set fetched from a URL (a provider's jwks_uri) and cached, as jose's
// createRemoteJWKSet does, for verifyJwt's `jwks` option.
//
// The answer is an async function. Called with no argument it answers the cached set, fetching it first when
// there is none or it is older than cacheMaxAgeMs. Called with { reload: true } (what verifyJwt does once when
// no key of the set matches a token's kid) it fetches again unless the last fetch is younger than cooldownMs,
// so a stream of tokens with unknown kids costs at most one request per cooldown. Concurrent callers share one
// request. It rejects with a JwksError: `jwks_fetch_failed` (network error, timeout, HTTP status other than
// 200) or `jwks_invalid` (the body is not a JSON object with a `keys` array); a failure is not cached.
import { typeName } from './shared.js';

export class JwksError extends Error {
  constructor(code, message, options) {
    super(message, options);
    this.name = 'JwksError';
    this.code = code;
  }
}

function nonNegative(value, name, fallback) {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value >= 0)) {
    throw new TypeError(`${name} must be a number >= 0, got ${typeName(value)}`);
  }
  return value;
}

export function createRemoteJwks(url, options = {}) {
  if (typeof url !== 'string' && !(url instanceof URL)) {
    throw new TypeError(`url must be a string or a URL, got ${typeName(url)}`);
  }
  const href = new URL(url).href;
  const cooldownMs = nonNegative(options.cooldownMs, 'options.cooldownMs', 30_000);
  const cacheMaxAgeMs = nonNegative(options.cacheMaxAgeMs, 'options.cacheMaxAgeMs', 600_000);
  const timeoutMs = nonNegative(options.timeoutMs, 'options.timeoutMs', 5_000);
  const fetchJson = options.fetch ?? globalThis.fetch;
  if (typeof fetchJson !== 'function') throw new TypeError(`options.fetch must be a function, got ${typeName(fetchJson)}`);

  let set; // the last set fetched
  let fetchedAt = 0; // when, in Date.now() ms
  let pending; // the request under way, shared by every caller

  async function download() {
    let body;
    try {
      const response = await fetchJson(href, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (response.status !== 200) {
        throw new JwksError('jwks_fetch_failed', `the JWK Set at ${href} answered HTTP ${response.status}`);
      }
      body = await response.text();
    } catch (error) {
      if (error instanceof JwksError) throw error;
      throw new JwksError('jwks_fetch_failed', `cannot fetch the JWK Set at ${href}: ${error.message}`, { cause: error });
    }
    let parsed;
    try {
      parsed = JSON.parse(body);
    } catch (error) {
      throw new JwksError('jwks_invalid', `the JWK Set at ${href} is not JSON`, { cause: error });
    }
    if (parsed === null || typeof parsed !== 'object' || !Array.isArray(parsed.keys)) {
      throw new JwksError('jwks_invalid', `the JWK Set at ${href} is not an object with a "keys" array`);
    }
    set = parsed;
    fetchedAt = Date.now();
    return set;
  }

  return function remoteJwks({ reload = false } = {}) {
    const age = Date.now() - fetchedAt;
    const stale = set === undefined || age >= cacheMaxAgeMs;
    if (!stale && !(reload && age >= cooldownMs)) return Promise.resolve(set);
    pending ??= download().finally(() => {
      pending = undefined;
    });
    return pending;
  };
}
