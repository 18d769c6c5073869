// The restaurant API as the till calls it (docs/restaurant-api.md): `Authorization: Bearer <the device's
// token>` once paired, the platform session cookie while pairing. The answer's HTTP status decides what
// the sync loop does, so failures are answers, not exceptions: only a request that got no answer at all
// (offline, refused, cut off, timed out) rejects, with a NetworkError. For such a request the server may or
// may not have applied it.

export class NetworkError extends Error {
  constructor(message, { cause } = {}) {
    super(message, { cause });
    this.name = 'NetworkError';
  }
}

const TIMEOUT_MS = 15_000;

function withQuery(path, query) {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `${path}${path.includes('?') ? '&' : '?'}${text}` : path;
}

// slug: the company; token: the device's access token, or null to use the session (csrfToken for writes).
// Answers {ok, status, data, error, message, body, total, retryAfter}: `error` is the restaurant error code,
// `body` the whole JSON body (a 409 invalid_version carries the current order in body.order).
export function restaurantClient({ slug, token = null, csrfToken = '', fetchImpl = (...args) => globalThis.fetch(...args) }) {
  const base = `/api/restaurant/companies/${encodeURIComponent(slug)}`;

  async function request(method, path, { body, query, timeoutMs = TIMEOUT_MS, signal } = {}) {
    const headers = { Accept: 'application/json' };
    if (token) headers.Authorization = `Bearer ${token}`;
    else if (method !== 'GET') headers['X-CSRF-Token'] = csrfToken;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(new DOMException('timed out', 'TimeoutError')), timeoutMs);
    signal?.addEventListener('abort', () => abort.abort(signal.reason), { once: true });
    let response;
    let text;
    try {
      response = await fetchImpl(withQuery(base + path, query), {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: token ? 'omit' : 'same-origin',
        cache: 'no-store',
        signal: abort.signal,
      });
      text = await response.text();
    } catch (error) {
      throw new NetworkError(error?.name === 'AbortError' || error?.name === 'TimeoutError' ? 'timed out' : 'network error', { cause: error });
    } finally {
      clearTimeout(timer);
    }
    let json = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    const total = Number.parseInt(response.headers.get('x-total-count') ?? '', 10);
    const retry = Number.parseInt(response.headers.get('retry-after') ?? '', 10);
    return {
      ok: response.ok,
      status: response.status,
      data: json?.data ?? null,
      error: response.ok ? null : typeof json?.error === 'string' ? json.error : `http_${response.status}`,
      message: typeof json?.message === 'string' ? json.message : response.statusText,
      body: json,
      total: Number.isFinite(total) ? total : null,
      retryAfter: Number.isFinite(retry) ? retry : null,
    };
  }

  return {
    slug,
    request,
    get: (path, query, options) => request('GET', path, { ...options, query }),
    post: (path, body, options) => request('POST', path, { ...options, body }),
    del: (path, query, options) => request('DELETE', path, { ...options, query }),
    // Every item of a paged list (limit/skip, X-Total-Count); a refused page is answered as it came.
    async all(path, query = {}) {
      const items = [];
      for (let skip = 0; ; skip += 200) {
        const page = await request('GET', path, { query: { ...query, limit: 200, skip } });
        if (!page.ok) return page;
        const data = Array.isArray(page.data) ? page.data : [];
        items.push(...data);
        if (data.length < 200 || items.length >= (page.total ?? 0)) return { ...page, data: items };
      }
    },
  };
}
