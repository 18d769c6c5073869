// The status dashboard API's client: the kit's client (kit/api.js) speaks the platform envelope `{data,
// error}`, the status API answers bare JSON and fails with `{"error": "<code>", "message": "<text>"}`
// (docs/status-api.md, "Response format"). Same interface (get, list, all, post, patch, del, request), same
// ApiError (status, message, retryAfter) plus `code`, the status error code, which the forms map to fields.
// Writes carry the session's CSRF token, which the status API takes like the platform's (dashboard_route).
import { ApiError } from '../kit/api.js';

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

export function createStatusApi({ csrfToken = '', fetchImpl = globalThis.fetch } = {}) {
  async function request(method, path, { body, query, signal, accept = 'application/json' } = {}) {
    const init = { method, credentials: 'same-origin', cache: 'no-store', headers: { Accept: accept }, signal };
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
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok) {
      let answer = null;
      if (type.includes('application/json')) answer = await response.json().catch(() => null);
      const retry = Number.parseInt(response.headers.get('retry-after') ?? '', 10);
      const error = new ApiError({
        status: response.status,
        message: typeof answer?.message === 'string' && answer.message ? answer.message : response.statusText,
        retryAfter: Number.isFinite(retry) ? retry : null,
      });
      error.code = typeof answer?.error === 'string' ? answer.error : null;
      throw error;
    }
    const total = Number.parseInt(response.headers.get('x-total-count') ?? '', 10);
    let data = null;
    if (response.status !== 204) {
      if (type.includes('application/json')) {
        try {
          data = await response.json();
        } catch (cause) {
          throw new ApiError({ status: response.status, message: 'unreadable answer', cause });
        }
      } else {
        data = await response.text();
      }
    }
    return { data, total: Number.isFinite(total) ? total : null, status: response.status, response };
  }

  return {
    csrfToken,
    request,
    get: async (path, options) => (await request('GET', path, options)).data,
    async list(path, { limit = 50, skip = 0, query, signal } = {}) {
      const answer = await request('GET', path, { query: { ...query, limit, skip }, signal });
      const items = Array.isArray(answer.data) ? answer.data : [];
      return { items, total: answer.total ?? skip + items.length };
    },
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
