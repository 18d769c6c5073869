// Types of @platform/core/tokens (tokens.js): token shapes and hashing, permission checks, JWT verification,
// PKCE and JWK thumbprints, from the wasm module platform_tokens. Error convention: types.d.ts.

import type { JsonObject, LoadOptions, Result } from './types.js';

export * from './types.js';

/** Company roles. Owners and admins pass every permission check. */
export type Role = 'owner' | 'admin' | 'member';

/** Opaque credential formats of the specification. */
export type TokenKind =
  | 'access_token' // stk_ + 48 hex
  | 'env_vault_token' // stk_env_ + 48 hex
  | 'auth_project_key' // aps_ + 48 hex
  | 'oauth_access' // oat_ + 43 base64url
  | 'oauth_refresh' // ort_ + 43 base64url
  | 'oauth_code' // oac_ + 43 base64url
  | 'session' // ses_ + 43 base64url
  | 'csrf'; // 43 base64url, no prefix

/** A JWT whose signature verified: its header (with `alg`) and its claims, not yet checked. */
export interface VerifiedJwt {
  readonly header: JsonObject & { alg: string };
  readonly claims: JsonObject;
}

/** A JSON Web Key (RFC 7517); the RSA members are the ones the core reads. */
export interface Jwk {
  kty: string;
  n?: string;
  e?: string;
  kid?: string;
  use?: string;
  alg?: string;
  [member: string]: unknown;
}

/** A JWK Set (RFC 7517 §5), as served at /.well-known/jwks.json. */
export interface JwkSet {
  keys: readonly Jwk[];
}

/** Why a JWT was refused, in the order the checks run. */
export type JwtErrorCode = 'invalid_jwt' | 'unsupported_alg' | 'invalid_signature';

/** The algorithms verifyJwt knows: HS256 with a shared secret, RS256 with a JWK Set. */
export type JwtAlgorithm = 'HS256' | 'RS256';

/** A JWT that verifyJwt accepted: its header and payload as JSON.parse returns them. */
export interface VerifiedToken {
  readonly header: JsonObject & { alg: JwtAlgorithm };
  readonly payload: JsonObject;
}

/**
 * Why verifyJwt refused a token, in the order the checks run:
 * - `jwks_fetch_failed`: the remote key set could not be fetched (network error, timeout, HTTP status other
 *   than 200); `jwks_invalid`: it, or a key set given as `jwks`, is not a JWK Set with usable RSA keys
 *   (a local set fails with `invalid_jwks` for a value that is not an object with a `keys` array and
 *   `invalid_jwk` for a malformed RSA key or one outside 2048..4096 bits);
 * - `invalid_jwt`: not a compact JWS (three base64url parts, JSON object header and payload, at most 16 KiB,
 *   no `crit` header), or a `kid` that is not a string;
 * - `unsupported_alg`: the header's `alg` is not the key's algorithm (HS256 for `secret`, RS256 for `jwks`)
 *   or not in `algorithms` (`none` never is);
 * - `key_not_found`: no key of the set has the token's `kid` (also after one refetch of a remote set), or the
 *   token has no `kid` and the set does not hold exactly one RS256 key;
 * - `invalid_signature`;
 * - `invalid_issuer`: `issuer` given and `iss` is not that string;
 * - `invalid_audience`: `audience` given and `aud` (a string or an array of strings) names none of them;
 * - `invalid_claims`: no `exp`, or an `exp`, `nbf` or `iat` that is not a number;
 * - `token_expired`: `exp` <= now - clockToleranceSeconds;
 * - `token_not_yet_valid`: `nbf` > now + clockToleranceSeconds.
 */
export type VerifyJwtErrorCode =
  | 'jwks_fetch_failed'
  | 'jwks_invalid'
  | 'invalid_jwks'
  | 'invalid_jwk'
  | 'invalid_jwt'
  | 'unsupported_alg'
  | 'key_not_found'
  | 'invalid_signature'
  | 'invalid_issuer'
  | 'invalid_audience'
  | 'invalid_claims'
  | 'token_expired'
  | 'token_not_yet_valid';

