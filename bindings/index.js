// @platform/core: the platform's core rules (VAT split, business dates, permissions, tokens, JWT
// verification, PKCE) and the restaurant rules (expense amounts, order totals and payments, payables, income
// rows, shift cash counts, the expense CSV import) and the status-page rules (webhook signatures, component
// and page status, probe verdicts, maintenance states) and the mail template engine (compile, render,
// variables, missing variables, LocalizedString) compiled to WebAssembly from the same C++ as the servers, for node and the
// browser.
//
//   import { loadPlatformCore } from '@platform/core';
//   const core = await loadPlatformCore();
//   core.vatSplit(11800, 1800);  // { ok: true, value: { grossMinor: 11800, netMinor: 10000, vatMinor: 1800 } }
//
// Errors (see index.d.ts):
// - A value the core refuses (a VAT rate of 20000 bps, a date like 2026-02-30) is an expected failure: the
//   function answers `{ ok: false, code, message }` with the core's stable error code. Nothing is thrown.
// - An argument of the wrong JavaScript type (a string where a number belongs) is a programming error: the
//   function throws a TypeError before calling into the module.
// - Structured arguments (order lines, payments, payables, an income row) are arrays of plain objects. Each
//   member is type-checked here (a TypeError names it, as `lines[1].quantity`) and copied into a fresh object
//   with only the documented members, which the module reads member by member (no JSON text crosses, so a
//   number reaches the core exactly as given).
//
// Where the compiled module (platform_core.mjs + platform_core.wasm) is found:
// - node: `options.wasmDir`, else the environment variable PLATFORM_WASM_DIR (a relative path is taken from
//   the current directory), else `../build/wasm/wasm/` next to this file: the output folder of the
//   repository's wasm build.
// - browser: `options.wasmUrl`, else `../wasm/` relative to this file's URL (the edge serves the bindings at
//   /web/bindings/ and the wasm build at /web/wasm/).

const MODULE_FILE = 'platform_core.mjs';
const WASM_FILE = 'platform_core.wasm';

const isNode = typeof process === 'object' && typeof process.versions?.node === 'string';

// One uniformly random unsigned 32-bit integer: libsodium's random source inside the module.
function getRandomValue() {
  return globalThis.crypto.getRandomValues(new Uint32Array(1))[0];
}

async function instantiateInNode(wasmDir) {
  const [{ readFile }, path, { fileURLToPath, pathToFileURL }] = await Promise.all([
    import('node:fs/promises'),
    import('node:path'),
    import('node:url'),
  ]);
  const dir = wasmDir.startsWith('file:') ? fileURLToPath(wasmDir) : path.resolve(wasmDir);
  try {
    const [factory, wasmBinary] = await Promise.all([
      import(pathToFileURL(path.join(dir, MODULE_FILE)).href).then((m) => m.default),
      readFile(path.join(dir, WASM_FILE)),
    ]);
    return await factory({ wasmBinary, getRandomValue });
  } catch (error) {
    throw new Error(`@platform/core: cannot load ${MODULE_FILE} and ${WASM_FILE} from ${dir}: ${error}`, {
      cause: error,
    });
  }
}

async function instantiateInBrowser(wasmUrl) {
  const base = new URL(wasmUrl, import.meta.url);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  try {
    const { default: factory } = await import(new URL(MODULE_FILE, base).href);
    return await factory({ locateFile: (file) => new URL(file, base).href, getRandomValue });
  } catch (error) {
    throw new Error(`@platform/core: cannot load ${MODULE_FILE} from ${base}: ${error}`, { cause: error });
  }
}

function requireType(value, type, name) {
  if (typeof value !== type) {
    throw new TypeError(`${name} must be a ${type}, got ${value === null ? 'null' : typeof value}`);
  }
}

// A JSON object argument may come as its text or as a plain object, which is stringified here.
function jsonText(value, name) {
  if (typeof value === 'string') return value;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return JSON.stringify(value);
  throw new TypeError(`${name} must be a JSON string or an object, got ${value === null ? 'null' : typeof value}`);
}

function requireStringArray(value, name) {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw new TypeError(`${name} must be an array of strings`);
  }
}

