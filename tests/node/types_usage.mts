// Compiled (never run) by types.test.mjs with `tsc --strict --noEmit`: the declarations in
// bindings/index.d.ts accept what the API accepts and refuse what it refuses.
import loadDefault, {
  loadPlatformCore,
  type DayKey,
  type Err,
  type ExpenseAmounts,
  type ExpenseCsvImport,
  type IncomeRow,
  type JsonValue,
  type JwkSet,
  type LineTotals,
  type OrderBalance,
  type OrderLine,
  type OrderPayment,
  type PayableBucket,
  type PayableGroup,
  type PlatformCore,
  type ShiftCashCount,
  type VatSplit,
  type VerifiedJwt,
  type CheckSettings,
  type CheckStatus,
  type ComponentStatus,
  type ProbeOutcome,
  type ProbeReason,
  type ProbeVerdict,
  type MaintenanceState,
  type MaintenanceWindow,
  type TemplateInfo,
  type TemplateSyntaxErrorCode,
  type PickedLocale,
} from '../../bindings/index.js';

const core: PlatformCore = await loadPlatformCore({ wasmDir: 'build/wasm/wasm' });
await loadDefault({ wasmUrl: new URL('https://example.invalid/web/wasm/') });

// Results narrow on `ok`: a value on success, a typed code on failure.
const split = core.vatSplit(11800, 1800);
if (split.ok) {
  const value: VatSplit = split.value;
  const net: number = value.netMinor;
  void net;
} else {
  const code: 'vat_rate_invalid' | 'invalid_amount' = split.code;
  const message: string = split.message;
  void code, message;
  // @ts-expect-error a failure carries no value
  void split.value;
}

const day = core.businessDate('2026-03-15T02:30');
if (day.ok) {
  const key: DayKey = day.value;
  void key;
} else {
  const failure: Err<'invalid_cutoff_hour' | 'invalid_date' | 'invalid_time'> = day;
  // @ts-expect-error businessDate never fails with a VAT code
  const wrong: 'vat_rate_invalid' = day.code;
  void failure, wrong;
}

const allowed = core.allows('member', ['restaurant.branch:br_1'], 'restaurant.write', 'br_1');
if (allowed.ok) {
  const yes: boolean = allowed.value;
  void yes;
}
const valid = core.validatePermission('domains.view');
if (valid.ok) {
  const nothing: null = valid.value;
  void nothing;
}
const hash: string = core.sha256Hex('abc');
const token = core.makeToken('oauth_access');
const shape = core.hasTokenShape('csrf', 'x');
const nextDay = core.addDays('2026-03-15', 1);
void hash, token, shape, nextDay;

// JWTs: verified header and claims, typed error codes.
const hs = core.verifyJwtHs256('a.b.c', new Uint8Array(32));
if (hs.ok) {
  const verified: VerifiedJwt = hs.value;
  const alg: string = verified.header.alg;
  const iss: JsonValue = verified.claims['iss'];
  void alg, iss;
} else {
  const code: 'invalid_jwt' | 'unsupported_alg' | 'invalid_signature' = hs.code;
  void code;
}
const jwks: JwkSet = { keys: [{ kty: 'RSA', n: 'x', e: 'AQAB', kid: 'k1' }, { kty: 'EC', crv: 'P-256' }] };
const rs = core.verifyJwtRs256('a.b.c', jwks);
const rsText = core.verifyJwtRs256('a.b.c', '{"keys":[]}');
if (!rs.ok) {
  const code: 'invalid_jwks' | 'invalid_jwk' | 'unknown_kid' | 'invalid_jwt' | 'unsupported_alg' | 'invalid_signature' =
    rs.code;
  void code;
}
const challenge = core.pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk');
if (challenge.ok) {
  const text: string = challenge.value;
  void text;
}
const thumbprint = core.jwkThumbprint({ kty: 'RSA', n: 'x', e: 'AQAB' });
void rsText, thumbprint, core.jwkThumbprint('{}');

