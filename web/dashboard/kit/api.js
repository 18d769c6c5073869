// The JSON API client of the dashboard. Calls go to this origin with the session cookie; writes carry the
// session's CSRF token in `X-CSRF-Token` (edge/platform/company_auth.h refuses a signed-in write without it).
// Answers are the platform envelope `{data, error}`: a success resolves with `data` (lists also with the
// X-Total-Count header), a failure rejects with an ApiError holding the status, the envelope's sentence and,
// for 429, the Retry-After seconds.

export class ApiError extends Error {
  constructor({ status, message, retryAfter = null, cause }) {
    super(message, { cause });
    this.name = 'ApiError';
    this.status = status; // 0 when the server could not be reached
    this.retryAfter = retryAfter; // seconds, for 429
  }
}

function withQuery(path, query) {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `${path}${path.includes('?') ? '&' : '?'}${text}` : path;
}

async function readEnvelope(response) {
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('application/json')) return null;
  try {
    const body = await response.json();
    return body && typeof body === 'object' && !Array.isArray(body) ? body : null;
  } catch {
    return null;
  }
}

// `csrfToken`: the session's (GET /api/session). `onUnauthorized(error)`: called on every 401, for the layout
// to say the session ended.
export function createApi({ csrfToken = '', onUnauthorized = () => {}, fetchImpl = globalThis.fetch } = {}) {
  async function request(method, path, { body, query, signal, headers = {} } = {}) {
    const init = {
      method,
      credentials: 'same-origin',
      cache: 'no-store',
      headers: { Accept: 'application/json', ...headers },
      signal,
    };
    if (method !== 'GET' && method !== 'HEAD') init.headers['X-CSRF-Token'] = csrfToken;
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetchImpl(withQuery(path, query), init);
    } catch (error) {
      if (error?.name === 'AbortError') throw error;
      throw new ApiError({ status: 0, message: 'network error', cause: error });
    }
    const envelope = await readEnvelope(response);
    if (!response.ok) {
      const retry = Number.parseInt(response.headers.get('retry-after') ?? '', 10);
      const error = new ApiError({
        status: response.status,
        message: typeof envelope?.error === 'string' && envelope.error ? envelope.error : response.statusText,
        retryAfter: Number.isFinite(retry) ? retry : null,
      });
      if (response.status === 401) onUnauthorized(error);
      throw error;
    }
    if (!envelope || !('data' in envelope)) {
      throw new ApiError({ status: response.status, message: 'unreadable answer', cause: 'no envelope' });
    }
    const total = Number.parseInt(response.headers.get('x-total-count') ?? '', 10);
    return { data: envelope.data, total: Number.isFinite(total) ? total : null, status: response.status };
  }

  return {
    csrfToken,
    request,
    get: async (path, options) => (await request('GET', path, options)).data,
    // A page of a list: `{ items, total }`; total from X-Total-Count (the items' count when absent).
    async list(path, { limit = 50, skip = 0, query, signal } = {}) {
      const answer = await request('GET', path, { query: { ...query, limit, skip }, signal });
      const items = Array.isArray(answer.data) ? answer.data : [];
      return { items, total: answer.total ?? skip + items.length };
    },
    // Every item of a list, page by page (at most `max`): for pickers such as the verified domains.
    async all(path, { query, max = 1000, signal } = {}) {
      const items = [];
      for (let skip = 0; skip < max; skip += 200) {
        const page = await this.list(path, { limit: 200, skip, query, signal });
        items.push(...page.items);
        if (page.items.length < 200 || items.length >= page.total) break;
      }
      return items;
    },
    post: async (path, body, options) => (await request('POST', path, { ...options, body })).data,
    patch: async (path, body, options) => (await request('PATCH', path, { ...options, body })).data,
    del: async (path, options) => (await request('DELETE', path, options)).data,
  };
}

// The sentence a person reads for `error`, in the page's language (`t` from kit/i18n.js). The server's own
// sentence is kept where it says what to fix (400, 404, 409, 413, 422, 502).
export function describeError(error, t) {
  if (!(error instanceof ApiError)) return t('kit.error.generic', { message: error?.message ?? String(error) });
  const { status, message } = error;
  if (status === 0) return t('kit.error.network');
  if (status === 401) return t('kit.error.signedOut');
  if (status === 403) return t('kit.error.forbidden', { message });
  if (status === 404) return t('kit.error.notFound', { message });
  if (status === 429) return t('kit.error.rateLimited', { seconds: error.retryAfter ?? 1 });
  if (status === 500 || status === 503) return t('kit.error.server', { status });
  if (message === 'unreadable answer') return t('kit.error.badAnswer', { status });
  return t('kit.error.generic', { message });
}
