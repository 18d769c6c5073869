// A project's Overview: how an app calls it (issuer, JWKS URL, the end-user endpoints of
// edge/auth_projects/end_user_routes.cpp with the credential each takes, an example) and its settings at a
// glance.
import { copyable, copyButton } from '../kit/clipboard.js';
import { h, icon } from '../kit/dom.js';
import { icons } from '../kit/icons.js';
import { absoluteTime, button, card, details, mono } from '../kit/ui.js';
import { durationText, methodChips } from './common.js';

// [method, path under the issuer, what (text key), credential]
const ENDPOINTS = [
  ['POST', '/signup', 'signup', 'key'],
  ['POST', '/login', 'login', 'key'],
  ['POST', '/refresh', 'refresh', 'key'],
  ['POST', '/logout', 'logout', 'key'],
  ['GET', '/userinfo', 'userinfo', 'accessToken'],
  ['POST', '/verify-email', 'verify', 'key'],
  ['POST', '/verify-email/request', 'verifyRequest', 'key'],
  ['POST', '/password-reset/request', 'resetRequest', 'key'],
  ['POST', '/password-reset/confirm', 'resetConfirm', 'key'],
  ['GET', '/jwks.json', 'jwks', 'open'],
  ['GET · DELETE', '/users/{userId}/sessions[/{sessionId}]', 'sessions', 'key'],
];

export function overviewSection(ctx, state) {
  const { t } = ctx;
  const p = state.project;
  const example = [
    `curl -X POST ${p.issuer}/login \\`,
    '  -H "Authorization: Bearer $AUTH_PROJECT_KEY" \\',
    '  -H "Content-Type: application/json" \\',
    `  -d '{"email": "user@example.com", "password": "…"}'`,
  ].join('\n');

  const callCard = card(
    { title: t('auth.call.title'), subtitle: t('auth.call.text'), id: 'how-to-call', className: 'card-flush' },
    h(
      'div',
      { class: 'card-body' },
      details([
        [t('auth.call.issuer'), copyable(p.issuer, t, { what: t('auth.call.issuer'), className: 'call-issuer' })],
        [t('auth.call.jwks'), copyable(p.jwksUrl, t, { what: t('auth.call.jwks'), className: 'call-jwks' })],
        [t('auth.call.audience'), copyable(p.id, t, { what: t('auth.call.audience') })],
      ]),
    ),
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'table endpoints' },
        h('caption', { class: 'sr-only' }, t('auth.call.title')),
        h(
          'thead',
          null,
          h('tr', null, ['colMethod', 'colPath', 'colWhat', 'colCredential'].map((c) => h('th', { scope: 'col' }, t(`auth.call.${c}`)))),
        ),
        h(
          'tbody',
          null,
          ENDPOINTS.map(([method, path, what, credential]) =>
            h(
              'tr',
              { dataset: { endpoint: path } },
              h('td', { dataset: { label: t('auth.call.colMethod') } }, h('span', { class: 'http-method' }, method)),
              h('td', { dataset: { label: t('auth.call.colPath') }, class: 'cell-path' }, mono(path)),
              h('td', { dataset: { label: t('auth.call.colWhat') } }, t(`auth.call.what.${what}`)),
              h('td', { dataset: { label: t('auth.call.colCredential') }, class: 'cell-nowrap' }, t(`auth.call.${credential}`)),
            ),
          ),
        ),
      ),
    ),
    h(
      'div',
      { class: 'card-body call-example' },
      h('div', { class: 'call-example-head' }, h('h3', { class: 'card-subheading' }, t('auth.call.example')), copyButton(example, t, { what: t('auth.call.example'), compact: false })),
      h('pre', { class: 'code-block' }, h('code', null, example)),
      h('div', { class: 'note note-warning' }, icon(icons.lock), h('p', null, t('auth.call.secret'))),
    ),
  );

  const mail = p.mail ? `${p.mail.fromName ? `${p.mail.fromName} <${p.mail.from}>` : p.mail.from}` : h('span', { class: 'muted' }, t('auth.glance.noMail'));
  const redirects = p.allowedRedirectUrls?.length
    ? h('ul', { class: 'plain-list' }, p.allowedRedirectUrls.map((u) => h('li', { class: 'mono' }, u)))
    : h('span', { class: 'muted' }, t('auth.glance.noRedirects'));
  const glanceCard = card(
    {
      title: t('auth.glance.title'),
      id: 'at-a-glance',
      actions: [button(t('auth.tab.settings'), { variant: 'secondary', className: 'btn-small', icon: icons.edit, onclick: () => state.selectTab('settings') })],
    },
    details([
      [t('auth.glance.created'), absoluteTime(p.createdAt)],
      [t('auth.glance.methods'), methodChips(t, p.signInMethods)],
      [
        t('auth.glance.tokens'),
        t('auth.glance.tokensValue', { access: durationText(t, p.accessTokenTtlSeconds), refresh: durationText(t, p.refreshTokenTtlSeconds) }),
      ],
      [t('auth.glance.verification'), t(p.requireEmailVerification ? 'auth.glance.required' : 'auth.glance.optional')],
      [t('auth.glance.mail'), mail],
      [t('auth.glance.passkeys'), p.passkeys ? `${p.passkeys.rpName || p.name} · ${p.passkeys.rpId}` : h('span', { class: 'muted' }, t('auth.glance.noPasskeys'))],
      [t('auth.glance.redirects'), redirects],
    ]),
  );

  return h('div', { class: 'overview' }, callCard, glanceCard);
}
