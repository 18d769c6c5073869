// Types of @platform/core: the platform's core rules compiled to WebAssembly (see index.js).
//
// Error convention, the same for every function:
// - An input the core refuses is an expected failure. The function returns `Err` with the core's stable,
//   machine-readable `code` (listed per function below) and a human `message`; it never throws for it.
// - An argument of the wrong JavaScript type (for example a string where a number belongs, or an array
//   holding a non-string) throws a `TypeError` before the core is called: that is a bug in the caller.
// - Numbers that stand for integers (amounts, rates, hours, day counts) must be safe integers; a fraction,
//   NaN or Infinity is refused with the code of that argument (for example `invalid_amount`).

/** A successful call: the computed value. */
export interface Ok<T> {
  readonly ok: true;
  readonly value: T;
}

/** A refused input: the core's error code and a sentence for humans. */
export interface Err<Code extends string = string> {
  readonly ok: false;
  readonly code: Code;
  readonly message: string;
}

export type Result<T, Code extends string = string> = Ok<T> | Err<Code>;

/** A VAT-inclusive amount split into net and VAT, in minor units; grossMinor === netMinor + vatMinor. */
export interface VatSplit {
  readonly grossMinor: number;
  readonly netMinor: number;
  readonly vatMinor: number;
}

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

/** `YYYY-MM-DD`, a calendar day. */
export type DayKey = string;

/** A value as JSON.parse returns it. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [member: string]: JsonValue };
export interface JsonObject {
  [member: string]: JsonValue;
}

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

export interface PlatformCore {
  /**
   * Splits a VAT-inclusive gross: vatMinor = round_half_up(grossMinor * vatRateBps / (10000 + vatRateBps)),
   * netMinor = grossMinor - vatMinor. Exact integer arithmetic.
   * Errors: `vat_rate_invalid` unless vatRateBps is an integer 0..10000 (checked first);
   * `invalid_amount` unless grossMinor is an integer 0..10^15.
   * @example vatSplit(100, 2000) // { ok: true, value: { grossMinor: 100, netMinor: 83, vatMinor: 17 } }
   */
  vatSplit(grossMinor: number, vatRateBps: number): Result<VatSplit, 'vat_rate_invalid' | 'invalid_amount'>;

  /**
   * The restaurant business date of a local wall-clock time `YYYY-MM-DDTHH:MM` or `YYYY-MM-DDTHH:MM:SS`
   * (an HTML datetime-local value, already in the branch's time zone): a time before `dayCutoffHour`
   * (default 4) belongs to the previous day.
   * Errors: `invalid_cutoff_hour` unless dayCutoffHour is an integer 0..23 (checked first); `invalid_date`
   * for a date that is not a real calendar day or not `YYYY-MM-DD`; `invalid_time` for another shape or a
   * time outside 00:00:00..23:59:59.
   * @example businessDate('2026-03-15T02:30', 4) // { ok: true, value: '2026-03-14' }
   */
  businessDate(
    localDateTime: string,
    dayCutoffHour?: number,
  ): Result<DayKey, 'invalid_cutoff_hour' | 'invalid_date' | 'invalid_time'>;

  /**
   * The day `days` after `dayKey` (before it when negative).
   * Errors: `invalid_date` for a bad day key, a non-integer `days`, or a result outside 0000-01-01..9999-12-31.
   * @example addDays('2028-02-28', 1) // { ok: true, value: '2028-02-29' }
   */
  addDays(dayKey: DayKey, days: number): Result<DayKey, 'invalid_date'>;

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
}

export interface LoadOptions {
  /**
   * Node only: folder holding platform_core.mjs and platform_core.wasm. Default: the environment variable
   * PLATFORM_WASM_DIR, else `../build/wasm/wasm/` next to this package. Relative paths start at the
   * current directory.
   */
  wasmDir?: string;
  /**
   * Browser only: URL of the folder holding platform_core.mjs and platform_core.wasm, relative to this
   * module's URL. Default: `../wasm/` (the edge serves /web/bindings/ and /web/wasm/).
   */
  wasmUrl?: string | URL;
}

/**
 * Loads the wasm module (once per location) and returns the API. Rejects with an Error naming the location
 * when the module files cannot be loaded or compiled.
 */
export function loadPlatformCore(options?: LoadOptions): Promise<PlatformCore>;

export default loadPlatformCore;
