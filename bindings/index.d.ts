// Types of @platform/core: the platform's core rules, the restaurant rules and the status-page rules compiled
// to WebAssembly (see index.js).
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

// --- Restaurant (core/restaurant/) ----------------------------------------------------------------------------

/** An expense's derived amounts: costMinor is the net when the VAT is deductible, the gross when it is not. */
export interface ExpenseAmounts {
  readonly grossMinor: number;
  readonly netMinor: number;
  readonly vatMinor: number;
  readonly costMinor: number;
}

/** An order line as snapshotted when it was added. unitPriceMinor is VAT-inclusive; quantity 1..100000. */
export interface OrderLine {
  lineId: string;
  productId: string;
  name: string;
  unitPriceMinor: number;
  quantity: number;
  vatRateBps: number;
}

/** A product as the menu API shows it (VAT-inclusive price). `active` defaults to true. */
export interface MenuProduct {
  id: string;
  name: string;
  priceMinor: number;
  vatRateBps: number;
  active?: boolean;
}

/** One option of an option group; priceDeltaMinor is a VAT-inclusive surcharge, 0..10^15. */
export interface MenuOption {
  id: string;
  name: string;
  priceDeltaMinor: number;
}

/** An option group as the menu API shows it; minSelect defaults to 0, maxSelect to 1. */
export interface MenuOptionGroup {
  id: string;
  name: string;
  minSelect?: number;
  maxSelect?: number;
  options: readonly MenuOption[];
}

/** What an order line snapshots of its chosen options. */
export interface ChosenOption {
  groupId: string;
  optionId: string;
  name: string;
  priceDeltaMinor: number;
}

/** The unit price of one item with its options, and the options in menu order. */
export interface PricedItem {
  unitPriceMinor: number;
  options: ChosenOption[];
}

/** A payment on an order; amountMinor 1..10^15. paymentId and method are carried, not interpreted. */
export interface OrderPayment {
  paymentId: string;
  amountMinor: number;
  method: string;
}

/** One line's gross (unit price x quantity) split at its rate. */
export interface LineTotals {
  readonly lineId: string;
  readonly grossMinor: number;
  readonly netMinor: number;
  readonly vatMinor: number;
}

/** Sums of the per-line splits (so the VAT may differ from the VAT of the order gross); lines in input order. */
export interface OrderTotals {
  readonly grossMinor: number;
  readonly netMinor: number;
  readonly vatMinor: number;
  readonly items: readonly LineTotals[];
}

/** dueMinor = max(0, gross - paid); overpaidMinor = max(0, paid - gross) (a line removed after a payment). */
export interface OrderBalance {
  readonly totals: OrderTotals;
  readonly paidMinor: number;
  readonly dueMinor: number;
  readonly overpaidMinor: number;
}

/** Why order lines are refused. */
export type OrderLineErrorCode = 'invalid_quantity' | 'vat_rate_invalid' | 'invalid_amount';

/** The payables board's groups, in this order. */
export type PayableBucket = 'overdue' | 'thisWeek' | 'thisMonth' | 'later';

/** An unpaid expense with a due date; amountMinor is its grossMinor (0..10^15). */
export interface Payable {
  expenseId: string;
  dueDate: DayKey;
  amountMinor: number;
}

export interface PayableGroup {
  readonly key: PayableBucket;
  /** By dueDate, then expenseId. */
  readonly items: readonly Readonly<Payable>[];
  readonly totalMinor: number;
}

/** A daily income row (one per branch x business day x channel) as entered. */
export interface IncomeInput {
  businessDate: DayKey;
  channel: string;
  grossMinor: number;
  /** Default 0. */
  commissionMinor?: number;
  /** The till's Z report; null or absent when unknown. */
  zReportMinor?: number | null;
}

/** A valid income row: channel trimmed, netMinor = gross - commission, zReportDiffMinor = gross - Z report. */
export interface IncomeRow {
  readonly businessDate: DayKey;
  readonly channel: string;
  readonly grossMinor: number;
  readonly commissionMinor: number;
  readonly zReportMinor: number | null;
  readonly netMinor: number;
  readonly zReportDiffMinor: number | null;
}

/** A payment taken during a shift; only method `cash` (any ASCII case, surrounding spaces) fills the drawer. */
export interface ShiftPayment {
  method: string;
  amountMinor: number;
}

