// What the till's browser tests and its benchmark share (tests/browser/till*.test.mjs,
// bench/till_first_screen.mjs): an edge serving this checkout's web/ and bindings/ with the wasm build, a
// company with an owner and a restaurant (two branches, tables, a menu with an option group), a Chromium
// profile, pairing the till through its own screens, and the steps of an order on the till.
import assert from 'node:assert/strict';
import path from 'node:path';

import { chromium } from 'playwright-core';

import { chromiumBin, chromiumFlags, edgeAdmin, fetchClosing, repo, startEdge } from '../support/edge.mjs';

export const SLUG = 'lokanta';
export const EMAIL = 'selin@lokanta.test';
export const PASSWORD = 'correct horse battery staple';
export const wasmRoot = path.resolve(repo, process.env.PLATFORM_WASM_DIR ?? 'build/wasm/wasm');
export const TILL = '/web/till/index.html';

// Starts edge on a fresh data directory with a company, its owner (who signs in) and an owner-side access
// token for the API checks. Answers {edge, base, dataDir, api}.
export async function startTillEdge(tmp, { args = [] } = {}) {
  const dataDir = path.join(tmp, 'data');
  await edgeAdmin(dataDir, ['company', 'create', '--slug', SLUG, '--name', 'Lokanta Ltd.']);
  await edgeAdmin(dataDir, ['user', 'create', '--email', EMAIL, '--name', 'Selin Aydın', '--password-stdin'], { input: `${PASSWORD}\n` });
  await edgeAdmin(dataDir, ['member', 'add', '--company', SLUG, '--email', EMAIL, '--role', 'owner']);
  const { token } = await edgeAdmin(dataDir, [
    'token', 'create', '--company', SLUG, '--name', 'till tests', '--permission', 'restaurant.manage', '--permission', 'api-keys.manage',
  ]);
  const edge = await startEdge({
    dataDir,
    workDir: tmp,
    args: ['--web-root', path.join(repo, 'web'), '--bindings-root', path.join(repo, 'bindings'), '--wasm-root', wasmRoot, ...args],
  });
  return { edge, base: edge.baseUrl, dataDir, api: apiClient(edge.baseUrl, token) };
}

