// A check's settings form (every member of the spec's HTTP check, docs/status-api.md "Check"): name, URL,
// method, interval, timeout, degraded latency, expected status range, expected body text and, for
// development deployments, skipping TLS verification. The bounds are core's (validate_check_settings) and
// the server's: its refusal shows beside the field its code is about, and at the form's foot.
import { h } from '../kit/dom.js';
import { createForm, input, select, toggle } from '../kit/form.js';
import { icons } from '../kit/icons.js';
import { fieldOfError, integer } from './common.js';

const CODES = {
  invalid_url: 'url',
  invalid_method: 'method',
  invalid_interval: 'intervalSeconds',
  invalid_status_range: 'expectedStatusMin',
  invalid_timeout: 'timeoutMs',
  invalid_degraded_latency: 'degradedLatencyMs',
  invalid_expected_body: 'expectedBodyContains',
  insecure_tls_not_allowed: 'insecureSkipTlsVerify',
};

const DEFAULTS = { method: 'GET', intervalSeconds: 60, timeoutMs: 10000, degradedLatencyMs: 2000, expectedStatusMin: 200, expectedStatusMax: 299 };

const number = (name, value, attrs = {}) => input({ name, type: 'text', inputmode: 'numeric', value: value === undefined || value === null ? '' : String(value), ...attrs });

// check: the stored check, or null for a new one. onSubmit(body) sends it (POST or PATCH).
export function checkForm(ctx, { check = null, onSubmit, actions = [] }) {
  const { t } = ctx;
  const v = { ...DEFAULTS, ...(check ?? {}) };
  const fields = [
    { name: 'name', label: t('status.checks.name'), control: input({ name: 'name', value: v.name ?? '', maxlength: 200, autocomplete: 'off' }), required: true },
    { name: 'url', label: t('status.checks.url'), hint: t('status.checks.urlHint'), control: input({ name: 'url', type: 'url', value: v.url ?? '', placeholder: 'https://', autocomplete: 'off' }), required: true },
    {
      name: 'method',
      label: t('status.checks.method'),
      control: select({ name: 'method', value: v.method, options: ['GET', 'POST', 'HEAD'].map((m) => ({ value: m, label: m })) }),
      className: 'field-third',
    },
    { name: 'intervalSeconds', label: t('status.checks.interval'), hint: t('status.checks.intervalHint'), control: number('intervalSeconds', v.intervalSeconds), suffix: t('status.unit.s'), className: 'field-third' },
    { name: 'timeoutMs', label: t('status.checks.timeout'), hint: t('status.checks.timeoutHint'), control: number('timeoutMs', v.timeoutMs), suffix: t('status.unit.ms'), className: 'field-third' },
    { name: 'degradedLatencyMs', label: t('status.checks.degraded'), hint: t('status.checks.degradedHint'), control: number('degradedLatencyMs', v.degradedLatencyMs), suffix: t('status.unit.ms'), className: 'field-third' },
    { name: 'expectedStatusMin', label: t('status.checks.statusMin'), control: number('expectedStatusMin', v.expectedStatusMin), className: 'field-third' },
    { name: 'expectedStatusMax', label: t('status.checks.statusMax'), hint: t('status.checks.statusHint'), control: number('expectedStatusMax', v.expectedStatusMax), className: 'field-third' },
    { name: 'expectedBodyContains', label: t('status.checks.body'), hint: t('status.checks.bodyHint'), control: input({ name: 'expectedBodyContains', value: v.expectedBodyContains ?? '', autocomplete: 'off' }) },
    { name: 'insecureSkipTlsVerify', label: t('status.checks.insecure'), hint: t('status.checks.insecureHint'), control: toggle({ name: 'insecureSkipTlsVerify', checked: v.insecureSkipTlsVerify }) },
  ];
  const form = createForm({
    t,
    id: 'check-form',
    className: 'check-form',
    submitLabel: check ? t('status.save') : t('status.checks.create'),
    submitIcon: check ? icons.check : icons.plus,
    fields,
    actions,
    layout: (w) => [
      w.name.element,
      w.url.element,
      h('div', { class: 'field-row' }, w.method.element, w.intervalSeconds.element, w.timeoutMs.element),
      h('div', { class: 'field-row' }, w.degradedLatencyMs.element, w.expectedStatusMin.element, w.expectedStatusMax.element),
      w.expectedBodyContains.element,
      w.insecureSkipTlsVerify.element,
    ],
    fieldOf: (error) => fieldOfError(error, CODES),
    onSubmit: (values) => {
      const body = {
        name: values.name.trim(),
        url: values.url.trim(),
        method: values.method,
        intervalSeconds: integer(values.intervalSeconds),
        timeoutMs: integer(values.timeoutMs),
        degradedLatencyMs: integer(values.degradedLatencyMs),
        expectedStatusMin: integer(values.expectedStatusMin),
        expectedStatusMax: integer(values.expectedStatusMax),
        // Empty clears it (null): the check then accepts any body.
        expectedBodyContains: values.expectedBodyContains === '' ? null : values.expectedBodyContains,
        insecureSkipTlsVerify: values.insecureSkipTlsVerify,
      };
      for (const [key, value] of Object.entries(body)) if (value === undefined) delete body[key];
      return onSubmit(body);
    },
  });
  // Unsaved changes are marked and guarded by the shell.
  form.element.addEventListener('input', () => ctx.setDirty(true));
  form.element.addEventListener('change', () => ctx.setDirty(true));
  return form;
}