/** expectedCashMinor = opening float + cash payments; differenceMinor = counted - expected (negative: short). */
export interface ShiftCashCount {
  readonly openingFloatMinor: number;
  readonly cashPaymentsMinor: number;
  readonly expectedCashMinor: number;
  readonly countedCashMinor: number;
  readonly differenceMinor: number;
}

/** A valid data row of an expense CSV import; category and vendor as written (a name or an id). */
export interface ExpenseCsvRow {
  /** 1-based data row (the first record after the header is row 1; blank lines keep their number). */
  readonly row: number;
  readonly category: string;
  readonly vendor: string | null;
  readonly accrualDate: DayKey;
  readonly dueDate: DayKey | null;
  /** The paidAt cell normalised to UTC with milliseconds (`2026-02-01T10:00:00.000Z`); null when unpaid. */
  readonly paidAt: string | null;
  readonly paymentMethod: string;
  readonly isVatDeductible: boolean;
  readonly vatRateBps: number;
  readonly grossMinor: number;
  readonly netMinor: number;
  readonly vatMinor: number;
  readonly costMinor: number;
}

/** One problem of one bad row; column is a header name, or '' for an error about the whole row. */
export interface CsvRowError {
  readonly row: number;
  readonly column: string;
  readonly code:
    | 'invalid_row'
    | 'missing_field'
    | 'invalid_date'
    | 'invalid_amount'
    | 'vat_rate_invalid'
    | 'invalid_timestamp'
    | 'invalid_field';
  readonly message: string;
}

export interface ExpenseCsvImport {
  /** The good rows, in file order. */
  readonly rows: readonly ExpenseCsvRow[];
  /** Every problem of every bad row, by row then column order. */
  readonly errors: readonly CsvRowError[];
  /** Data rows, blank lines not counted. */
  readonly total: number;
  /** Rows with at least one error. */
  readonly failed: number;
}

// --- Status-page rules (core/status/) ---------------------------------------------------------------------

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

/** The compile error codes of a mail template (docs/mail-templates.md). */
export type TemplateSyntaxErrorCode =
  | 'template_nested_section'
  | 'template_unexpected_close'
  | 'template_mismatched_close'
  | 'template_unclosed_section'
  | 'template_too_large';

/** A template that does not compile: the code, a message naming the byte offset, and the offset itself. */
export interface TemplateSyntaxError extends Err<TemplateSyntaxErrorCode> {
  /** Byte offset of the offending tag in the UTF-8 encoding of the text (the opener for an unclosed section). */
  readonly offset: number;
}

/** A render refused because the variables leave out names the output needs (the send call's 422). */
export interface MissingVariablesError extends Err<'missing_variables'> {
  /** The names, each once, in the template's order (missingVariables' answer). */
  readonly missing: string[];
}

/** The names used inside one `{#section}`: the elements' fields (or top-level variables of that name). */
export interface SectionFields {
  section: string;
  names: string[];
}

/** What compiling a template tells: its top-level `variables` (the Template resource's) and section fields. */
export interface TemplateInfo {
  variables: string[];
  sectionFields: SectionFields[];
}

/** `html` for HTML bodies (`& < > " '` escaped), `none` for subjects and text bodies. */
export type TemplateEscaping = 'html' | 'none';

/** A plain string for every locale, or an object keyed by locale. */
export type LocalizedString = string | { [locale: string]: string };

