// One end user of a project (/projects/{id}/users/{userId}): the account with its badges; disable or
// enable (disabling ends every session: project_routes.cpp), mark the address verified or not, reset the
// authenticator app (DELETE .../users/{userId}/mfa), delete; and the user's sessions (end one, end all).
import { copyable } from '../kit/clipboard.js';
import { h, icon, mount } from '../kit/dom.js';
import { icons } from '../kit/icons.js';
import { pageHeader } from '../kit/layout.js';
import { listTable } from '../kit/table.js';
import { absoluteTime, button, card, confirmDialog, details, emptyState, mono, timeAgo } from '../kit/ui.js';
import { authPath, userBadges } from './common.js';

export default async function showUser(ctx, projectId, userId) {
  const { t } = ctx;
  const usersHref = ctx.href('projects', projectId, 'users');
  let project;
  let user;
  try {
    [project, user] = await Promise.all([
      ctx.api.get(authPath(ctx, projectId), { signal: ctx.signal }),
      ctx.api.get(authPath(ctx, projectId, 'users', userId), { signal: ctx.signal }),
    ]);
  } catch (error) {
    if (error.name === 'AbortError') return;
    const back = { href: usersHref, label: t('auth.tab.users') };
    if (error.status === 404) {
      const what = /project/.test(error.message) ? 'projects' : 'user';
      mount(
        ctx.root,
        pageHeader({ title: t(`auth.${what}.notFound`), back }),
        emptyState({ title: t(`auth.${what}.notFound`), text: t(`auth.${what}.notFoundText`), drawing: icons.user }),
      );
      return;
    }
    ctx.reportError(error);
    mount(
      ctx.root,
      pageHeader({ title: t('auth.tab.users'), back }),
      emptyState({
        title: t('kit.table.failed'),
        drawing: icons.alert,
        action: button(t('kit.retry'), { variant: 'secondary', icon: icons.refresh, onclick: () => ctx.navigate(location.href, { replace: true }) }),
      }),
    );
    return;
  }
  if (ctx.signal.aborted) return;

  const back = { href: usersHref, label: t('auth.user.back', { project: project.name }) };
  const userPath = (...rest) => authPath(ctx, projectId, 'users', userId, ...rest);
  const header = h('div');
  const account = h('div');

  // A button that is busy while its action runs; the action's failure goes to the banner.
  function action(label, options, run) {
    const b = button(label, options);
    b.addEventListener('click', async () => {
      b.disabled = true;
      b.setAttribute('aria-busy', 'true');
      try {
        await run();
      } catch (error) {
        ctx.reportError(error);
      } finally {
        b.disabled = false;
        b.removeAttribute('aria-busy');
      }
    });
    return b;
  }

  async function patch(body, message) {
    user = await ctx.api.patch(userPath(), body);
    ctx.clearError();
    ctx.toast(message);
    render();
    // Disabling ended the sessions on the server.
    if (body.disabled) sessions.reload();
  }

  function render() {
    ctx.setTitle(user.email);
    const toggleDisabled = user.disabled
      ? action(t('auth.user.enable'), { variant: 'secondary', icon: icons.check, dataset: { action: 'enable' } }, () =>
          patch({ disabled: false }, t('auth.user.enabledDone', { email: user.email })),
        )
      : action(t('auth.user.disable'), { variant: 'secondary', icon: icons.block, dataset: { action: 'disable' } }, async () => {
          const ok = await confirmDialog({
            title: t('auth.user.disableTitle', { email: user.email }),
            text: t('auth.user.disableText'),
            confirmLabel: t('auth.user.disable'),
            cancelLabel: t('kit.cancel'),
            danger: true,
          });
          if (ok) await patch({ disabled: true }, t('auth.user.disabledDone', { email: user.email }));
        });
    const deleteButton = action(t('auth.user.delete'), { variant: 'danger-outline', icon: icons.trash, dataset: { action: 'delete-user' } }, async () => {
      const ok = await confirmDialog({
        title: t('auth.user.deleteTitle', { email: user.email }),
        text: t('auth.user.deleteText'),
        confirmLabel: t('auth.user.delete'),
        cancelLabel: t('kit.cancel'),
        danger: true,
      });
      if (!ok) return;
      await ctx.api.del(userPath());
      ctx.toast(t('auth.user.deleted', { email: user.email }));
      ctx.navigate(usersHref);
    });
    mount(
      header,
      pageHeader({
        title: user.email,
        subtitle: user.name || null,
        back,
        status: userBadges(t, user),
        actions: [toggleDisabled, deleteButton],
      }),
    );

    const verifyButton = action(
      t(user.emailVerified ? 'auth.user.markUnverified' : 'auth.user.markVerified'),
      { variant: 'ghost', className: 'btn-small', dataset: { action: user.emailVerified ? 'mark-unverified' : 'mark-verified' } },
      () => patch({ emailVerified: !user.emailVerified }, t(user.emailVerified ? 'auth.user.markedUnverified' : 'auth.user.markedVerified')),
    );
    // An administrator's reset of a lost authenticator app (DELETE .../users/{id}/mfa); off when none is set.
    const mfaButton = action(
      t('auth.user.mfaReset'),
      { variant: 'ghost', className: 'btn-small', icon: icons.shield, disabled: !user.mfa?.totp, dataset: { action: 'mfa-reset' } },
      async () => {
        const ok = await confirmDialog({
          title: t('auth.user.mfaResetTitle', { email: user.email }),
          text: t('auth.user.mfaResetText'),
          confirmLabel: t('auth.user.mfaReset'),
          cancelLabel: t('kit.cancel'),
          danger: true,
        });
        if (!ok) return;
        await ctx.api.del(userPath('mfa'));
        ctx.toast(t('auth.user.mfaResetDone', { email: user.email }));
        user = await ctx.api.get(userPath());
        render();
      },
    );

    mount(
      account,
      user.disabled ? h('div', { class: 'note note-danger page-note', dataset: { note: 'disabled' } }, icon(icons.block), h('p', null, t('auth.user.disabledNote'))) : null,
      card(
        { title: t('auth.user.details'), id: 'account' },
        details([
          [t('auth.user.email'), user.email],
          [t('auth.user.name'), user.name || h('span', { class: 'muted' }, '—')],
          [
            t('auth.user.emailState'),
            h('span', { class: 'inline-actions' }, userBadges(t, { emailVerified: user.emailVerified }), verifyButton),
          ],
          [t('auth.user.password'), t(user.hasPassword ? 'auth.user.hasPassword' : 'auth.user.noPassword')],
          [
            t('auth.user.mfa'),
            h('span', { class: 'inline-actions', dataset: { mfa: String(Boolean(user.mfa?.totp)) } }, t(user.mfa?.totp ? 'auth.user.mfaOn' : 'auth.user.mfaOff'), mfaButton),
          ],
          [t('auth.user.created'), absoluteTime(user.createdAt)],
          [t('auth.user.lastSignIn'), user.lastSignInAt ? timeAgo(user.lastSignInAt) : h('span', { class: 'muted' }, t('auth.users.never'))],
          [t('auth.user.id'), copyable(user.id, t, { what: t('auth.user.id') })],
        ]),
      ),
    );
  }

  // ---- sessions
  const revokeAll = action(t('auth.sessions.revokeAll'), { variant: 'danger-outline', className: 'btn-small', icon: icons.block, dataset: { action: 'revoke-all' } }, async () => {
    const ok = await confirmDialog({
      title: t('auth.sessions.revokeAllTitle', { email: user.email }),
      text: t('auth.sessions.revokeAllText'),
      confirmLabel: t('auth.sessions.revokeAll'),
      cancelLabel: t('kit.cancel'),
      danger: true,
    });
    if (!ok) return;
    const { revoked } = await ctx.api.del(userPath('sessions'));
    ctx.toast(t('auth.sessions.revokedAll', { count: revoked }));
    sessions.reload();
  });

  async function revokeOne(session) {
    const ok = await confirmDialog({
      title: t('auth.sessions.revokeTitle'),
      text: t('auth.sessions.revokeText'),
      confirmLabel: t('auth.sessions.revoke'),
      cancelLabel: t('kit.cancel'),
      danger: true,
    });
    if (!ok) return;
    try {
      await ctx.api.del(userPath('sessions', session.id));
      ctx.toast(t('auth.sessions.revoked'));
      sessions.reload();
    } catch (error) {
      ctx.reportError(error);
    }
  }

  // `amr` is the session's method string ("pwd"), or a list of them.
  function amrChips(amr) {
    const list = (Array.isArray(amr) ? amr : String(amr ?? '').split(/[\s,]+/)).filter(Boolean);
    if (!list.length) return h('span', { class: 'muted' }, '—');
    return h('span', { class: 'chips' }, list.map((m) => h('span', { class: 'chip', title: m }, t.has(`auth.amr.${m}`) ? t(`auth.amr.${m}`) : m)));
  }

  const sessions = listTable({
    t,
    caption: t('auth.sessions.title'),
    load: ({ signal }) => ctx.api.get(userPath('sessions'), { signal }),
    onError: (error) => ctx.reportError(error),
    onLoad: (rows) => {
      revokeAll.hidden = rows.length === 0;
    },
    rowAttrs: (s) => ({ dataset: { session: s.id } }),
    empty: { title: t('auth.sessions.emptyTitle'), text: t('auth.sessions.emptyText'), drawing: icons.clock },
    columns: [
      { label: t('auth.sessions.colCreated'), className: 'cell-nowrap', render: (s) => absoluteTime(s.createdAt) },
      { label: t('auth.sessions.colRefreshed'), className: 'cell-nowrap', render: (s) => timeAgo(s.lastRefreshedAt) },
      { label: t('auth.sessions.colAmr'), render: (s) => amrChips(s.amr) },
      { label: t('auth.sessions.colAgent'), className: 'cell-agent', render: (s) => (s.userAgent ? h('span', { title: s.userAgent }, s.userAgent) : h('span', { class: 'muted' }, '—')) },
      { label: t('auth.sessions.colIp'), render: (s) => (s.ip ? mono(s.ip) : '—') },
      {
        label: t('auth.sessions.colActions'),
        className: 'cell-actions',
        render: (s) =>
          button(t('auth.sessions.revoke'), {
            variant: 'ghost',
            className: 'btn-small',
            icon: icons.x,
            dataset: { action: 'revoke-session' },
            'aria-label': t('auth.sessions.revokeTitle'),
            onclick: () => revokeOne(s),
          }),
      },
    ],
  });
  revokeAll.hidden = true;

  render();
  mount(
    ctx.root,
    header,
    account,
    card({ title: t('auth.sessions.title'), subtitle: t('auth.sessions.text'), id: 'sessions', className: 'card-flush', actions: [revokeAll] }, sessions.element),
  );
  return () => sessions.abort();
}