// Restaurant rules.
const amounts = core.expenseAmounts(11800, 1800, false);
if (amounts.ok) {
  const value: ExpenseAmounts = amounts.value;
  const cost: number = value.costMinor;
  void cost;
} else {
  const code: 'vat_rate_invalid' | 'invalid_amount' = amounts.code;
  void code;
}
const lines: OrderLine[] = [
  { lineId: 'l1', productId: 'p1', name: 'Soup', unitPriceMinor: 1000, quantity: 1, vatRateBps: 2000 },
];
const payments: readonly OrderPayment[] = [{ paymentId: 'pay_1', amountMinor: 500, method: 'card' }];
const totals = core.orderTotals(lines);
if (totals.ok) {
  const first: LineTotals | undefined = totals.value.items[0];
  const vat: number = totals.value.vatMinor;
  void first, vat;
} else {
  const code: 'invalid_quantity' | 'vat_rate_invalid' | 'invalid_amount' = totals.code;
  void code;
}
const balance = core.orderBalance(lines, payments);
if (balance.ok) {
  const value: OrderBalance = balance.value;
  const due: number = value.dueMinor;
  const gross: number = value.totals.grossMinor;
  void due, gross;
}
const payCheck = core.canPay(lines, payments, { paymentId: 'pay_2', amountMinor: 500, method: 'cash' });
if (payCheck.ok) {
  const nothing: null = payCheck.value;
  void nothing;
} else {
  const code: 'invalid_quantity' | 'vat_rate_invalid' | 'invalid_amount' | 'payment_exceeds_due' = payCheck.code;
  void code;
}
const closeCheck = core.canClose(lines, payments);
if (!closeCheck.ok) {
  // @ts-expect-error closing never fails with payment_exceeds_due
  const wrong: 'payment_exceeds_due' = closeCheck.code;
  void wrong;
}
const bucketOf = core.payableBucket('2026-02-01', '2026-01-29');
if (bucketOf.ok) {
  const key: PayableBucket = bucketOf.value;
  void key;
}
const groups = core.groupPayables([{ expenseId: 'e1', dueDate: '2026-02-01', amountMinor: 100 }], '2026-01-29');
if (groups.ok) {
  const group: PayableGroup | undefined = groups.value[0];
  const total: number | undefined = group?.totalMinor;
  void total;
}
const income = core.validateIncome({ businessDate: '2026-03-10', channel: 'dine-in', grossMinor: 100 }, '2026-03-10');
if (income.ok) {
  const row: IncomeRow = income.value;
  const diff: number | null = row.zReportDiffMinor;
  void diff;
}
void core.validateIncome(
  { businessDate: '2026-03-10', channel: 'bar', grossMinor: 100, commissionMinor: 5, zReportMinor: null },
  '2026-03-10',
);
const shift = core.countShiftCash(20000, [{ method: 'cash', amountMinor: 4500 }], 24000);
if (shift.ok) {
  const count: ShiftCashCount = shift.value;
  const difference: number = count.differenceMinor;
  void difference;
}
const imported = core.parseExpenseCsv('accrualDate,category\n');
if (imported.ok) {
  const value: ExpenseCsvImport = imported.value;
  const vendor: string | null | undefined = value.rows[0]?.vendor;
  const column: string | undefined = value.errors[0]?.column;
  void vendor, column;
} else {
  const code: 'invalid_csv' | 'invalid_csv_header' = imported.code;
  void code;
}

// Status-page rules.
const signature: string = core.signWebhook('{"event":"incident.updated"}', 'mt_3kQ9');
void core.signWebhook(new Uint8Array([1, 2]), new TextEncoder().encode('mt_3kQ9'));
const verified = core.verifyWebhookSignature(signature, new Uint8Array(), 'mt_3kQ9');
if (verified.ok) {
  const nothing: null = verified.value;
  void nothing;
} else {
  const code: 'malformed_signature' | 'invalid_signature' = verified.code;
  void code;
}
const checkStatuses: readonly CheckStatus[] = ['operational', 'no-data'];
const component = core.componentStatus(checkStatuses, false);
if (component.ok) {
  const value: ComponentStatus = component.value;
  void value;
} else {
  const code: 'invalid_status' = component.code;
  void code;
}
const page = core.pageStatus(['maintenance', 'down']);
if (page.ok) {
  const value: ComponentStatus = page.value;
  void value;
}
const settings: CheckSettings = { method: 'HEAD', intervalSeconds: 30, timeoutMs: null };
const outcome: ProbeOutcome = { transport: 'response', httpStatus: 200, latencyMs: 12, bodyContainsExpected: true };
const probe = core.classifyProbe(settings, outcome);
if (probe.ok) {
  const value: ProbeVerdict = probe.value;
  const reason: ProbeReason = value.reason;
  const status: 'operational' | 'degraded' | 'down' = value.status;
  void reason, status;
} else {
  const code: 'invalid_method' | 'invalid_interval' | 'invalid_status_range' | 'invalid_timeout' | 'invalid_degraded_latency' | 'invalid_expected_body' | 'invalid_probe_outcome' = probe.code;
  void code;
}
void core.classifyProbe({}, { transport: 'timeout', latencyMs: 10000 });
const maintenanceWindow: MaintenanceWindow = { scheduledStartMs: 0, endMs: 1, startedAtMs: null };
const maintenance = core.maintenanceState(maintenanceWindow, Date.now());
if (maintenance.ok) {
  const value: MaintenanceState = maintenance.value;
  void value;
} else {
  const code: 'invalid_timestamp' = maintenance.code;
  void code;
}
// @ts-expect-error a window needs its planned end
core.maintenanceState({ scheduledStartMs: 0 }, 0);
// @ts-expect-error nowMs is a number of Unix ms, not a Date
core.maintenanceState(maintenanceWindow, new Date());

