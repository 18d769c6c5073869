// @platform/core/tokens: token shapes and hashing, permission checks, JWT verification (HS256, RS256 with a
// JWK Set, and verifyJwt with the claim checks), PKCE challenges and JWK thumbprints from the wasm module
// platform_tokens (wasm/tokens_module.cpp over core/).
//
//   import { verifyJwt, createRemoteJwks } from '@platform/core/tokens';
//   const jwks = createRemoteJwks('https://auth.example/.well-known/jwks.json');
//   const result = await verifyJwt(token, { jwks, issuer: 'https://auth.example', audience: 'cli_123' });
//   if (result.ok) console.log(result.value.payload.sub); else console.log(result.code);
//
// verifyJwt is async (a remote key set may need fetching); the module's other functions are synchronous on
// the API loadTokens() answers.
import { createRemoteJwks, JwksError } from './remote_jwks.js';
import { bytesOf, isPlainObject, jsonText, moduleLoader, requireStringArray, requireType, typeName } from './shared.js';

export { createRemoteJwks, JwksError };

const JWKS_FAILURES = new Set(['jwks_fetch_failed', 'jwks_invalid']);

// The claim policy the module takes, from verifyJwt's options; a TypeError names a member of the wrong type.
function claimPolicy(options) {
  const { issuer, audience, algorithms, clockToleranceSeconds = 0, now } = options;
  if (issuer !== undefined) requireType(issuer, 'string', 'options.issuer');
  let audiences = [];
  if (typeof audience === 'string') audiences = [audience];
  else if (audience !== undefined) {
    requireStringArray(audience, 'options.audience');
    if (audience.length === 0) throw new TypeError('options.audience must not be an empty array');
    audiences = [...audience];
  }
  if (algorithms !== undefined) requireStringArray(algorithms, 'options.algorithms');
  if (typeof clockToleranceSeconds !== 'number' || !(clockToleranceSeconds >= 0) || clockToleranceSeconds === Infinity) {
    throw new TypeError(`options.clockToleranceSeconds must be a finite number >= 0, got ${typeName(clockToleranceSeconds)}`);
  }
  let nowSeconds;
  if (now === undefined) nowSeconds = Date.now() / 1000;
  else if (now instanceof Date) nowSeconds = now.getTime() / 1000;
  else if (typeof now === 'number') nowSeconds = now;
  else throw new TypeError(`options.now must be a Date or a number of seconds, got ${typeName(now)}`);
  nowSeconds = Math.floor(nowSeconds);
  if (!Number.isSafeInteger(nowSeconds)) throw new TypeError('options.now must be a valid time');
  return {
    algorithms: algorithms ? [...algorithms] : [],
    issuer: issuer ?? null,
    audiences,
    nowSeconds,
    clockToleranceSeconds: Math.floor(clockToleranceSeconds),
  };
}

function wrap(wasm) {
  return {
    allows(role, granted, required, target = '') {
      requireType(role, 'string', 'role');
      requireStringArray(granted, 'granted');
      requireType(required, 'string', 'required');
      requireType(target, 'string', 'target');
      return wasm.allows(role, granted, required, target);
    },
    validatePermission(permission) {
      requireType(permission, 'string', 'permission');
      return wasm.validatePermission(permission);
    },
    sha256Hex(text) {
      requireType(text, 'string', 'text');
      return wasm.sha256Hex(text);
    },
    hasTokenShape(kind, text) {
      requireType(kind, 'string', 'kind');
      requireType(text, 'string', 'text');
      return wasm.hasTokenShape(kind, text);
    },
    makeToken(kind) {
      requireType(kind, 'string', 'kind');
      return wasm.makeToken(kind);
    },
    verifyJwtHs256(compact, secret) {
      requireType(compact, 'string', 'compact');
      if (typeof secret !== 'string' && !(secret instanceof Uint8Array)) {
        throw new TypeError(`secret must be a string or a Uint8Array, got ${secret === null ? 'null' : typeof secret}`);
      }
      return wasm.verifyJwtHs256(compact, secret);
    },
    verifyJwtRs256(compact, jwks) {
      requireType(compact, 'string', 'compact');
      return wasm.verifyJwtRs256(compact, jsonText(jwks, 'jwks'));
    },
    pkceChallenge(verifier) {
      requireType(verifier, 'string', 'verifier');
      return wasm.pkceChallenge(verifier);
    },
    jwkThumbprint(jwk) {
      return wasm.jwkThumbprint(jsonText(jwk, 'jwk'));
    },

    // Signature, key choice and claims in the core (core/jwt_verify.h); see index.d.ts for the codes.
    async verifyJwt(token, options) {
      requireType(token, 'string', 'token');
      if (!isPlainObject(options)) throw new TypeError(`options must be an object, got ${typeName(options)}`);
      const { jwks, secret } = options;
      if ((jwks === undefined) === (secret === undefined)) {
        throw new TypeError('options must have exactly one of jwks and secret');
      }
      const policy = claimPolicy(options);
      if (secret !== undefined) {
        const bytes = bytesOf(secret, 'options.secret');
        if (bytes.length === 0) throw new TypeError('options.secret must not be empty');
        return wasm.verifyJwt(token, 'secret', bytes, policy);
      }
      if (typeof jwks !== 'function') return wasm.verifyJwt(token, 'jwks', jsonText(jwks, 'options.jwks'), policy);

      // A key set behind a function (createRemoteJwks): asked again, once, when no key has the token's kid.
      const remote = async (reload) => {
        try {
          return { set: await jwks({ reload }) };
        } catch (error) {
          if (!JWKS_FAILURES.has(error?.code)) throw error;
          return { failure: { ok: false, code: error.code, message: error.message } };
        }
      };
      const verifyWith = (set) => {
        const result = wasm.verifyJwt(token, 'jwks', jsonText(set, 'the JWK Set options.jwks answered'), policy);
        // A served set the core cannot read is the server's fault, reported as such.
        if (result.code === 'invalid_jwks' || result.code === 'invalid_jwk') {
          return { ok: false, code: 'jwks_invalid', message: result.message };
        }
        return result;
      };
      const first = await remote(false);
      if (first.failure) return first.failure;
      const result = verifyWith(first.set);
      if (result.ok || result.code !== 'key_not_found') return result;
      const second = await remote(true);
      if (second.failure) return second.failure;
      return second.set === first.set ? result : verifyWith(second.set);
    },
  };
}

// Loads platform_tokens (once per location) and answers the frozen API. Rejects with an Error naming the
// location when the module files cannot be loaded or compiled.
export const loadTokens = moduleLoader('platform_tokens', wrap);

// verifyJwt of the module at the default location (loadTokens()): `{ ok: true, value: { header, payload } }`
// or `{ ok: false, code, message }`.
export async function verifyJwt(token, options) {
  return (await loadTokens()).verifyJwt(token, options);
}

export default loadTokens;