/** The entry a LocalizedString gives a locale: its key ('' for a plain string) and text. */
export interface PickedLocale {
  locale: string;
  text: string;
}

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

  // --- Restaurant rules (core/restaurant/): the offline till computes what the server stores. --------------
  // Array arguments hold plain objects; a member of the wrong type throws a TypeError naming it
  // (`lines[1].quantity must be a number, got string`). A number that is not a safe integer fails with the code
  // of its member, in the order the core checks (an earlier refused line or payment is reported first).

  /**
   * The amounts of an expense: its VAT split (as vatSplit) and the cost reports count.
   * Errors: `vat_rate_invalid` (checked first), `invalid_amount` (gross outside 0..10^15).
   * @example expenseAmounts(11800, 1800, false) // { ok: true, value: { grossMinor: 11800, netMinor: 10000, vatMinor: 1800, costMinor: 11800 } }
   */
  expenseAmounts(
    grossMinor: number,
    vatRateBps: number,
    isVatDeductible: boolean,
  ): Result<ExpenseAmounts, 'vat_rate_invalid' | 'invalid_amount'>;

  /**
   * The unit price of one item of `product` with the chosen option ids (any order): the base price plus the
   * deltas, exactly as the server snapshots it on the order line. `optionGroups` are the product's groups in
   * the product's order.
   * Errors: `vat_rate_invalid`, `invalid_amount` (a product price or delta outside 0..10^15), `invalid_field`
   * (a group that cannot be satisfied), `product_inactive`, `option_not_available` (an id in none of the
   * groups, or listed twice), `invalid_option_count` (picks outside minSelect..maxSelect), `invalid_amount`
   * (price with deltas above 10^15).
   */
  priceItem(
    product: MenuProduct,
    optionGroups: readonly MenuOptionGroup[],
    optionIds: readonly string[],
  ): Result<
    PricedItem,
    'vat_rate_invalid' | 'invalid_amount' | 'invalid_field' | 'product_inactive' | 'option_not_available' | 'invalid_option_count'
  >;

  /**
   * Per-line VAT splits (line gross = unitPriceMinor x quantity, split once) and their sums. An empty order
   * totals 0.
   * Errors: the first refused line's: `invalid_quantity` (not 1..100000), `vat_rate_invalid`, `invalid_amount`
   * (unit price or line gross outside 0..10^15); `invalid_amount` when the order gross exceeds 10^15.
   */
  orderTotals(lines: readonly OrderLine[]): Result<OrderTotals, OrderLineErrorCode>;

  /**
   * Totals, the paid sum and what is still due.
   * Errors: as orderTotals; `invalid_amount` for a payment outside 1..10^15 or a paid sum above 10^15.
   */
  orderBalance(lines: readonly OrderLine[], payments: readonly OrderPayment[]): Result<OrderBalance, OrderLineErrorCode>;

  /**
   * null when `newPayment` may be taken on the order (core validate_new_payment): no tips or change through
   * payments, so a payment covers at most what is still due.
   * Errors: as orderBalance for the lines and the existing payments; then `invalid_amount` (not 1..10^15) and
   * `payment_exceeds_due` (more than dueMinor, including any payment when nothing is due).
   */
  canPay(
    lines: readonly OrderLine[],
    payments: readonly OrderPayment[],
    newPayment: OrderPayment,
  ): Result<null, OrderLineErrorCode | 'payment_exceeds_due'>;

  /**
   * null when the payments cover the order (dueMinor 0; an empty or overpaid order can close).
   * Errors: as orderBalance; `order_not_paid` with the amount due in the message.
   */
  canClose(lines: readonly OrderLine[], payments: readonly OrderPayment[]): Result<null, OrderLineErrorCode | 'order_not_paid'>;

  /**
   * The payables group of a due date, `today` being the branch's local calendar date: `overdue` before today,
   * `thisWeek` up to the Sunday ending today's ISO week, `thisMonth` up to the end of today's month, `later`.
   * Errors: `invalid_date` (dueDate checked first; the message starts with the argument's name).
   * @example payableBucket('2026-02-01', '2026-01-29') // { ok: true, value: 'thisWeek' }
   */
  payableBucket(dueDate: DayKey, today: DayKey): Result<PayableBucket, 'invalid_date'>;

  /**
   * All four groups, always in the order overdue, thisWeek, thisMonth, later; items by dueDate then
   * expenseId; totalMinor sums amountMinor.
   * Errors: `invalid_date` for today, then per item `invalid_date` (dueDate) and `invalid_amount` (amountMinor
   * outside 0..10^15); `invalid_amount` when all amounts together exceed 2^53 - 1, which no JS number holds
   * exactly.
   */
  groupPayables(payables: readonly Payable[], today: DayKey): Result<readonly PayableGroup[], 'invalid_date' | 'invalid_amount'>;

  /**
   * Validates an income row against the branch's current business date (businessDate of its local time now
   * with its dayCutoffHour) and derives netMinor and zReportDiffMinor.
   * Errors, in this order: `invalid_date` (row.businessDate, then currentBusinessDate); `business_date_in_future`;
   * `invalid_field` (channel empty after trimming or over 64 characters); `invalid_amount` (grossMinor,
   * commissionMinor, zReportMinor outside 0..10^15); `commission_exceeds_gross`.
   */
  validateIncome(
    row: IncomeInput,
    currentBusinessDate: DayKey,
  ): Result<IncomeRow, 'invalid_date' | 'business_date_in_future' | 'invalid_field' | 'invalid_amount' | 'commission_exceeds_gross'>;

  /**
   * The cash the drawer should hold at the shift's close and how far the count is from it; non-cash payments
   * are left out whatever their amount.
   * Errors: `invalid_amount` (opening float, counted cash, then cash payments outside 0..10^15, or an
   * expected sum above 10^15).
   * @example countShiftCash(20000, [{ method: 'cash', amountMinor: 4500 }], 24000) // differenceMinor -500
   */
  countShiftCash(
    openingFloatMinor: number,
    payments: readonly ShiftPayment[],
    countedCashMinor: number,
  ): Result<ShiftCashCount, 'invalid_amount'>;

  /**
   * Parses an expense CSV import (header `accrualDate,category,vendor,grossMinor,vatRateBps,dueDate,paidAt,
   * paymentMethod,isVatDeductible` in any order): the good rows and every problem of the bad ones.
   * Errors for the whole file: `invalid_csv` (malformed quoting; the message names the line),
   * `invalid_csv_header` (empty file; a missing, unknown or repeated column).
   */
  parseExpenseCsv(text: string): Result<ExpenseCsvImport, 'invalid_csv' | 'invalid_csv_header'>;

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

  /**
   * Compiles a mail template (spec document 2, "Template variable syntax"): `{name}` / `{{name}}`,
   * `{#items}...{/items}`, `{^name}...{/^name}`; any other brace is text. Answers the top-level
   * `variables` in order of first appearance and the names used inside each `{#section}`.
   * Errors: the compile codes, with the byte `offset` of the offending tag.
   * @example compileTemplate('Hi {name}{#items}{sku}{/items}') // { ok: true, value: { variables: ['name', 'items'], sectionFields: [{ section: 'items', names: ['sku'] }] } }
   */
  compileTemplate(text: string): Ok<TemplateInfo> | TemplateSyntaxError;

  /** compileTemplate's `variables` alone (the Template resource's read-only `variables`). */
  templateVariables(text: string): Ok<string[]> | TemplateSyntaxError;

  /**
   * Renders a template with a send call's `variables` (an object, or its JSON text) exactly as the server
   * does: item fields before top-level variables inside `{#items}`; strings escaped per `escaping`
   * (default `html`), numbers as JSON text, booleans as `true`/`false`, null as nothing.
   * Errors: the compile codes (with `offset`); `invalid_json` / `invalid_body` for variables that are not
   * a JSON object; `missing_variables` (with `missing`); `invalid_variable` (an array or object in a scalar
   * tag, or a `{#name}` value that is not an array of objects, true, false or null).
   * @example renderTemplate('Hi {name}', { name: 'Ali & Veli' }) // { ok: true, value: 'Hi Ali &amp; Veli' }
   */
  renderTemplate(
    text: string,
    variables: JsonObject | string,
    escaping?: TemplateEscaping,
  ):
    | Ok<string>
    | TemplateSyntaxError
    | MissingVariablesError
    | Err<'invalid_variable' | 'invalid_json' | 'invalid_body'>;

  /**
   * The names the template would need with these `variables` and that they do not provide (the send
   * call's 422), each once in the template's order. Inside `{#items}` a name is provided when every element
   * or the top level has it; `{^name}` never needs `name`.
   * Errors: the compile codes (with `offset`); `invalid_json` / `invalid_body`.
   */
  missingVariables(
    text: string,
    variables: JsonObject | string,
  ): Ok<string[]> | TemplateSyntaxError | Err<'invalid_json' | 'invalid_body'>;

  /**
   * The entry of a LocalizedString for `locale`: exact key, else `en`, else the first key; a plain string
   * for every locale (its `locale` is '').
   * Errors: `invalid_localized_string` (an empty object, an empty key, a value that is not a string).
   */
  pickLocalized(localized: LocalizedString, locale: string): Result<PickedLocale, 'invalid_localized_string'>;
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