// @ts-expect-error a webhook body is a string or bytes, not a parsed object
core.signWebhook({ event: 'x' }, 'mt_3kQ9');
// @ts-expect-error the header value is a string
core.verifyWebhookSignature(null, '', 'mt_3kQ9');
// @ts-expect-error maintenance is not a check status
core.componentStatus(['maintenance'], false);
// @ts-expect-error inMaintenance is required
core.componentStatus(['down']);
// @ts-expect-error no_data is spelled no-data
core.pageStatus(['no_data']);
// @ts-expect-error methods are GET, POST or HEAD
core.classifyProbe({ method: 'PUT' }, outcome);
// @ts-expect-error an outcome needs its latency
core.classifyProbe({}, { transport: 'response', httpStatus: 200 });
// @ts-expect-error transports are response, timeout or error
core.classifyProbe({}, { transport: 'dns', latencyMs: 1 });

// @ts-expect-error isVatDeductible is a boolean
core.expenseAmounts(100, 2000, 'yes');
// @ts-expect-error an order line needs its name
core.orderTotals([{ lineId: 'l', productId: 'p', unitPriceMinor: 1, quantity: 1, vatRateBps: 0 }]);
// @ts-expect-error a payment needs an id and a method
core.canPay(lines, payments, { amountMinor: 100 });
// @ts-expect-error payments are required
core.canClose(lines);
// @ts-expect-error shift payments carry amounts as numbers
core.countShiftCash(0, [{ method: 'cash', amountMinor: '5' }], 0);
// @ts-expect-error zReportMinor is a number or null
core.validateIncome({ businessDate: '2026-03-10', channel: 'x', grossMinor: 1, zReportMinor: '5' }, '2026-03-10');

// @ts-expect-error a secret is a string or bytes
core.verifyJwtHs256('a.b.c', 42);
// @ts-expect-error a JWK Set is an object with keys, not an array
core.verifyJwtRs256('a.b.c', [{ kty: 'RSA' }]);
// @ts-expect-error a JWK needs kty
core.jwkThumbprint({ n: 'x' });
// @ts-expect-error amounts are numbers, not strings
core.vatSplit('100', 2000);
// @ts-expect-error roles are owner, admin or member
core.allows('boss', [], 'domains.view');
// @ts-expect-error granted is an array of strings
core.allows('member', [1], 'domains.view');
// @ts-expect-error unknown token kind
core.makeToken('api_key');
// @ts-expect-error no such function
core.vatSplitFast(1, 2);
// @ts-expect-error wasmDir is a path string
await loadPlatformCore({ wasmDir: 42 });

// Mail templates.
const info = core.compileTemplate('Hi {name}');
if (info.ok) {
  const infoValue: TemplateInfo = info.value;
  const firstSection: string | undefined = infoValue.sectionFields[0]?.section;
  void firstSection;
} else {
  const syntaxCode: TemplateSyntaxErrorCode = info.code;
  const at: number = info.offset;
  void syntaxCode;
  void at;
}
const rendered = core.renderTemplate('Hi {name}', { name: 'Ali', items: [{ qty: 1 }] }, 'none');
if (rendered.ok) {
  const html: string = rendered.value;
  void html;
} else if (rendered.code === 'missing_variables') {
  const names: string[] = rendered.missing;
  void names;
}
const missingNames = core.missingVariables('{a}', '{"a":1}');
if (missingNames.ok) {
  const list: string[] = missingNames.value;
  void list;
}
const picked = core.pickLocalized({ en: 'a', tr: 'b' }, 'tr');
if (picked.ok) {
  const entry: PickedLocale = picked.value;
  void entry;
}
// @ts-expect-error escaping is 'html' or 'none'
core.renderTemplate('x', {}, 'text');
// @ts-expect-error a LocalizedString's values are strings
core.pickLocalized({ en: 1 }, 'en');