// The API as a back office calls it: `api(method, path, body)` under /api/restaurant/companies/{slug}
// (or a path starting with /api/ as it is). Answers {status, data, error, message, body, total}.
export function apiClient(base, token) {
  return async (method, route, body) => {
    const url = route.startsWith('/api/') ? `${base}${route}` : `${base}/api/restaurant/companies/${SLUG}${route}`;
    const response = await fetchClosing(url, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = await response.json().catch(() => null);
    const total = response.headers.get('x-total-count');
    return { status: response.status, data: json?.data ?? null, error: json?.error ?? null, message: json?.message, body: json, total: total === null ? null : Number(total) };
  };
}

async function created(api, route, body) {
  const answer = await api('POST', route, body);
  assert.equal(answer.status, 201, `POST ${route}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.data;
}

// Two branches (the till is paired to the first), its tables, two categories, a side-dish option group and
// four products.
export async function seedRestaurant(api) {
  const branch = await created(api, '/branches', { name: 'Moda', order: 1 });
  const other = await created(api, '/branches', { name: 'Cihangir', order: 2 });
  const tables = {};
  for (const name of ['T1', 'T2', 'T3', 'Garden 1']) tables[name] = await created(api, '/tables', { branchId: branch.id, name });
  await created(api, '/tables', { branchId: other.id, name: 'Bar 1' });
  const food = await created(api, '/categories', { name: 'Food' });
  const drinks = await created(api, '/categories', { name: 'Drinks' });
  const side = await created(api, '/option-groups', {
    name: 'Side',
    minSelect: 0,
    maxSelect: 1,
    options: [{ name: 'Fries', priceDeltaMinor: 4000 }, { name: 'Salad', priceDeltaMinor: 3500 }],
  });
  const [fries, salad] = side.options;
  const products = {
    burger: await created(api, '/products', { name: 'Bistro burger', priceMinor: 32000, vatRateBps: 1000, categoryId: food.id, optionGroupIds: [side.id] }),
    fish: await created(api, '/products', { name: 'Grilled sea bass', priceMinor: 48000, vatRateBps: 1000, categoryId: food.id }),
    lemonade: await created(api, '/products', { name: 'Lemonade', priceMinor: 9000, vatRateBps: 1000, categoryId: drinks.id }),
    raki: await created(api, '/products', { name: 'Raki (glass)', priceMinor: 22000, vatRateBps: 2000, categoryId: drinks.id }),
  };
  return { branch, other, tables, side, fries, salad, products };
}

// A Chromium profile (persistent: IndexedDB, the service worker and the session survive a close).
// `problems` collects page errors and console errors (refused and offline requests are expected here).
export async function launchTill(profileDir, { viewport = { width: 1280, height: 800 }, locale = 'en-GB', problems = [] } = {}) {
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: chromiumBin,
    headless: true,
    args: chromiumFlags,
    viewport,
    locale,
    timezoneId: 'Europe/Istanbul',
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(20_000);
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(`console error: ${message.text()}`);
  });
  return { context, page, problems };
}

export async function tillReady(page) {
  await page.waitForSelector('html[data-ready="true"]');
}

// Pairs the till of `page` through its screens: sign in as the owner, choose the branch, name the device.
export async function pairTill(page, base, { branchName, deviceName }) {
  await page.goto(`${base}${TILL}`);
  await tillReady(page);
  await page.click('[data-action="sign-in"]');
  await page.waitForURL(/\/login/);
  await page.fill('#email', EMAIL);
  await page.fill('#password', PASSWORD);
  await Promise.all([page.waitForURL(`${base}${TILL}`), page.click('button[type="submit"]')]);
  await page.waitForSelector('#pair-form');
  await page.waitForFunction(() => document.querySelector('#pair-form select[name="branch"]').options.length > 1);
  await page.selectOption('#pair-form select[name="branch"]', { label: branchName });
  await page.fill('#pair-form input[name="deviceName"]', deviceName);
  await page.click('#pair-form [data-role="submit"]');
  await page.waitForSelector('section[data-screen="tables"] .table-grid');
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

// Opens a screen from the bar (tables, orders, sync, settings).
export async function go(page, screen) {
  await page.click(`.till-tab[data-screen="${screen}"]`);
  await page.waitForSelector(`section[data-screen="${screen}"]`);
}

// The till's queue is empty (every action acknowledged by the server).
export async function waitSynced(page, timeout = 30_000) {
  await page.waitForSelector('.till-pending[data-pending="0"]', { timeout });
}

export const pendingCount = async (page) => Number(await page.getAttribute('.till-pending', 'data-pending'));

export async function lineCount(page) {
  return page.locator('.ticket-line').count();
}

// Taps a product; for one with options picks `options` (ids) and the quantity in the picker.
export async function addProduct(page, product, { options = [], quantity = 1 } = {}) {
  const before = await lineCount(page);
  await page.click(`.product-button[data-product="${product.id}"]`);
  if (product.optionGroupIds?.length) {
    await page.waitForSelector('dialog[open].options-dialog');
    for (const id of options) await page.click(`dialog[open] input[data-option="${id}"]`);
    for (let i = 1; i < quantity; i += 1) await page.click('dialog[open] [data-action="more"]');
    await page.click('dialog[open] [data-action="add"]');
  }
  await page.waitForFunction((n) => document.querySelectorAll('.ticket-line').length === n + 1, before);
}

export async function removeLine(page, productId) {
  const before = await lineCount(page);
  await page.click(`.ticket-line[data-product="${productId}"] [data-action="remove-line"]`);
  await page.click('dialog[open] [data-action="confirm"]');
  await page.waitForFunction((n) => document.querySelectorAll('.ticket-line').length === n - 1, before);
}

// Takes a payment on the keypad: `amount` as the digits typed (minor units), or 'exact'.
export async function takePayment(page, method, amount) {
  const payments = await page.locator('.ticket-total-row.is-payment').count();
  await page.click(`[data-action="pay-${method}"]`);
  await page.waitForSelector('dialog[open].pay-dialog');
  if (amount === 'exact') await page.click('dialog[open] [data-action="exact"]');
  else for (const key of String(amount)) await page.click(`dialog[open] .keypad-key[data-key="${key}"]`);
  await page.click('dialog[open] [data-action="pay"]');
  await page.waitForFunction((n) => document.querySelectorAll('.ticket-total-row.is-payment').length === n + 1, payments);
}

export async function closeOrder(page) {
  await page.click('[data-action="close"]');
  await page.waitForSelector('section[data-screen="tables"]');
}

// The figures the till shows for the open order: totals and each line's product, gross and VAT (minor units).
export async function ticketFigures(page) {
  return page.evaluate(() => {
    const minor = (selector) => Number(document.querySelector(selector)?.dataset.minor);
    return {
      clientOrderId: document.querySelector('.order-screen').dataset.order,
      grossMinor: minor('[data-total="gross"]'),
      netMinor: minor('[data-total="net"]'),
      vatMinor: minor('[data-total="vat"]'),
      dueMinor: minor('[data-total="due"]'),
      lines: [...document.querySelectorAll('.ticket-line')].map((line) => ({
        productId: line.dataset.product,
        lineId: line.dataset.lineId,
        grossMinor: Number(line.querySelector('[data-role="line-gross"]').dataset.minor),
        vatMinor: Number(line.querySelector('[data-role="line-vat"]').dataset.minor),
      })),
    };
  });
}
