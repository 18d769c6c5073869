// Tokens for the verifyJwt and createRemoteJwks tests, signed with node's crypto (independent of the core
// under test): HS256 with a secret, RS256 with fresh 2048-bit keys published as JWKs.
import { createHmac, generateKeyPairSync, sign } from 'node:crypto';

export const b64 = (value) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

// A compact JWS of `header` and `payload` (objects, or raw text) signed by `signer(signingInput)`.
export function compact(header, payload, signer) {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${signer(input).toString('base64url')}`;
}

export function hs256(payload, secret, header = {}) {
  return compact({ alg: 'HS256', typ: 'JWT', ...header }, payload, (input) => createHmac('sha256', secret).update(input).digest());
}

// A new RSA key: its private key and its public JWK (with `kid` when given), as a provider publishes it.
export function rsaKey(kid, { bits = 2048 } = {}) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  const jwk = { ...publicKey.export({ format: 'jwk' }), use: 'sig', alg: 'RS256' };
  if (kid !== undefined) jwk.kid = kid;
  return { privateKey, jwk };
}

// RS256 with `key`; the header names the key's kid unless `header` says otherwise.
export function rs256(payload, key, header = {}) {
  const base = key.jwk.kid === undefined ? { alg: 'RS256' } : { alg: 'RS256', kid: key.jwk.kid };
  return compact({ ...base, typ: 'JWT', ...header }, payload, (input) => sign('sha256', Buffer.from(input), key.privateKey));
}

// Claims valid from 1_700_000_000 to 1_700_003_600 (Unix seconds).
export const NOW = 1_700_000_000;
export function claims(extra = {}) {
  return { iss: 'https://auth.example', aud: 'cli_app', sub: 'usr_1', iat: NOW, nbf: NOW, exp: NOW + 3600, ...extra };
}