/**
 * A key set behind a function, as createRemoteJwks answers: called with no argument it answers the set to
 * use; called with `{ reload: true }` (once, when no key has a token's kid) it may fetch a newer one. It
 * rejects with a JwksError to report `jwks_fetch_failed` or `jwks_invalid`.
 */
export type JwksSource = (options?: { reload?: boolean }) => Promise<JwkSet | string>;

interface VerifyJwtCommonOptions {
  /** The expected `iss`. Left out: not checked (as in jose). */
  issuer?: string;
  /** The expected `aud`, or several of which one must match. Left out: not checked (as in jose). */
  audience?: string | readonly string[];
  /** Accepted algorithms; default: the key's (HS256 for `secret`, RS256 for `jwks`). */
  algorithms?: readonly JwtAlgorithm[];
  /** Leeway for `exp` and `nbf`, whole seconds >= 0 (fractions are dropped). Default 0. */
  clockToleranceSeconds?: number;
  /** The time to check against: a Date or Unix seconds (fractions dropped). Default: now. */
  now?: Date | number;
}

/** verifyJwt's options: exactly one of `secret` (HS256) and `jwks` (RS256). */
export type VerifyJwtOptions =
  | (VerifyJwtCommonOptions & {
      /** The HS256 shared secret: a string (its UTF-8 bytes) or bytes; not empty. */
      secret: string | Uint8Array;
      jwks?: never;
    })
  | (VerifyJwtCommonOptions & {
      /** A JWK Set (an object or its JSON text) or a function such as createRemoteJwks answers. */
      jwks: JwkSet | string | JwksSource;
      secret?: never;
    });

export interface RemoteJwksOptions {
  /** Shortest time between two fetches caused by unknown kids, in ms. Default 30000 (jose's). */
  cooldownMs?: number;
  /** Age after which the cached set is fetched again before use, in ms. Default 600000 (jose's). */
  cacheMaxAgeMs?: number;
  /** Time allowed for one fetch, in ms. Default 5000. */
  timeoutMs?: number;
  /** The fetch function to use. Default: globalThis.fetch. */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
}

/** How a remote key set failed; verifyJwt turns it into its `{ ok: false, code, message }` answer. */
export declare class JwksError extends Error {
  readonly name: 'JwksError';
  readonly code: 'jwks_fetch_failed' | 'jwks_invalid';
}

export interface PlatformTokens {

  /**
   * Whether `role` holding the `granted` permissions may perform `required` (a plain permission such as
   * `domains.edit`) on `target` (a domain id, mailbox address or branch id; '' or omitted when the action
   * concerns no single resource). Malformed or unknown entries in `granted` grant nothing.
   * Errors: `invalid_role` unless role is 'owner', 'admin' or 'member'.
   * @example allows('member', ['restaurant.branch:br_1'], 'restaurant.write', 'br_1') // { ok: true, value: true }
   */
  allows(
    role: Role,
    granted: readonly string[],
    required: string,
    target?: string,
  ): Result<boolean, 'invalid_role'>;

  /**
   * Checks that `permission` is a known permission name or a well-formed scoped form
   * (`domains.domain:<id>[:<action>]`, `inbox.mailbox:<email>`, `restaurant.branch:<id>`).
   * Errors: `invalid_permission` with a message naming it.
   */
  validatePermission(permission: string): Result<null, 'invalid_permission'>;

  /** Lower-case hex SHA-256 of the UTF-8 encoding of `text`. Cannot fail. */
  sha256Hex(text: string): string;

  /**
   * Whether `text` has exactly the shape (prefix, length, alphabet) of a `kind` token.
   * Errors: `invalid_token_kind` for a kind not listed in TokenKind.
   */
  hasTokenShape(kind: TokenKind, text: string): Result<boolean, 'invalid_token_kind'>;

  /**
   * A fresh random token of `kind` (random bytes from crypto.getRandomValues).
   * Errors: `invalid_token_kind` for a kind not listed in TokenKind.
   */
  makeToken(kind: TokenKind): Result<string, 'invalid_token_kind'>;

