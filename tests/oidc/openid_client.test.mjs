// The OAuth 2.0 / OpenID Connect provider driven by a real relying-party library, openid-client (v6, over
// oauth4webapi), against a running edge: discovery, authorization code with PKCE, state and nonce, the
// id_token checks, userinfo, refresh rotation, introspection, revocation and RP-initiated logout, once with
// RS256 id_tokens (and a signing-key rotation across a restart) and once with HS256.
//
// The browser's part (sign-in form with its CSRF cookie, consent form) is played over plain HTTP by
// tests/support/edge.mjs; tests/browser/oauth_consent.test.mjs does it in Chromium.
//
// Needs: `npm ci` (openid-client, jose), openssl, and edge + edge-admin (EDGE_BIN, default
// build/native/edge/edge). Run: node --test tests/oidc/
import assert from 'node:assert/strict';
import { createPublicKey, randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import * as jose from 'jose';
import * as oidc from 'openid-client';

import {
  CookieJar,
  assertBinaries,
  authorizeInBrowser,
  browserFetch,
  edgeAdmin,
  fetchClosing,
  generateRsaKey,
  makeTempDir,
  removeTempDir,
  seed,
  startEdge,
  stopEdgeCleanly,
} from '../support/edge.mjs';

const REDIRECT_URI = 'https://notes.acme.test/oidc/callback';
const LOGOUT_URI = 'https://notes.acme.test/signed-out';
const SCOPES = ['openid', 'profile', 'email', 'offline_access'];
const HS256_SECRET = randomBytes(32).toString('hex'); // 64 characters

// What a relying party keeps between sending the browser away and the callback.
function newChecks() {
  const pkceCodeVerifier = oidc.randomPKCECodeVerifier();
  return { pkceCodeVerifier, expectedState: oidc.randomState(), expectedNonce: oidc.randomNonce() };
}

// prompt=consent: offline_access is granted only with it (OpenID Connect Core §11), so the consent page
// shows on every authorization, also when the scopes were consented before.
async function authorizationUrl(config, checks, extra = {}) {
  return oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope: SCOPES.join(' '),
    prompt: 'consent',
    code_challenge: await oidc.calculatePKCECodeChallenge(checks.pkceCodeVerifier),
    code_challenge_method: 'S256',
    state: checks.expectedState,
    nonce: checks.expectedNonce,
    ...extra,
  });
}

// The RFC 7638 SHA-256 thumbprint of a PEM private key's public half (what edge uses as kid).
function thumbprint(pem) {
  return jose.calculateJwkThumbprint(createPublicKey(pem).export({ format: 'jwk' }), 'sha256');
}

// The profile and email claims of the seeded user. `picture` is left to its own test: the user has none.
const withoutPicture = ({ picture, ...rest }) => rest;

// Asserts that `promise` rejects with the OAuth error `error` at HTTP `status`.
async function rejectsWithOAuthError(promise, status, error) {
  await assert.rejects(promise, (e) => {
    assert.equal(e.name, 'ResponseBodyError', `${e.name}: ${e.message}`);
    assert.equal(e.status, status);
    assert.equal(e.error, error);
    return true;
  });
}

