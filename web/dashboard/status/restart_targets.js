// A page's Restart targets tab: the targets (name, type, the check it watches, threshold with the failures
// counted towards it, cooldown, the last automatic firing) with Test fire (HTTP targets: fires once now and
// shows the recorded firing), History (the target's firings, newest first) and Delete (asks first). New target: name, type (HTTP, SSH, deployment platform), check, threshold of consecutive
// failures, cooldown (600 s by default), and the settings of that type. Secrets (the auth header value, the
// private key and its passphrase, the API token) are write-only: sent when typed, never shown. API:
// docs/status-restart.md, "API (edge)"; paths in api_paths.js.
import { h } from '../kit/dom.js';
import { createForm, input, select, textarea, toggle } from '../kit/form.js';
import { icons } from '../kit/icons.js';
import { dataTable } from '../kit/table.js';
import { button, card, confirmDialog, mono, pill, timeAgo } from '../kit/ui.js';
import { fieldOfError, integer, loadInto, statusContext } from './common.js';

const TYPES = ['http', 'ssh', 'deploy'];
// The settings members of each type (core/status/restart_target.h), with their inputs.
const SETTINGS = {
  http: ['method', 'url', 'authHeaderName', 'authHeaderValue', 'body', 'contentType', 'expectedStatusMin', 'expectedStatusMax', 'timeoutMs'],
  ssh: ['host', 'port', 'user', 'privateKeyPem', 'passphrase', 'command', 'hostKeyFingerprint', 'trustOnFirstUse', 'timeoutMs_ssh'],
  deploy: ['baseUrl', 'uuid', 'apiToken', 'timeoutMs_deploy'],
};
const INTEGERS = new Set(['expectedStatusMin', 'expectedStatusMax', 'timeoutMs', 'port']);
const CODES = {
  invalid_target_type: 'type',
  invalid_threshold: 'threshold',
  invalid_cooldown: 'cooldownSeconds',
  invalid_method: 'method',
  invalid_auth_header: 'authHeaderValue',
  invalid_target_body: 'body',
  invalid_content_type: 'contentType',
  invalid_status_range: 'expectedStatusMin',
  invalid_ssh_host: 'host',
  invalid_ssh_port: 'port',
  invalid_ssh_user: 'user',
  invalid_private_key: 'privateKeyPem',
  invalid_passphrase: 'passphrase',
  invalid_ssh_command: 'command',
  invalid_host_key: 'hostKeyFingerprint',
  invalid_deploy_uuid: 'uuid',
  invalid_api_token: 'apiToken',
  invalid_check_id: 'checkId',
};
// Tones of a firing's status (docs/status-restart.md, "Firing").
const FIRING_TONES = { pending: 'neutral', firing: 'info', succeeded: 'success', failed: 'danger', interrupted: 'warning' };

