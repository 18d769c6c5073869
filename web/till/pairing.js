// Pairing: a person signed in to the platform (the session cookie) gives this device its own access token,
// limited to one branch (`restaurant.branch:<id>`) and named after the device, so it shows in the company's
// token list and can be revoked there. The plaintext token is in the create answer only; the till keeps it
// in IndexedDB and from then on calls the API with it alone (no cookie).
import { createApi } from '../dashboard/kit/api.js';
import { restaurantClient } from './api.js';

export const TOKEN_PREFIX = 'Till: ';

// GET /api/session: {user, csrfToken, companies}; rejects with the kit's ApiError (401 when signed out).
export async function loadSession() {
  return createApi().get('/api/session');
}

export function sessionApi(session) {
  return createApi({ csrfToken: session.csrfToken });
}

// The company's active branches the signed-in person can see (the restaurant API takes the session).
export async function branchesOf(slug) {
  const answer = await restaurantClient({ slug }).all('/branches', { activeOnly: 'true' });
  if (!answer.ok) throw Object.assign(new Error(answer.message || answer.error), { status: answer.status, code: answer.error });
  return answer.data;
}

// Creates the device's token and answers the device record the till stores.
export async function pairDevice(session, { company, branch, deviceName }) {
  const created = await sessionApi(session).post(`/api/companies/${encodeURIComponent(company.slug)}/access-tokens`, {
    name: `${TOKEN_PREFIX}${deviceName}`,
    permissions: [`restaurant.branch:${branch.id}`],
  });
  return {
    token: created.token,
    tokenId: created.id,
    tokenPrefix: created.tokenPrefix,
    tokenName: created.name,
    company: { slug: company.slug, name: company.name },
    branch: { id: branch.id, name: branch.name, timezone: branch.timezone ?? null, dayCutoffHour: branch.dayCutoffHour ?? 4 },
    deviceName,
    pairedAt: new Date().toISOString(),
  };
}

// Revokes the device's token with the session of whoever is signed in on this browser, if anyone may.
// Answers true when the token is revoked now, false when it must be revoked in the token list.
export async function revokeDevice(device) {
  try {
    const session = await loadSession();
    if (!session.companies?.some((c) => c.slug === device.company.slug)) return false;
    await sessionApi(session).del(`/api/companies/${encodeURIComponent(device.company.slug)}/access-tokens/${encodeURIComponent(device.tokenId)}`);
    return true;
  } catch {
    return false;
  }
}