// A member's type: 'string', 'number', 'boolean', or with a `?` ('number?', 'string?', 'boolean?') a value
// that may be null or absent (copied as null). `defaults` holds the values of members that may be absent
// (undefined).
function checkedRecord(value, shape, name, defaults = {}) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const got = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
    throw new TypeError(`${name} must be an object, got ${got}`);
  }
  const copy = {};
  for (const [member, type] of Object.entries(shape)) {
    const item = value[member] === undefined && member in defaults ? defaults[member] : value[member];
    const optional = type.endsWith('?');
    if (optional && (item === null || item === undefined)) {
      copy[member] = null;
      continue;
    }
    requireType(item, optional ? type.slice(0, -1) : type, `${name}.${member}`);
    copy[member] = item;
  }
  return copy;
}

// Bytes to sign or verify: a string is taken as its UTF-8 encoding by TextEncoder, the bytes fetch() and
// Buffer.from() send (a lone surrogate becomes U+FFFD); a Uint8Array (a Buffer too) is used as it is.
const utf8 = new TextEncoder();
function bytesOf(value, name) {
  if (typeof value === 'string') return utf8.encode(value);
  if (value instanceof Uint8Array) return value;
  throw new TypeError(`${name} must be a string or a Uint8Array, got ${value === null ? 'null' : typeof value}`);
}

function checkedRecords(value, shape, name) {
  if (!Array.isArray(value)) {
    throw new TypeError(`${name} must be an array, got ${value === null ? 'null' : typeof value}`);
  }
  return value.map((item, index) => checkedRecord(item, shape, `${name}[${index}]`));
}

const ORDER_LINE = {
  lineId: 'string',
  productId: 'string',
  name: 'string',
  unitPriceMinor: 'number',
  quantity: 'number',
  vatRateBps: 'number',
};
const MENU_PRODUCT = { id: 'string', name: 'string', priceMinor: 'number', vatRateBps: 'number', active: 'boolean' };
const MENU_OPTION_GROUP = { id: 'string', name: 'string', minSelect: 'number', maxSelect: 'number' };
const MENU_OPTION = { id: 'string', name: 'string', priceDeltaMinor: 'number' };
const PAYMENT = { paymentId: 'string', amountMinor: 'number', method: 'string' };
const PAYABLE = { expenseId: 'string', dueDate: 'string', amountMinor: 'number' };
const INCOME = {
  businessDate: 'string',
  channel: 'string',
  grossMinor: 'number',
  commissionMinor: 'number',
  zReportMinor: 'number?',
};
const SHIFT_PAYMENT = { method: 'string', amountMinor: 'number' };
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

