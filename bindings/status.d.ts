// Types of @platform/core/status (status.js): the status-page rules, from the wasm module platform_status.
// Error convention: types.d.ts.

import type { LoadOptions, Result } from './types.js';

export * from './types.js';

/** A check's latest status (its last probe's verdict, or `no-data` before the first probe). */
export type CheckStatus = 'operational' | 'degraded' | 'down' | 'no-data';

/** A component's or a page's status. */
export type ComponentStatus = 'operational' | 'degraded' | 'down' | 'maintenance' | 'no-data';

/** The verdict of one probe. */
export type ProbeStatus = 'operational' | 'degraded' | 'down';

/** Why a probe got its verdict: `ok` for operational, `slow` for degraded, the rest for down. */
export type ProbeReason = 'ok' | 'slow' | 'transport_error' | 'timeout' | 'unexpected_status' | 'body_mismatch';

/**
 * An HTTP check's settings. A member left out (or null) takes the core's default: GET, every 60 s, expected
 * status 200..299, no body rule, a 10000 ms timeout, degraded past 2000 ms.
 */
export interface CheckSettings {
  method?: 'GET' | 'POST' | 'HEAD' | null;
  intervalSeconds?: number | null;
  expectedStatusMin?: number | null;
  expectedStatusMax?: number | null;
  /** When set, a response whose body lacks this text is down. */
  expectedBodyContains?: string | null;
  timeoutMs?: number | null;
  degradedLatencyMs?: number | null;
}

/** How one probe's request ended, as the worker measured it. */
export interface ProbeOutcome {
  /** `response`: an HTTP response arrived; `timeout`: none within timeoutMs; `error`: DNS, connection, TLS. */
  transport: 'response' | 'timeout' | 'error';
  /** Meaningful for `response` only; default 0. */
  httpStatus?: number | null;
  /** Time to the complete response, an integer >= 0. */
  latencyMs: number;
  /** Whether the body contained expectedBodyContains; ignored without a body rule. Default false. */
  bodyContainsExpected?: boolean | null;
}

export interface ProbeVerdict {
  readonly status: ProbeStatus;
  readonly reason: ProbeReason;
}

/** A maintenance window's state at a given time. */
export type MaintenanceState = 'scheduled' | 'in_progress' | 'completed' | 'cancelled';

/**
 * What is stored for a maintenance window, times in Unix ms: the planned start and end, and the times of the
 * manual actions taken ("Start now", "Mark complete", cancel), null or absent when not taken.
 */
export interface MaintenanceWindow {
  scheduledStartMs: number;
  endMs: number;
  startedAtMs?: number | null;
  completedAtMs?: number | null;
  cancelledAtMs?: number | null;
}

/** The error codes of check settings, in the order they are checked. */
export type CheckSettingsErrorCode =
  | 'invalid_method'
  | 'invalid_interval'
  | 'invalid_status_range'
  | 'invalid_timeout'
  | 'invalid_degraded_latency'
  | 'invalid_expected_body';

export interface PlatformStatus {
  // --- Status-page rules (core/status/): browser embeds and JS apps compute what the server does. ----------

  /**
   * The `X-Service-Signature` value of a webhook body: `sha256=` and 64 lower-case hex digits of
   * HMAC-SHA256(secret, body). The signature is over bytes: a string is taken as its UTF-8 encoding
   * (TextEncoder, the bytes fetch() and Buffer.from() send), a Uint8Array as it is. Sign the exact bytes you
   * send. Cannot fail.
   * @example signWebhook('{"event":"incident.updated"}', 'mt_3kQ9') // 'sha256=7cf09f00...4037f4'
   */
  signWebhook(rawBody: string | Uint8Array, secret: string | Uint8Array): string;

  /**
   * null when `headerValue` (the `X-Service-Signature` header, already trimmed) signs `rawBody` with
   * `secret`; the digest is compared in constant time. Verify the raw bytes received (a Uint8Array, or the
   * body text when it was decoded from UTF-8 without loss) before parsing them.
   * Errors: `malformed_signature` (not exactly `sha256=` and 64 lower-case hex digits; checked first);
   * `invalid_signature` (the digest differs, or the secret is empty).
   */
  verifyWebhookSignature(
    headerValue: string,
    rawBody: string | Uint8Array,
    secret: string | Uint8Array,
  ): Result<null, 'malformed_signature' | 'invalid_signature'>;

  /**
   * A component's status from its checks' statuses, the first matching rule winning: in maintenance ->
   * `maintenance`; any check down -> `down`; any degraded -> `degraded`; all `no-data` or none -> `no-data`;
   * otherwise `operational`.
   * Errors: `invalid_status` for an entry that is not a check wire name (the message names it).
   * @example componentStatus(['operational', 'no-data'], false) // { ok: true, value: 'operational' }
   */
  componentStatus(
    checkStatuses: readonly CheckStatus[],
    inMaintenance: boolean,
  ): Result<ComponentStatus, 'invalid_status'>;

  /**
   * A page's overall status: the worst component in the order down > degraded > maintenance > operational;
   * `no-data` components are ignored unless all are `no-data` or there are none.
   * Errors: `invalid_status` for an entry that is not a component wire name (the message names it).
   */
  pageStatus(componentStatuses: readonly ComponentStatus[]): Result<ComponentStatus, 'invalid_status'>;

  /**
   * The verdict of one probe: validates `settings` first (as the server does when a check is saved), then
   * classifies: transport error -> down/transport_error; timeout or latency over timeoutMs -> down/timeout;
   * status outside the expected range -> down/unexpected_status; body rule not met -> down/body_mismatch;
   * latency over degradedLatencyMs -> degraded/slow; otherwise operational/ok.
   * Errors: the first failing settings check (CheckSettingsErrorCode; a settings number that is not a safe
   * integer fails with that member's code), then `invalid_probe_outcome` (unknown transport, httpStatus not
   * an integer, latencyMs not a safe integer >= 0).
   * @example classifyProbe({}, { transport: 'response', httpStatus: 204, latencyMs: 2001 }) // { ok: true, value: { status: 'degraded', reason: 'slow' } }
   */
  classifyProbe(
    settings: CheckSettings,
    outcome: ProbeOutcome,
  ): Result<ProbeVerdict, CheckSettingsErrorCode | 'invalid_probe_outcome'>;

  /**
   * A maintenance window's state at `nowMs` (Unix ms), the first matching rule winning: cancelled at or
   * before now -> `cancelled`; completed at or before now, or now >= endMs -> `completed`; started at or
   * before now, or now >= scheduledStartMs -> `in_progress`; otherwise `scheduled`.
   * Errors: `invalid_timestamp` for a time that is not a safe integer (the message names it).
   */
  maintenanceState(window: MaintenanceWindow, nowMs: number): Result<MaintenanceState, 'invalid_timestamp'>;
}

/**
 * Loads platform_status (once per location) and returns its API. Rejects with an Error naming the location
 * when the module files cannot be loaded or compiled.
 */
export function loadStatus(options?: LoadOptions): Promise<PlatformStatus>;

export default loadStatus;