export default function restartTargetsTab(ctx, shared) {
  const { t } = ctx;
  const { api, paths } = statusContext(ctx);
  const pageId = shared.page.id;
  const slot = h('div', { id: 'restart-targets-list' });
  const formSlot = h('div');
  const outcome = h('div', { class: 'test-outcome', 'aria-live': 'polite' });
  const history = h('div', { class: 'firing-history', id: 'restart-firings' });

  function openNew(checks) {
    const text = (name, attrs = {}) => input({ name, autocomplete: 'off', ...attrs });
    const typeSelect = select({ name: 'type', value: 'http', options: TYPES.map((v) => ({ value: v, label: t(`status.restarts.type.${v}`) })) });
    const f = (name, label, control, extra = {}) => ({ name, label, control, ...extra });
    const fields = [
      f('name', t('status.restarts.name'), text('name', { maxlength: 200 }), { required: true }),
      f('type', t('status.restarts.typeField'), typeSelect, { className: 'field-half' }),
      f('checkId', t('status.restarts.check'), select({ name: 'checkId', options: [{ value: '', label: t('status.restarts.pickCheck') }, ...checks.map((c) => ({ value: c.id, label: `${c.componentName} › ${c.name}` }))] }), { required: true, className: 'field-half' }),
      f('threshold', t('status.restarts.threshold'), text('threshold', { inputmode: 'numeric', value: '3' }), { hint: t('status.restarts.thresholdHint'), className: 'field-half' }),
      f('cooldownSeconds', t('status.restarts.cooldown'), text('cooldownSeconds', { inputmode: 'numeric', value: '600' }), { hint: t('status.restarts.cooldownHint'), suffix: t('status.unit.s'), className: 'field-half' }),
      // http
      f('method', t('status.restarts.method'), select({ name: 'method', value: 'POST', options: ['POST', 'GET'].map((m) => ({ value: m, label: m })) }), { className: 'field-third' }),
      f('url', t('status.restarts.url'), text('url', { type: 'url', placeholder: 'https://' }), { className: 'field-grow' }),
      f('authHeaderName', t('status.restarts.authHeaderName'), text('authHeaderName', { value: 'Authorization' }), { className: 'field-half' }),
      f('authHeaderValue', t('status.restarts.authHeaderValue'), text('authHeaderValue', { type: 'password', autocomplete: 'new-password' }), { hint: t('status.restarts.secretHint'), className: 'field-half' }),
      f('body', t('status.restarts.body'), textarea({ name: 'body', rows: 3 }), { hint: t('status.restarts.bodyHint') }),
      f('contentType', t('status.restarts.contentType'), text('contentType', { value: 'application/json' }), { className: 'field-third' }),
      f('expectedStatusMin', t('status.checks.statusMin'), text('expectedStatusMin', { inputmode: 'numeric', value: '200' }), { className: 'field-third' }),
      f('expectedStatusMax', t('status.checks.statusMax'), text('expectedStatusMax', { inputmode: 'numeric', value: '299' }), { className: 'field-third' }),
      f('timeoutMs', t('status.checks.timeout'), text('timeoutMs', { inputmode: 'numeric', value: '10000' }), { suffix: t('status.unit.ms'), className: 'field-third' }),
      // ssh
      f('host', t('status.restarts.host'), text('host'), { className: 'field-grow' }),
      f('port', t('status.restarts.port'), text('port', { inputmode: 'numeric', value: '22' }), { className: 'field-third' }),
      f('user', t('status.restarts.user'), text('user'), { className: 'field-third' }),
      f('privateKeyPem', t('status.restarts.privateKey'), textarea({ name: 'privateKeyPem', rows: 4, placeholder: '-----BEGIN OPENSSH PRIVATE KEY-----' }), { hint: t('status.restarts.secretHint') }),
      f('passphrase', t('status.restarts.passphrase'), text('passphrase', { type: 'password', autocomplete: 'new-password' }), { className: 'field-half' }),
      f('command', t('status.restarts.command'), text('command', { placeholder: 'systemctl restart app' }), { hint: t('status.restarts.commandHint') }),
      f('hostKeyFingerprint', t('status.restarts.hostKey'), text('hostKeyFingerprint', { placeholder: 'SHA256:…' }), { hint: t('status.restarts.hostKeyHint'), className: 'field-half' }),
      f('trustOnFirstUse', t('status.restarts.tofu'), toggle({ name: 'trustOnFirstUse' }), { hint: t('status.restarts.tofuHint') }),
      f('timeoutMs_ssh', t('status.checks.timeout'), text('timeoutMs_ssh', { inputmode: 'numeric', value: '60000' }), { suffix: t('status.unit.ms'), className: 'field-third' }),
      // deploy
      f('baseUrl', t('status.restarts.baseUrl'), text('baseUrl', { type: 'url', placeholder: 'https://deploy.example.com' }), { hint: t('status.restarts.baseUrlHint') }),
      f('uuid', t('status.restarts.uuid'), text('uuid'), { className: 'field-half' }),
      f('apiToken', t('status.restarts.apiToken'), text('apiToken', { type: 'password', autocomplete: 'new-password' }), { hint: t('status.restarts.secretHint'), className: 'field-half' }),
      f('timeoutMs_deploy', t('status.checks.timeout'), text('timeoutMs_deploy', { inputmode: 'numeric', value: '10000' }), { suffix: t('status.unit.ms'), className: 'field-third' }),
    ];
    // Required settings of the chosen type only.
    const need = { url: 'http', host: 'ssh', user: 'ssh', privateKeyPem: 'ssh', command: 'ssh', baseUrl: 'deploy', uuid: 'deploy', apiToken: 'deploy' };
    for (const field of fields) {
      if (need[field.name]) field.validate = (value, all) => (all.type === need[field.name] && !value ? t('kit.form.required') : null);
    }
    const groups = {};
    const form = createForm({
      t,
      id: 'restart-target-form',
      submitLabel: t('status.restarts.create'),
      submitIcon: icons.plus,
      fields,
      layout: (w) => {
        const row = (...names) => h('div', { class: 'field-row' }, names.map((n) => w[n].element));
        groups.http = h('div', { class: 'settings-group', dataset: { group: 'http' } }, row('method', 'url'), row('authHeaderName', 'authHeaderValue'), w.body.element, row('contentType', 'expectedStatusMin', 'expectedStatusMax'), row('timeoutMs'));
        groups.ssh = h('div', { class: 'settings-group', dataset: { group: 'ssh' } }, row('host', 'port', 'user'), w.privateKeyPem.element, row('passphrase'), w.command.element, row('hostKeyFingerprint'), w.trustOnFirstUse.element, row('timeoutMs_ssh'));
        groups.deploy = h('div', { class: 'settings-group', dataset: { group: 'deploy' } }, w.baseUrl.element, row('uuid', 'apiToken'), row('timeoutMs_deploy'));
        return [w.name.element, row('type', 'checkId'), row('threshold', 'cooldownSeconds'), h('h3', { class: 'section-title' }, t('status.restarts.settings')), groups.http, groups.ssh, groups.deploy];
      },
      actions: [button(t('kit.cancel'), { variant: 'secondary', onclick: () => formSlot.replaceChildren() })],
      fieldOf: (error) => {
        const name = fieldOfError(error, CODES);
        const type = typeSelect.value;
        if (error?.code === 'invalid_timeout') return type === 'http' ? 'timeoutMs' : `timeoutMs_${type}`;
        if (error?.code === 'invalid_url') return type === 'deploy' ? 'baseUrl' : 'url';
        return name;
      },
      async onSubmit(values) {
        const settings = {};
        for (const key of SETTINGS[values.type]) {
          const member = key.replace(/_(ssh|deploy)$/, '');
          let value = values[key];
          if (typeof value === 'string') value = INTEGERS.has(member) ? integer(value) : value;
          if (value === '' || value === undefined) continue;
          settings[member] = value;
        }
        await api.post(
          paths.restartTargets(pageId),
          { name: values.name.trim(), type: values.type, checkId: values.checkId, threshold: integer(values.threshold), cooldownSeconds: integer(values.cooldownSeconds), settings },
          { signal: ctx.signal },
        );
        formSlot.replaceChildren();
        ctx.toast(t('status.restarts.created'));
        reload();
      },
    });
    const showGroup = () => {
      for (const [type, group] of Object.entries(groups)) group.hidden = type !== typeSelect.value;
    };
    typeSelect.addEventListener('change', showGroup);
    showGroup();
    formSlot.replaceChildren(card({ title: t('status.restarts.newTitle'), subtitle: t('status.restarts.newText') }, form.element));
    form.fields.name.control.focus();
  }

  const firingPill = (f) => pill(t(`status.firing.${f.status}`), FIRING_TONES[f.status] ?? 'neutral', { dataset: { firingStatus: f.status } });
  // What a firing produced: its detail line (`HTTP 200`, `HTTP 500 (expected 200-299)`, ...) and duration.
  const firingDetail = (f) => [f.detail ?? '', f.durationMs === null || f.durationMs === undefined ? '' : t('status.firing.duration', { n: t.number(f.durationMs) })].filter(Boolean).join(' · ');

  // The target's firings below the list, newest first (the check's history, this target's part).
  async function showHistory(target) {
    const list = h('div', { class: 'firing-history-list' });
    history.replaceChildren(card({ title: t('status.restarts.historyTitle', { name: target.name }) }, list));
    history.dataset.target = target.id;
    loadInto(ctx, list, {
      load: () => api.get(paths.restartTargetFirings(pageId, target.id), { query: { limit: 20 }, signal: ctx.signal }),
      render: (firings) =>
        dataTable({
          caption: t('status.restarts.historyTitle', { name: target.name }),
          rows: firings,
          rowAttrs: (f) => ({ dataset: { firing: f.id } }),
          empty: { title: t('status.restarts.historyEmptyTitle'), text: t('status.restarts.historyEmptyText'), drawing: icons.clock },
          columns: [
            { label: t('status.restarts.firedAt'), className: 'cell-nowrap', render: (f) => timeAgo(f.firedAt) },
            { label: t('status.restarts.trigger'), render: (f) => (f.manual ? t('status.restarts.manual') : t('status.restarts.automatic', { n: f.consecutiveFailures })) },
            { label: t('status.restarts.outcome'), className: 'cell-nowrap', render: firingPill },
            { label: t('status.restarts.detail'), render: (f) => h('span', { class: 'firing-detail' }, firingDetail(f)) },
          ],
        }),
    });
  }

  // Test fire answers the firing it recorded (200 whether the target succeeded or not).
  async function testFire(target, trigger) {
    trigger.disabled = true;
    outcome.replaceChildren();
    try {
      const firing = await api.post(paths.restartTargetTest(pageId, target.id), {}, { signal: ctx.signal });
      const ok = firing.status === 'succeeded';
      outcome.replaceChildren(
        h(
          'div',
          { class: ['note', ok ? 'note-success' : 'note-warning'], role: 'status', dataset: { testOutcome: firing.status } },
          h('strong', null, t(ok ? 'status.restarts.testOk' : 'status.restarts.testFailed', { name: target.name })),
          h('span', { class: 'firing-detail' }, ' ', firingDetail(firing)),
        ),
      );
      showHistory(target);
    } catch (error) {
      ctx.reportError(error);
    } finally {
      trigger.disabled = false;
    }
  }

  async function remove(target) {
    const ok = await confirmDialog({
      title: t('status.restarts.deleteTitle', { name: target.name }),
      text: t('status.restarts.deleteText'),
      confirmLabel: t('status.delete'),
      cancelLabel: t('kit.cancel'),
      danger: true,
    });
    if (!ok) return;
    try {
      await api.del(paths.restartTarget(pageId, target.id));
    } catch (error) {
      ctx.reportError(error);
      return;
    }
    ctx.toast(t('status.restarts.deleted', { name: target.name }));
    if (history.dataset.target === target.id) history.replaceChildren();
    reload();
  }

  async function load() {
    const [targets, checks] = await Promise.all([api.all(paths.restartTargets(pageId), { signal: ctx.signal }), shared.checks()]);
    return { targets, checks };
  }
  function render({ targets, checks }) {
    newButton.disabled = false;
    newButton.onclick = () => openNew(checks);
    const checkName = new Map(checks.map((c) => [c.id, `${c.componentName} › ${c.name}`]));
    return dataTable({
      caption: t('status.tab.restarts'),
      rows: targets,
      rowAttrs: (r) => ({ dataset: { restartTarget: r.id } }),
      empty: { title: t('status.restarts.emptyTitle'), text: t('status.restarts.emptyText'), drawing: icons.refresh },
      columns: [
        { label: t('status.restarts.name'), render: (r) => h('span', { class: 'strong' }, r.name) },
        { label: t('status.restarts.typeField'), className: 'cell-nowrap', render: (r) => pill(t(`status.restarts.type.${r.type}`), 'info') },
        { label: t('status.restarts.check'), render: (r) => checkName.get(r.checkId) ?? mono(r.checkId) },
        // The threshold, and beneath it the failures counted towards it now.
        {
          label: t('status.restarts.threshold'),
          className: 'cell-nowrap',
          render: (r) => h('span', null, h('span', null, t('status.restarts.failuresInRow', { n: r.threshold })), h('br'), h('span', { class: 'muted', dataset: { failures: r.consecutiveFailures } }, t('status.restarts.failuresOf', { n: r.consecutiveFailures }))),
        },
        { label: t('status.restarts.cooldown'), className: 'cell-nowrap', render: (r) => t('status.seconds', { n: t.number(r.cooldownSeconds) }) },
        { label: t('status.restarts.lastFired'), className: 'cell-nowrap', render: (r) => (r.lastFiredAt ? timeAgo(r.lastFiredAt) : t('status.restarts.never')) },
        {
          label: t('status.actions'),
          className: 'cell-actions',
          render: (r) => {
            // The API has a test fire for HTTP targets only.
            let fire = null;
            if (r.type === 'http') {
              fire = button(t('status.restarts.test'), { variant: 'secondary', className: 'btn-small', icon: icons.refresh, dataset: { action: 'test-fire' } });
              fire.addEventListener('click', () => testFire(r, fire));
            }
            const past = button(t('status.restarts.history'), { variant: 'ghost', className: 'btn-small', icon: icons.clock, dataset: { action: 'firing-history' }, onclick: () => showHistory(r) });
            return h('span', { class: 'row-actions' }, fire, past, button(t('status.delete'), { variant: 'ghost', className: 'btn-small', icon: icons.trash, dataset: { action: 'delete-target' }, onclick: () => remove(r) }));
          },
        },
      ],
    });
  }

  const newButton = button(t('status.restarts.new'), { icon: icons.plus, disabled: true, dataset: { action: 'new-restart-target' } });
  const reload = loadInto(ctx, slot, { load, render });
  return h('div', { class: 'status-tab' }, h('div', { class: 'tab-toolbar' }, h('p', { class: 'muted' }, t('status.restarts.intro')), newButton), formSlot, outcome, slot, history);
}