// The public API over the raw embind module: argument type checks, then a straight call.
function wrap(wasm) {
  return Object.freeze({
    vatSplit(grossMinor, vatRateBps) {
      requireType(grossMinor, 'number', 'grossMinor');
      requireType(vatRateBps, 'number', 'vatRateBps');
      return wasm.vatSplit(grossMinor, vatRateBps);
    },
    businessDate(localDateTime, dayCutoffHour = 4) {
      requireType(localDateTime, 'string', 'localDateTime');
      requireType(dayCutoffHour, 'number', 'dayCutoffHour');
      return wasm.businessDate(localDateTime, dayCutoffHour);
    },
    addDays(dayKey, days) {
      requireType(dayKey, 'string', 'dayKey');
      requireType(days, 'number', 'days');
      return wasm.addDays(dayKey, days);
    },
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

    // Restaurant rules (core/restaurant/, wasm/restaurant_module.cpp).
    expenseAmounts(grossMinor, vatRateBps, isVatDeductible) {
      requireType(grossMinor, 'number', 'grossMinor');
      requireType(vatRateBps, 'number', 'vatRateBps');
      requireType(isVatDeductible, 'boolean', 'isVatDeductible');
      return wasm.expenseAmounts(grossMinor, vatRateBps, isVatDeductible);
    },
    priceItem(product, optionGroups, optionIds) {
      const checkedProduct = checkedRecord(product, MENU_PRODUCT, 'product', { active: true });
      if (!Array.isArray(optionGroups)) throw new TypeError('optionGroups must be an array');
      const checkedGroups = optionGroups.map((group, index) => {
        const copy = checkedRecord(group, MENU_OPTION_GROUP, `optionGroups[${index}]`, { minSelect: 0, maxSelect: 1 });
        copy.options = checkedRecords(group.options, MENU_OPTION, `optionGroups[${index}].options`);
        return copy;
      });
      requireStringArray(optionIds, 'optionIds');
      return wasm.priceItem(checkedProduct, checkedGroups, optionIds);
    },
    orderTotals(lines) {
      return wasm.orderTotals(checkedRecords(lines, ORDER_LINE, 'lines'));
    },
    orderBalance(lines, payments) {
      const checkedLines = checkedRecords(lines, ORDER_LINE, 'lines');
      return wasm.orderBalance(checkedLines, checkedRecords(payments, PAYMENT, 'payments'));
    },
    canPay(lines, payments, newPayment) {
      const checkedLines = checkedRecords(lines, ORDER_LINE, 'lines');
      const checkedPayments = checkedRecords(payments, PAYMENT, 'payments');
      return wasm.canPay(checkedLines, checkedPayments, checkedRecord(newPayment, PAYMENT, 'newPayment'));
    },
    canClose(lines, payments) {
      const checkedLines = checkedRecords(lines, ORDER_LINE, 'lines');
      return wasm.canClose(checkedLines, checkedRecords(payments, PAYMENT, 'payments'));
    },
    payableBucket(dueDate, today) {
      requireType(dueDate, 'string', 'dueDate');
      requireType(today, 'string', 'today');
      return wasm.payableBucket(dueDate, today);
    },
    groupPayables(payables, today) {
      const checked = checkedRecords(payables, PAYABLE, 'payables');
      requireType(today, 'string', 'today');
      return wasm.groupPayables(checked, today);
    },
    validateIncome(row, currentBusinessDate) {
      const checked = checkedRecord(row, INCOME, 'row', { commissionMinor: 0 });
      requireType(currentBusinessDate, 'string', 'currentBusinessDate');
      return wasm.validateIncome(checked, currentBusinessDate);
    },
    countShiftCash(openingFloatMinor, payments, countedCashMinor) {
      requireType(openingFloatMinor, 'number', 'openingFloatMinor');
      const checked = checkedRecords(payments, SHIFT_PAYMENT, 'payments');
      requireType(countedCashMinor, 'number', 'countedCashMinor');
      return wasm.countShiftCash(openingFloatMinor, checked, countedCashMinor);
    },
    parseExpenseCsv(text) {
      requireType(text, 'string', 'text');
      return wasm.parseExpenseCsv(text);
    },

    // Status-page rules (core/status/, wasm/status_module.cpp).
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

    // Mail templates (core/mail/, wasm/mail_module.cpp). Each call compiles the text again (no handle to
    // free); `variables` is an object or its JSON text, as a send call's `variables`.
    compileTemplate(text) {
      requireType(text, 'string', 'text');
      return wasm.compileTemplate(text);
    },
    templateVariables(text) {
      requireType(text, 'string', 'text');
      const compiled = wasm.compileTemplate(text);
      return compiled.ok ? { ok: true, value: compiled.value.variables } : compiled;
    },
    renderTemplate(text, variables, escaping = 'html') {
      requireType(text, 'string', 'text');
      if (escaping !== 'html' && escaping !== 'none') {
        throw new TypeError(`escaping must be 'html' or 'none', got ${JSON.stringify(escaping)}`);
      }
      return wasm.renderTemplate(text, jsonText(variables, 'variables'), escaping === 'html');
    },
    missingVariables(text, variables) {
      requireType(text, 'string', 'text');
      return wasm.missingVariables(text, jsonText(variables, 'variables'));
    },
    pickLocalized(localized, locale) {
      requireType(locale, 'string', 'locale');
      if (typeof localized !== 'string' && (localized === null || typeof localized !== 'object' || Array.isArray(localized))) {
        throw new TypeError(`localized must be a string or an object, got ${localized === null ? 'null' : typeof localized}`);
      }
      return wasm.pickLocalized(JSON.stringify(localized), locale);
    },
  });
}

const loaded = new Map();

// Loads the core API, once per location: the wasm module is compiled on the first call and shared after.
// Rejects with an Error naming the location when the module files cannot be read or compiled (a later call
// tries again).
export function loadPlatformCore(options = {}) {
  const location = isNode
    ? options.wasmDir ?? process.env.PLATFORM_WASM_DIR ?? new URL('../build/wasm/wasm/', import.meta.url).href
    : String(options.wasmUrl ?? '../wasm/');
  if (!loaded.has(location)) {
    const instance = isNode ? instantiateInNode(location) : instantiateInBrowser(location);
    const api = instance.then(wrap);
    api.catch(() => loaded.delete(location));
    loaded.set(location, api);
  }
  return loaded.get(location);
}

export default loadPlatformCore;