// Userinfo with a revoked token: RFC 6750 §3.1, 401 with a Bearer challenge naming invalid_token.
async function assertUserinfoRevoked(config, baseUrl, accessToken, sub) {
  await assert.rejects(oidc.fetchUserInfo(config, accessToken, sub), (e) => {
    assert.equal(e.name, 'WWWAuthenticateChallengeError', `${e.name}: ${e.message}`);
    assert.equal(e.status, 401);
    assert.equal(e.cause[0].scheme, 'bearer');
    assert.equal(e.cause[0].parameters.error, 'invalid_token');
    return true;
  });
  const raw = await fetchClosing(`${baseUrl}/oauth/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } });
  assert.equal(raw.status, 401);
  assert.deepEqual(await raw.json(), {
    error: 'invalid_token',
    error_description: 'access token has been revoked',
  });
}

// The whole relying-party journey against one edge; `mode` is 'RS256' or 'HS256'.
function relyingPartySuite(mode) {
  describe(`openid-client against edge, ${mode} id_tokens`, { timeout: 120_000 }, () => {
    let tmp;
    let dataDir;
    let edge;
    let seeded;
    let config;
    let oldKeyPem;
    let publicClient;
    const jar = new CookieJar();
    const state = {}; // carried from one step to the next

    const issuer = () => edge.baseUrl;
    const sub = () => seeded.user.id;

    // A relying-party configuration; by default the confidential client with HTTP Basic (the spec's
    // preferred method).
    async function discover({
      clientId = seeded.client.clientId,
      auth = oidc.ClientSecretBasic(seeded.client.clientSecret),
    } = {}) {
      const c = await oidc.discovery(new URL(edge.baseUrl), clientId, undefined, auth, {
        execute: [oidc.allowInsecureRequests],
        [oidc.customFetch]: fetchClosing,
      });
      // RS256: openid-client itself checks every id_token's signature against the published JWKS.
      if (mode === 'RS256') oidc.enableNonRepudiationChecks(c);
      return c;
    }

    // Sign in (when needed), consent (when needed), and exchange the code with openid-client.
    async function signInAndExchange(cookieJar = jar) {
      const checks = newChecks();
      const url = await authorizationUrl(config, checks);
      const { location, steps } = await authorizeInBrowser(cookieJar, url, {
        email: seeded.email,
        password: seeded.password,
      });
      assert.equal(`${location.origin}${location.pathname}`, REDIRECT_URI);
      assert.deepEqual([...location.searchParams.keys()], ['code', 'state', 'iss']);
      assert.match(location.searchParams.get('code'), /^oac_/);
      const tokens = await oidc.authorizationCodeGrant(config, location, {
        ...checks,
        idTokenExpected: true,
      });
      return { tokens, checks, steps };
    }

    // The id_token signature with the key a relying party has: the JWKS for RS256; for HS256 the deployment's
    // OAUTH_ID_TOKEN_SECRET, as document 1 defines it. (OpenID Connect Core §10.1 would key HS256 with each
    // client's secret; document 1 deliberately does not, and calls the HS256 id_token a userinfo shortcut:
    // see docs/oauth.md.)
    async function verifyLikeARelyingParty(idToken, nonce) {
      const key =
        mode === 'RS256'
          ? jose.createLocalJWKSet(await (await fetchClosing(config.serverMetadata().jwks_uri)).json())
          : new TextEncoder().encode(HS256_SECRET);
      const { payload, protectedHeader } = await jose.jwtVerify(idToken, key, {
        algorithms: [mode],
        issuer: issuer(),
        audience: seeded.client.clientId,
      });
      assert.equal(payload.nonce, nonce);
      return { payload, protectedHeader };
    }

    before(async () => {
      assertBinaries();
      tmp = await makeTempDir(`oidc-${mode.toLowerCase()}-`);
      dataDir = path.join(tmp, 'data');
      await mkdir(dataDir);
      seeded = await seed(dataDir, {
        redirectUris: [REDIRECT_URI],
        postLogoutRedirectUris: [LOGOUT_URI],
        scopes: SCOPES,
        homepage: 'https://notes.acme.test',
      });
      publicClient = await edgeAdmin(dataDir, [
        'oauth-client', 'create', '--company', 'acme', '--name', 'Acme Notes for phones', '--public',
        '--redirect-uri', REDIRECT_URI, '--scope', 'openid', '--scope', 'email', '--scope', 'offline_access',
      ]);
      assert.equal(publicClient.public, true);
      assert.equal('clientSecret' in publicClient, false);
      const env = {};
      if (mode === 'RS256') {
        oldKeyPem = await generateRsaKey(path.join(tmp, 'old-key.pem'));
        env.OAUTH_RSA_PRIVATE_KEY = oldKeyPem;
      } else {
        env.OAUTH_ID_TOKEN_SECRET = HS256_SECRET;
      }
      edge = await startEdge({ dataDir, workDir: tmp, env });
    });

    after(async () => {
      try {
        await stopEdgeCleanly(edge);
      } finally {
        await removeTempDir(tmp);
      }
    });

    test('discovery: the provider metadata openid-client reads', async () => {
      config = await discover();
      const m = config.serverMetadata();
      assert.equal(m.issuer, issuer());
      assert.equal(m.authorization_endpoint, `${issuer()}/oauth/authorize`);
      assert.equal(m.token_endpoint, `${issuer()}/oauth/token`);
      assert.equal(m.userinfo_endpoint, `${issuer()}/oauth/userinfo`);
      assert.equal(m.revocation_endpoint, `${issuer()}/oauth/revoke`);
      assert.equal(m.introspection_endpoint, `${issuer()}/oauth/introspect`);
      assert.equal(m.end_session_endpoint, `${issuer()}/oauth/end-session`);
      assert.deepEqual(m.id_token_signing_alg_values_supported, [mode]);
      assert.deepEqual(m.code_challenge_methods_supported, ['S256']);
      assert.deepEqual(m.response_types_supported, ['code']);
      assert.deepEqual(m.grant_types_supported, ['authorization_code', 'refresh_token']);
      assert.deepEqual(m.scopes_supported, SCOPES);
      assert.equal(m.authorization_response_iss_parameter_supported, true);
      if (mode === 'RS256') {
        assert.equal(m.jwks_uri, `${issuer()}/.well-known/jwks.json`);
        const jwks = await (await fetchClosing(m.jwks_uri)).json();
        assert.equal(jwks.keys.length, 1);
      } else {
        assert.equal('jwks_uri' in m, false);
        const jwks = await (await fetchClosing(`${issuer()}/.well-known/jwks.json`)).json();
        assert.deepEqual(jwks, { keys: [] });
      }
    });

    test('authorization code with PKCE, state and nonce: sign-in, consent, code exchange', async () => {
      const { tokens, checks, steps } = await signInAndExchange();
      assert.deepEqual(steps, ['login', 'consent']);
      assert.match(tokens.access_token, /^oat_/);
      assert.match(tokens.refresh_token, /^ort_/);
      assert.equal(tokens.token_type, 'bearer'); // openid-client lower-cases it
      assert.equal(tokens.expires_in, 3600);
      assert.equal(tokens.scope, 'email offline_access openid profile');
      // The claims openid-client validated (iss, aud, exp, iat, nonce).
      const claims = tokens.claims();
      assert.equal(claims.iss, issuer());
      assert.equal(claims.sub, sub());
      assert.equal(claims.aud, seeded.client.clientId);
      assert.equal(claims.nonce, checks.expectedNonce);
      assert.equal(claims.exp - claims.iat, 3600);
      assert.ok(Math.abs(claims.iat - Date.now() / 1000) < 60);
      assert.equal(typeof claims.auth_time, 'number');
      assert.ok(claims.auth_time <= claims.iat);
      assert.equal(claims.name, 'Ayşe Yılmaz');
      assert.equal(claims.preferred_username, 'ayse');
      assert.equal(claims.email, 'ayse@acme.test');
      assert.equal(claims.email_verified, false);
      const [header] = tokens.id_token.split('.');
      const decodedHeader = JSON.parse(Buffer.from(header, 'base64url'));
      assert.equal(decodedHeader.alg, mode);
      Object.assign(state, { first: tokens, firstNonce: checks.expectedNonce });
    });

    if (mode === 'RS256') {
      test('RS256: the id_token verifies against the JWKS; kid is the RFC 7638 thumbprint', async () => {
        const { payload, protectedHeader } = await verifyLikeARelyingParty(state.first.id_token, state.firstNonce);
        assert.equal(payload.sub, sub());
        assert.equal(protectedHeader.kid, await thumbprint(oldKeyPem));
        assert.equal(protectedHeader.typ, 'JWT');
        state.oldKid = protectedHeader.kid;
      });
    } else {
      test('HS256: the id_token signature is an HMAC with OAUTH_ID_TOKEN_SECRET (document 1)', async () => {
        const { payload } = await jose.jwtVerify(state.first.id_token, new TextEncoder().encode(HS256_SECRET), {
          algorithms: ['HS256'],
          issuer: issuer(),
          audience: seeded.client.clientId,
        });
        assert.equal(payload.nonce, state.firstNonce);
      });
    }

    test('userinfo: the claims of the granted scopes for the token’s user', async () => {
      const info = await oidc.fetchUserInfo(config, state.first.access_token, sub());
      assert.deepEqual(withoutPicture(info), {
        sub: sub(),
        name: 'Ayşe Yılmaz',
        preferred_username: 'ayse',
        email: 'ayse@acme.test',
        email_verified: false,
      });
    });

    // Mode-independent; checked once.
    if (mode === 'RS256') {
      test('a claim without a value is left out, not null (OIDC Core §5.3.2): picture', async () => {
        // The user has no picture. OpenID Connect Core 1.0 §5.3.2: "If a Claim is not returned, that Claim
        // Name SHOULD be omitted from the JSON object representing the Claims; it SHOULD NOT be present with a
        // null or empty string value." The id_token carries the same Standard Claims (§5.1, §5.4), so the
        // same holds there.
        const info = await oidc.fetchUserInfo(config, state.first.access_token, sub());
        assert.equal('picture' in info, false, `userinfo has picture: ${JSON.stringify(info.picture)}`);
        const claims = state.first.claims();
        assert.equal('picture' in claims, false, `id_token has picture: ${JSON.stringify(claims.picture)}`);
      });
    }

    test('introspection: active access and refresh tokens with the RFC 7662 fields', async () => {
      const access = await oidc.tokenIntrospection(config, state.first.access_token);
      assert.equal(access.active, true);
      assert.equal(access.scope, 'email offline_access openid profile');
      assert.equal(access.client_id, seeded.client.clientId);
      assert.equal(access.sub, sub());
      assert.equal(access.token_type, 'Bearer');
      assert.equal(access.exp - access.iat, 3600);
      assert.ok(Math.abs(access.iat - Date.now() / 1000) < 60);
      const refresh = await oidc.tokenIntrospection(config, state.first.refresh_token);
      assert.equal(refresh.active, true);
      assert.equal(refresh.token_type, 'refresh_token');
      assert.equal(refresh.exp - refresh.iat, 30 * 24 * 3600);
      assert.deepEqual(await oidc.tokenIntrospection(config, 'oat_unknown'), { active: false });
    });

    test('refresh: a new token pair, the refresh token rotated; the old one is spent', async () => {
      const refreshed = await oidc.refreshTokenGrant(config, state.first.refresh_token);
      assert.match(refreshed.access_token, /^oat_/);
      assert.match(refreshed.refresh_token, /^ort_/);
      assert.notEqual(refreshed.access_token, state.first.access_token);
      assert.notEqual(refreshed.refresh_token, state.first.refresh_token);
      assert.equal(refreshed.scope, 'email offline_access openid profile');
      // OpenID Connect Core §12.2: same iss, sub, aud; auth_time of the original sign-in; no nonce (or the
      // original one).
      const original = state.first.claims();
      const renewed = refreshed.claims();
      assert.equal(renewed.iss, original.iss);
      assert.equal(renewed.sub, original.sub);
      assert.equal(renewed.aud, original.aud);
      assert.equal(renewed.auth_time, original.auth_time);
      assert.ok(renewed.nonce === undefined || renewed.nonce === original.nonce);
      assert.deepEqual(withoutPicture(await oidc.fetchUserInfo(config, refreshed.access_token, sub())), {
        sub: sub(),
        name: 'Ayşe Yılmaz',
        preferred_username: 'ayse',
        email: 'ayse@acme.test',
        email_verified: false,
      });
      assert.deepEqual(await oidc.tokenIntrospection(config, state.first.refresh_token), { active: false });
      state.refreshed = refreshed;
    });

    test('refresh replay: invalid_grant, and the whole token family is revoked', async () => {
      await rejectsWithOAuthError(oidc.refreshTokenGrant(config, state.first.refresh_token), 400, 'invalid_grant');
      // The family: the rotated pair dies with it.
      await rejectsWithOAuthError(oidc.refreshTokenGrant(config, state.refreshed.refresh_token), 400, 'invalid_grant');
      await assertUserinfoRevoked(config, issuer(), state.refreshed.access_token, sub());
      assert.deepEqual(await oidc.tokenIntrospection(config, state.refreshed.access_token), { active: false });
    });

    test('revocation (RFC 7009): access token, then refresh token with its grant', async () => {
      // Signed in already; prompt=consent (for offline_access) shows the consent page again.
      const { tokens, steps } = await signInAndExchange();
      assert.deepEqual(steps, ['consent']);
      assert.equal((await oidc.tokenIntrospection(config, tokens.access_token)).active, true);
      await oidc.tokenRevocation(config, tokens.access_token, { token_type_hint: 'access_token' });
      assert.deepEqual(await oidc.tokenIntrospection(config, tokens.access_token), { active: false });
      await assertUserinfoRevoked(config, issuer(), tokens.access_token, sub());
      // The refresh token was untouched by the access token's revocation.
      assert.equal((await oidc.tokenIntrospection(config, tokens.refresh_token)).active, true);
      await oidc.tokenRevocation(config, tokens.refresh_token, { token_type_hint: 'refresh_token' });
      assert.deepEqual(await oidc.tokenIntrospection(config, tokens.refresh_token), { active: false });
      await rejectsWithOAuthError(oidc.refreshTokenGrant(config, tokens.refresh_token), 400, 'invalid_grant');
      // Unknown tokens: 200 all the same.
      await oidc.tokenRevocation(config, 'oat_never_issued');
    });

    test('client_secret_post: the same client authenticating with form fields', async () => {
      const post = await discover({ auth: oidc.ClientSecretPost(seeded.client.clientSecret) });
      const { tokens } = await signInAndExchange();
      const introspected = await oidc.tokenIntrospection(post, tokens.access_token);
      assert.equal(introspected.active, true);
      assert.equal(introspected.client_id, seeded.client.clientId);
      const refreshed = await oidc.refreshTokenGrant(post, tokens.refresh_token);
      assert.notEqual(refreshed.refresh_token, tokens.refresh_token);
      await oidc.tokenRevocation(post, refreshed.refresh_token);
      assert.deepEqual(await oidc.tokenIntrospection(post, refreshed.refresh_token), { active: false });
      // A wrong secret: 401 invalid_client with a challenge (RFC 6749 §5.2).
      const wrong = await discover({ auth: oidc.ClientSecretPost(`ocs_${'x'.repeat(43)}`) });
      const refused = await oidc.tokenIntrospection(wrong, tokens.access_token).then(
        () => assert.fail('introspection with a wrong client secret succeeded'),
        (e) => e,
      );
      assert.equal(refused.name, 'WWWAuthenticateChallengeError', `${refused.name}: ${refused.message}`);
      assert.equal(refused.status, 401);
      assert.equal(refused.cause[0].scheme, 'basic');
      assert.equal((await refused.response.json()).error, 'invalid_client');
    });

    test('public client (no secret, PKCE required): code exchange, userinfo, refresh', async () => {
      const pub = await discover({ clientId: publicClient.clientId, auth: oidc.None() });
      const checks = newChecks();
      const url = oidc.buildAuthorizationUrl(pub, {
        redirect_uri: REDIRECT_URI,
        scope: 'openid email offline_access',
        prompt: 'consent',
        code_challenge: await oidc.calculatePKCECodeChallenge(checks.pkceCodeVerifier),
        code_challenge_method: 'S256',
        state: checks.expectedState,
        nonce: checks.expectedNonce,
      });
      const { location, steps } = await authorizeInBrowser(jar, url, {
        email: seeded.email,
        password: seeded.password,
      });
      assert.deepEqual(steps, ['consent']); // signed in already; a new client asks for consent
      const tokens = await oidc.authorizationCodeGrant(pub, location, { ...checks, idTokenExpected: true });
      assert.equal(tokens.scope, 'email offline_access openid');
      assert.equal(tokens.claims().aud, publicClient.clientId);
      assert.equal(tokens.claims().nonce, checks.expectedNonce);
      assert.deepEqual(await oidc.fetchUserInfo(pub, tokens.access_token, sub()), {
        sub: sub(),
        email: 'ayse@acme.test',
        email_verified: false,
      });
      const refreshed = await oidc.refreshTokenGrant(pub, tokens.refresh_token);
      assert.notEqual(refreshed.refresh_token, tokens.refresh_token);
      // Without PKCE a public client gets no code: the authorize redirect carries invalid_request.
      const noPkce = new URL(url);
      noPkce.searchParams.delete('code_challenge');
      noPkce.searchParams.delete('code_challenge_method');
      const refused = await authorizeInBrowser(jar, noPkce.href, { email: seeded.email, password: seeded.password });
      assert.equal(refused.location.searchParams.get('error'), 'invalid_request');
      assert.equal(refused.location.searchParams.get('state'), checks.expectedState);
      assert.equal(refused.location.searchParams.get('iss'), issuer());
    });

    test('end-session: 302 to the registered post_logout_redirect_uri with state; the tokens are revoked', async () => {
      const { tokens } = await signInAndExchange();
      const logoutState = oidc.randomState();
      const url = oidc.buildEndSessionUrl(config, {
        id_token_hint: tokens.id_token,
        post_logout_redirect_uri: LOGOUT_URI,
        state: logoutState,
      });
      assert.equal(`${url.origin}${url.pathname}`, `${issuer()}/oauth/end-session`);
      assert.ok(jar.get('platform_session'));
      const response = await browserFetch(jar, url);
      assert.equal(response.status, 302);
      assert.equal(response.headers.get('location'), `${LOGOUT_URI}?state=${logoutState}`);
      // The provider's own session ends too (RP-Initiated Logout §2): the next authorization signs in again.
      assert.equal(jar.get('platform_session'), undefined);
      const { steps } = await signInAndExchange();
      assert.deepEqual(steps, ['login', 'consent']);
      await assertUserinfoRevoked(config, issuer(), tokens.access_token, sub());
      await rejectsWithOAuthError(oidc.refreshTokenGrant(config, tokens.refresh_token), 400, 'invalid_grant');
      assert.deepEqual(await oidc.tokenIntrospection(config, tokens.refresh_token), { active: false });
    });

    test('end-session refuses a post_logout_redirect_uri the client did not register', async () => {
      const { tokens } = await signInAndExchange();
      const url = oidc.buildEndSessionUrl(config, {
        id_token_hint: tokens.id_token,
        post_logout_redirect_uri: 'https://evil.example/landing',
      });
      const response = await browserFetch(jar, url);
      assert.equal(response.status, 400);
      assert.equal(response.headers.get('location'), null);
      // Nothing was revoked by the refused request.
      assert.equal((await oidc.tokenIntrospection(config, tokens.access_token)).active, true);
      state.beforeRotation = tokens;
    });

    if (mode === 'RS256') {
      test('key rotation across a restart: both keys published, old and new id_tokens verify', async () => {
        const oldToken = state.beforeRotation.id_token;
        const port = edge.port;
        await stopEdgeCleanly(edge);
        edge = undefined;
        const newKeyPem = await generateRsaKey(path.join(tmp, 'new-key.pem'));
        edge = await startEdge({
          dataDir,
          workDir: tmp,
          listen: `127.0.0.1:${port}`, // the issuer is the URL, so the same one
          env: { OAUTH_RSA_PRIVATE_KEY: newKeyPem, OAUTH_RSA_PRIVATE_KEY_PREVIOUS: oldKeyPem },
        });
        assert.equal(edge.baseUrl, issuer());
        config = await discover();
        const newKid = await thumbprint(newKeyPem);

        const jwks = await (await fetchClosing(config.serverMetadata().jwks_uri)).json();
        assert.deepEqual(
          jwks.keys.map((k) => [k.kid, k.kty, k.use, k.alg]),
          [
            [newKid, 'RSA', 'sig', 'RS256'],
            [state.oldKid, 'RSA', 'sig', 'RS256'],
          ],
        );

        // The id_token from before the rotation, checked against the JWKS as published now.
        const before = await jose.jwtVerify(oldToken, jose.createLocalJWKSet(jwks), {
          algorithms: ['RS256'],
          issuer: issuer(),
          audience: seeded.client.clientId,
        });
        assert.equal(before.protectedHeader.kid, state.oldKid);
        assert.equal(before.payload.sub, sub());

        // A new sign-in (fresh browser) after the rotation: the new kid, and it verifies too (also inside
        // openid-client, whose non-repudiation check fetches the JWKS).
        const { tokens, checks, steps } = await signInAndExchange(new CookieJar());
        assert.deepEqual(steps, ['login', 'consent']); // prompt=consent asks again
        const after = await verifyLikeARelyingParty(tokens.id_token, checks.expectedNonce);
        assert.equal(after.protectedHeader.kid, newKid);
        assert.notEqual(newKid, state.oldKid);
        assert.equal(after.payload.sub, sub());

        // Tokens issued before the restart are still live: they live in the data directory.
        assert.equal((await oidc.tokenIntrospection(config, state.beforeRotation.access_token)).active, true);
      });
    }
  });
}

relyingPartySuite('RS256');
relyingPartySuite('HS256');
