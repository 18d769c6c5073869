// @platform/core/status: the status-page rules (webhook signatures, component and page status, probe
// verdicts, maintenance states) from the wasm module platform_status (wasm/status_module.cpp over
// core/status/), the smallest module: it backs the status embed badge.
//
//   import { loadStatus } from '@platform/core/status';
//   const status = await loadStatus();
//   status.pageStatus(['operational', 'degraded']); // { ok: true, value: 'degraded' }
import { bytesOf, checkedRecord, moduleLoader, requireStringArray, requireType } from './shared.js';

// Absent members take the core's defaults (core/status/probe.h), filled in by the module.
const CHECK_SETTINGS = {
  method: 'string?',
  intervalSeconds: 'number?',
  expectedStatusMin: 'number?',
  expectedStatusMax: 'number?',
  expectedBodyContains: 'string?',
  timeoutMs: 'number?',
  degradedLatencyMs: 'number?',
};
const MAINTENANCE_WINDOW = {
  scheduledStartMs: 'number',
  endMs: 'number',
  startedAtMs: 'number?',
  completedAtMs: 'number?',
  cancelledAtMs: 'number?',
};
const PROBE_OUTCOME = {
  transport: 'string',
  httpStatus: 'number?',
  latencyMs: 'number',
  bodyContainsExpected: 'boolean?',
};

function wrap(wasm) {
  return {
    signWebhook(rawBody, secret) {
      return wasm.signWebhook(bytesOf(rawBody, 'rawBody'), bytesOf(secret, 'secret'));
    },
    verifyWebhookSignature(headerValue, rawBody, secret) {
      requireType(headerValue, 'string', 'headerValue');
      return wasm.verifyWebhookSignature(headerValue, bytesOf(rawBody, 'rawBody'), bytesOf(secret, 'secret'));
    },
    componentStatus(checkStatuses, inMaintenance) {
      requireStringArray(checkStatuses, 'checkStatuses');
      requireType(inMaintenance, 'boolean', 'inMaintenance');
      return wasm.componentStatus(checkStatuses, inMaintenance);
    },
    pageStatus(componentStatuses) {
      requireStringArray(componentStatuses, 'componentStatuses');
      return wasm.pageStatus(componentStatuses);
    },
    classifyProbe(settings, outcome) {
      const checkedSettings = checkedRecord(settings, CHECK_SETTINGS, 'settings');
      return wasm.classifyProbe(checkedSettings, checkedRecord(outcome, PROBE_OUTCOME, 'outcome'));
    },
    maintenanceState(window, nowMs) {
      const checked = checkedRecord(window, MAINTENANCE_WINDOW, 'window');
      requireType(nowMs, 'number', 'nowMs');
      return wasm.maintenanceState(checked, nowMs);
    },
  };
}

// Loads platform_status (once per location) and answers the frozen API. Rejects with an Error naming the
// location when the module files cannot be loaded or compiled.
export const loadStatus = moduleLoader('platform_status', wrap);

export default loadStatus;