  /**
   * Verifies an HS256 JWT (compact form) with `secret` (a string is used as its UTF-8 bytes). Only the
   * signature is checked: compare `iss`, `aud`, `exp`, `nonce` yourself. `alg` must be exactly "HS256".
   * Errors: `invalid_jwt` (malformed, over 16 KiB, a `crit` header), `unsupported_alg`, `invalid_signature`.
   */
  verifyJwtHs256(compact: string, secret: string | Uint8Array): Result<VerifiedJwt, JwtErrorCode>;

  /**
   * Verifies an RS256 JWT with the keys of a JWK Set (JSON text or an object): the key whose `kid` equals
   * the header's, or the only key when the header has no `kid`. Keys with another `kty`, `use` or `alg`
   * are skipped. Only the signature is checked, as in verifyJwtHs256.
   * Errors: `invalid_jwks` (not a JSON object with a `keys` array), `invalid_jwk` (a malformed RSA key, or
   * one outside 2048..4096 bits), then `invalid_jwt`, `unsupported_alg`, `unknown_kid`, `invalid_signature`.
   */
  verifyJwtRs256(
    compact: string,
    jwks: string | JwkSet,
  ): Result<VerifiedJwt, 'invalid_jwks' | 'invalid_jwk' | 'unknown_kid' | JwtErrorCode>;

  /**
   * The PKCE S256 `code_challenge` of a `code_verifier`: base64url(SHA-256(verifier)) (RFC 7636).
   * Errors: `invalid_code_verifier` unless the verifier is 43..128 characters of A-Z a-z 0-9 - . _ ~.
   * @example pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk') // { ok: true, value: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM' }
   */
  pkceChallenge(verifier: string): Result<string, 'invalid_code_verifier'>;

  /**
   * The RFC 7638 SHA-256 thumbprint (base64url, 43 characters) of an RSA public JWK (JSON text or an
   * object): the `kid` the provider gives its signing keys.
   * Errors: `invalid_jwk` (not an RSA signing key of 2048..4096 bits with base64url `n` and `e`).
   */
  jwkThumbprint(jwk: string | Jwk): Result<string, 'invalid_jwk'>;

  /**
   * Verifies a JWT as an application does with a token it received: the key (`secret` for HS256, `jwks` for
   * RS256, picked by `kid`), the algorithm, the signature, then the claims `iss` and `aud` (when expected),
   * `exp` (required: a token without one is refused, unlike in jose) and `nbf`, with `clockToleranceSeconds`.
   * `iat` is only type-checked. Async because a remote key set may need fetching; a remote set is fetched
   * again once when no key has the token's kid (within the set's cooldown).
   * Errors: VerifyJwtErrorCode. Options of the wrong type reject with a TypeError.
   * @example await verifyJwt(token, { secret, issuer: 'https://auth.example', audience: 'cli_1' }) // { ok: true, value: { header, payload } }
   */
  verifyJwt(token: string, options: VerifyJwtOptions): Promise<Result<VerifiedToken, VerifyJwtErrorCode>>;
}

/**
 * Loads platform_tokens (once per location) and returns its API. Rejects with an Error naming the location
 * when the module files cannot be loaded or compiled.
 */
export function loadTokens(options?: LoadOptions): Promise<PlatformTokens>;

/** PlatformTokens.verifyJwt of the module at the default location (loadTokens()). */
export function verifyJwt(token: string, options: VerifyJwtOptions): Promise<Result<VerifiedToken, VerifyJwtErrorCode>>;

/**
 * A JWK Set fetched from `url` and cached, for verifyJwt's `jwks` (like jose's createRemoteJWKSet): fetched on
 * first use and again once older than cacheMaxAgeMs; fetched again when a token's kid is unknown, at most
 * once per cooldownMs; concurrent callers share one request; a failed fetch is not cached.
 * Throws a TypeError for a `url` that is not a string or URL, or options of the wrong type.
 */
export function createRemoteJwks(url: string | URL, options?: RemoteJwksOptions): JwksSource;

export default loadTokens;
