// The offline till (web/till/, docs/till.md) served by a real edge and driven in Chromium through
// playwright-core: pairing through its own screens (a branch-limited device token), a full order online,
// the same offline (context.setOffline) with a reload from the service worker and the refusals while
// unsynced, requests that reach the server but lose their answer (create, line, payment), the browser closed
// while offline and opened again on the same profile, two tills racing on one order (invalid_version and
// the rebase), Turkish and a tablet in portrait, and unpairing. After each scenario the server's state is
// read through the API with an owner token: one order per clientOrderId, its lines, payments, totals equal
// to what the till showed, and (at the end) the payment ledger holding every payment exactly once.
// Screenshots: build/screenshots/till_*.png.
//
// Needs: the native build (EDGE_BIN), the wasm build (PLATFORM_WASM_DIR, default build/wasm/wasm),
// `npm ci` (playwright-core) and /usr/bin/chromium.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { assertBinaries, makeTempDir, removeTempDir, repo, screenshots, stopEdgeCleanly } from '../support/edge.mjs';
import {
  EMAIL,
  PASSWORD,
  TILL,
  addProduct,
  closeOrder,
  go,
  launchTill,
  pairTill,
  pendingCount,
  removeLine,
  seedRestaurant,
  startTillEdge,
  takePayment,
  ticketFigures,
  tillReady,
  waitSynced,
} from './till_support.mjs';

let tmp;
let edge;
let base;
let api;
let menu;
let tillA; // {context, page, problems}: the front counter, profile A
let tillB; // the bar, profile B (the race)
const profileA = () => path.join(tmp, 'profile-a');
const payments = { count: 0, sum: 0 }; // every payment the tills took, for the ledger check
let lastNumber = 0; // the number of the last order the tills created

async function shot(page, name) {
  await mkdir(screenshots, { recursive: true });
  await page.waitForTimeout(200);
  const file = path.join(screenshots, `till_${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  assert.ok(existsSync(file));
}

const serverOrder = async (id) => {
  const answer = await api('GET', `/orders/${id}`);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.data;
};

// The create request the till made, sent again: the idempotency record answers 200 with the one order of
// this clientOrderId (a second order would have a record of its own and a new number).
async function replayCreate(order) {
  const answer = await api('POST', '/orders', { branchId: order.branchId, tableId: order.tableId, clientOrderId: order.clientOrderId, items: [] });
  assert.equal(answer.status, 200, `replay answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  assert.equal(answer.data.id, order.id);
  assert.equal(answer.data.number, order.number);
  return answer.data;
}

async function onBoard(clientOrderId) {
  const board = await api('GET', `/orders/board?branchId=${menu.branch.id}&limit=200`);
  assert.equal(board.status, 200);
  return board.data.find((o) => o.clientOrderId === clientOrderId) ?? null;
}

// The till's own copy of an order (model.js view), read from the page.
function tillOrder(page, clientOrderId) {
  return page.evaluate((id) => {
    const o = window.till.order(id);
    return o && { orderId: o.orderId, number: o.number, status: o.status, pending: o.pending.length, grossMinor: o.totals.grossMinor, vatMinor: o.totals.vatMinor, lines: o.lines.map((l) => ({ lineId: l.lineId, vatMinor: l.totals.vatMinor })) };
  }, clientOrderId);
}

// The server's order equals what the till shows: totals, VAT, and each line's VAT (lines in order).
function assertSameFigures(server, figures) {
  assert.equal(server.grossMinor, figures.grossMinor, 'gross');
  assert.equal(server.vatMinor, figures.vatMinor, 'VAT');
  assert.equal(server.netMinor, figures.netMinor, 'net');
  assert.deepEqual(
    server.items.map((i) => ({ productId: i.productId, grossMinor: i.grossMinor, vatMinor: i.vatMinor })),
    figures.lines.map((l) => ({ productId: l.productId, grossMinor: l.grossMinor, vatMinor: l.vatMinor })),
  );
}

async function openNewOrder(page, tableId) {
  await page.click(`.table-tile[data-table="${tableId}"]`);
  await page.waitForSelector('.order-screen [data-status="draft"]');
}

before(async () => {
  assertBinaries();
  tmp = await makeTempDir('till-');
  ({ edge, base, api } = await startTillEdge(tmp));
  menu = await seedRestaurant(api);
});

after(async () => {
  await tillA?.context.close().catch(() => {});
  await tillB?.context.close().catch(() => {});
  await stopEdgeCleanly(edge);
  await removeTempDir(tmp);
});

describe('offline till', { timeout: 600_000 }, () => {
  test('the service worker precaches every file of the till, index.html preloads the first screen', async () => {
    const sw = await readFile(path.join(repo, 'web/till/sw.js'), 'utf8');
    const listed = new Set([...sw.matchAll(/'(\/web\/[^']+)'/g)].map((m) => m[1]));
    const files = [];
    for (const dir of ['', 'views/']) {
      for (const name of await readdir(path.join(repo, 'web/till', dir))) if (/\.(js|html|css)$/.test(name)) files.push(`/web/till/${dir}${name}`);
    }
    for (const file of files.filter((f) => !f.endsWith('/sw.js'))) assert.ok(listed.has(file), `${file} is missing from sw.js's SHELL list`);
    // index.html preloads every module of the first screen (all but the board's) and the wasm core.
    const html = await readFile(path.join(repo, 'web/till/index.html'), 'utf8');
    const preloaded = new Set([...html.matchAll(/<link rel="(?:modulepreload|preload)" href="([^"]+)"/g)].map((m) => m[1]));
    const wanted = [...listed].filter((f) => /\.(js|mjs|wasm)$/.test(f) && !/\/(board|sse)\.js$/.test(f));
    assert.deepEqual(wanted.filter((f) => !preloaded.has(f)), []);
    assert.deepEqual([...preloaded].filter((f) => !listed.has(f)), []);
  });

  test('an unpaired till asks to sign in; the owner pairs it with a token limited to the branch', async () => {
    tillA = await launchTill(profileA());
    const { page } = tillA;
    await page.goto(`${base}${TILL}`);
    await tillReady(page);
    assert.equal(await page.locator('h1').first().textContent(), 'Pair this device');
    assert.ok(await page.locator('[data-role="signed-out"]').isVisible());
    assert.equal(await page.getAttribute('[data-action="sign-in"]', 'href'), `/login?next=${encodeURIComponent(TILL)}&ui_locales=en`);
    await shot(page, 'pair_signed_out');
    await pairTill(page, base, { branchName: 'Moda', deviceName: 'Front counter' });

    const tokens = await api('GET', `/api/companies/lokanta/access-tokens`);
    const token = tokens.data.find((t) => t.name === 'Till: Front counter');
    assert.ok(token, JSON.stringify(tokens.data));
    assert.deepEqual(token.permissions, [`restaurant.branch:${menu.branch.id}`]);
    const device = await page.evaluate(() => window.till.state.device);
    assert.equal(device.tokenId, token.id);
    assert.equal(device.branch.id, menu.branch.id);
    assert.match(device.token, /^stk_[0-9a-f]{48}$/);
    // The device's token sees its branch only.
    const other = await fetch(`${base}/api/restaurant/companies/lokanta/tables?branchId=${menu.other.id}`, { headers: { authorization: `Bearer ${device.token}` } });
    assert.deepEqual((await other.json()).data, []);
    const write = await fetch(`${base}/api/restaurant/companies/lokanta/orders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${device.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ branchId: menu.other.id, clientOrderId: 'elsewhere' }),
    });
    assert.equal(write.status, 403);
    // The menu and the branch's tables are on the device.
    assert.deepEqual(
      await page.locator('.table-tile[data-table] .table-tile-name').allTextContents(),
      ['Counter', 'Garden 1', 'T1', 'T2', 'T3'],
    );
    assert.ok((await page.evaluate(() => caches.keys())).includes('till-shell-v1'));
    await shot(page, 'tables');
  });

  test('a full order online: lines with options, a removed line, card and cash, close', async () => {
    const { page } = tillA;
    await openNewOrder(page, menu.tables.T1.id);
    await addProduct(page, menu.products.burger, { options: [menu.fries.id], quantity: 2 });
    await addProduct(page, menu.products.lemonade);
    await addProduct(page, menu.products.raki);
    await removeLine(page, menu.products.lemonade.id);
    await waitSynced(page);
    const figures = await ticketFigures(page);
    // (320 + 40) x 2 at 10% and 220 at 20%: VAT per line, rounded half up.
    assert.deepEqual(
      figures.lines.map((l) => [l.grossMinor, l.vatMinor]),
      [[72000, 6545], [22000, 3667]],
    );
    assert.equal(figures.grossMinor, 94000);
    assert.equal(figures.vatMinor, 10212);
    assert.equal(await page.textContent('.ticket-line[data-product] .ticket-line-options'), 'Fries');

    const local = await tillOrder(page, figures.clientOrderId);
    let server = await serverOrder(local.orderId);
    assert.equal(server.clientOrderId, figures.clientOrderId);
    assert.equal(server.tableId, menu.tables.T1.id);
    assertSameFigures(server, figures);
    assert.deepEqual(server.items[0].options.map((o) => o.optionId), [menu.fries.id]);
    assert.equal(server.items[0].quantity, 2);
    assert.deepEqual(figures.lines.map((l) => l.lineId), server.items.map((i) => i.lineId));
    assert.equal(server.version, 5); // create, three adds, one remove
    await shot(page, 'order');

    await takePayment(page, 'card', '40000');
    assert.equal(Number(await page.getAttribute('[data-total="due"]', 'data-minor')), 54000);
    await takePayment(page, 'cash', 'exact');
    assert.equal(Number(await page.getAttribute('[data-total="due"]', 'data-minor')), 0);
    await closeOrder(page);
    await waitSynced(page);
    server = await serverOrder(local.orderId);
    assert.equal(server.status, 'closed');
    assert.deepEqual(server.payments.map((p) => [p.method, p.amountMinor]), [['card', 40000], ['cash', 54000]]);
    assert.equal(server.paidMinor, 94000);
    assert.equal(server.dueMinor, 0);
    await replayCreate(server);
    payments.count += 2;
    payments.sum += 94000;
    lastNumber = server.number;
    assert.equal((await tillOrder(page, figures.clientOrderId)).status, 'closed');
  });

  test('offline: lines and payments are queued, the till reloads from its cache, unpairing is refused; online again the server holds exactly one order', async () => {
    const { page, context } = tillA;
    await context.setOffline(true);
    await page.waitForSelector('[data-connection="offline"]');
    await openNewOrder(page, menu.tables.T2.id);
    await addProduct(page, menu.products.lemonade);
    await addProduct(page, menu.products.raki);
    await takePayment(page, 'cash', '10000');
    assert.equal(await pendingCount(page), 4); // create, two lines, the payment
    assert.equal(Number(await page.getAttribute('[data-role="unsynced-money"]', 'data-minor')), 10000);
    const figures = await ticketFigures(page);
    assert.equal(figures.grossMinor, 31000);
    assert.equal(figures.dueMinor, 21000);
    assert.equal(await onBoard(figures.clientOrderId), null, 'nothing reached the server');
    await shot(page, 'offline_order');

    // Reloaded without a network: the service worker serves the till, IndexedDB still has the queue.
    await page.reload();
    await tillReady(page);
    assert.equal(await pendingCount(page), 4);
    assert.equal(await page.getAttribute('.order-screen', 'data-order'), figures.clientOrderId);
    assert.deepEqual(await ticketFigures(page), figures);

    // Unpairing and clearing are refused while anything is unsynced; the refusal names the money.
    await go(page, 'settings');
    await page.click('[data-action="unpair"]');
    const refusal = await page.textContent('[data-role="refusal"]');
    assert.match(refusal, /4 actions have not reached the server yet, including 100\.00 of payments/);
    await page.click('[data-action="clear"]');
    assert.match(await page.textContent('[data-role="refusal"]'), /4 actions/);
    assert.equal(await page.locator('dialog[open]').count(), 0);
    await shot(page, 'offline_refusal');

    // The sync screen lists the queue in order.
    await go(page, 'sync');
    assert.deepEqual(await page.locator('[data-role="queue"] tr[data-action]').evaluateAll((rows) => rows.map((r) => r.dataset.action)), ['create', 'addItem', 'addItem', 'pay']);
    assert.equal(await page.textContent('[data-role="pending-money"]'), '100.00');
    await shot(page, 'offline_sync');

    // Paid in full and closed, still offline.
    await page.goto(`${base}${TILL}#/order/${encodeURIComponent(figures.clientOrderId)}`);
    await tillReady(page);
    await takePayment(page, 'card', 'exact');
    await closeOrder(page);
    assert.equal(await pendingCount(page), 6);
    assert.equal(Number(await page.getAttribute('[data-role="unsynced-money"]', 'data-minor')), 31000);

    await context.setOffline(false);
    await waitSynced(page);
    assert.ok(await page.locator('.till-alert').isHidden());
    const local = await tillOrder(page, figures.clientOrderId);
    const server = await serverOrder(local.orderId);
    assert.equal(server.status, 'closed');
    assertSameFigures(server, figures);
    assert.deepEqual(server.payments.map((p) => [p.method, p.amountMinor]), [['cash', 10000], ['card', 21000]]);
    assert.equal(server.paidMinor, 31000);
    await replayCreate(server);
    assert.equal(server.number, lastNumber + 1);
    lastNumber = server.number;
    payments.count += 2;
    payments.sum += 31000;
  });

  test('requests that reach the server but lose their answer are sent again without duplicates', async () => {
    const { page, context } = tillA;
    const cut = []; // what the server answered to the requests whose answers the page never got
    const cutOnce = (method, pattern) => {
      let done = false;
      return async (route) => {
        const request = route.request();
        if (done || request.method() !== method || !pattern.test(new URL(request.url()).pathname)) return route.fallback();
        done = true;
        const response = await route.fetch();
        cut.push(`${response.status()} ${new URL(request.url()).pathname.replace(/.*\/orders/, '/orders')}`);
        await route.abort('connectionreset');
      };
    };
    const retried = [];
    const watch = (response) => {
      const request = response.request();
      if (request.method() === 'POST' && response.status() !== 201 && /\/orders(\/[^/]+\/(items|payments))?$/.test(request.url())) {
        retried.push(`${response.status()} POST ${new URL(response.url()).pathname.replace(/.*\/orders/, '/orders')}`);
      }
    };
    page.on('response', watch);
    await context.route('**/api/restaurant/**', cutOnce('POST', /\/orders$/));
    await context.route('**/api/restaurant/**', cutOnce('POST', /\/orders\/[^/]+\/items$/));
    await context.route('**/api/restaurant/**', cutOnce('POST', /\/orders\/[^/]+\/payments$/));
    await go(page, 'tables');
    await openNewOrder(page, menu.tables.T3.id);
    await addProduct(page, menu.products.fish);
    await waitSynced(page);
    await takePayment(page, 'card', 'exact');
    await waitSynced(page);
    const figures = await ticketFigures(page);
    await closeOrder(page);
    await waitSynced(page);
    await context.unrouteAll({ behavior: 'wait' });
    page.off('response', watch);
    const shape = (list) => list.map((c) => c.replace(/ord_[^/]+/, '{id}')).sort();
    assert.deepEqual(shape(cut), ['201 /orders', '201 /orders/{id}/items', '201 /orders/{id}/payments']);
    // The retries: the create and the payment replayed (200), the line met invalid_version and was adopted.
    assert.deepEqual(shape(retried), ['200 POST /orders', '200 POST /orders/{id}/payments', '409 POST /orders/{id}/items']);
    const local = await tillOrder(page, figures.clientOrderId);
    const server = await serverOrder(local.orderId);
    assert.equal(server.items.length, 1, 'the line was adopted, not added twice');
    assert.equal(server.payments.length, 1, 'the payment was replayed, not taken twice');
    assert.equal(server.status, 'closed');
    assertSameFigures(server, figures);
    assert.deepEqual(local.lines.map((l) => l.lineId), [server.items[0].lineId]);
    await replayCreate(server);
    assert.equal(server.number, lastNumber + 1, 'no order number was used twice');
    lastNumber = server.number;
    payments.count += 1;
    payments.sum += 48000;
  });

  test('the browser closed while offline sends its queue when opened again on the same profile', async () => {
    let { page, context } = tillA;
    await context.setOffline(true);
    await page.waitForSelector('[data-connection="offline"]');
    await page.click('.table-tile[data-table="counter"]');
    await page.waitForSelector('.order-screen [data-status="draft"]');
    await addProduct(page, menu.products.burger, { options: [menu.salad.id] });
    await takePayment(page, 'cash', 'exact');
    const figures = await ticketFigures(page);
    assert.equal(figures.grossMinor, 35500);
    await closeOrder(page);
    assert.equal(await pendingCount(page), 4);
    assert.equal(await onBoard(figures.clientOrderId), null);
    await context.close();

    tillA = await launchTill(profileA(), { problems: tillA.problems });
    ({ page, context } = tillA);
    await page.goto(`${base}${TILL}`);
    await tillReady(page);
    await waitSynced(page);
    const local = await tillOrder(page, figures.clientOrderId);
    assert.equal(local.status, 'closed');
    const server = await serverOrder(local.orderId);
    assert.equal(server.tableId, null);
    assert.equal(server.status, 'closed');
    assertSameFigures(server, figures);
    assert.deepEqual(server.items[0].options.map((o) => o.name), ['Salad']);
    assert.deepEqual(server.payments.map((p) => [p.method, p.amountMinor]), [['cash', 35500]]);
    await replayCreate(server);
    assert.equal(server.number, lastNumber + 1);
    lastNumber = server.number;
    payments.count += 1;
    payments.sum += 35500;
  });

  test('two tills on one order: the stale one gets invalid_version, rebases and shows what changed', async () => {
    const { page } = tillA;
    tillB = await launchTill(path.join(tmp, 'profile-b'));
    await pairTill(tillB.page, base, { branchName: 'Moda', deviceName: 'Bar' });
    const conflicts = [];
    tillB.page.on('response', (response) => {
      if (response.status() === 409) conflicts.push(`${response.request().method()} ${new URL(response.url()).pathname.replace(/.*\/orders/, '/orders')}`);
    });

    // Till A opens the order; till B learns of it from the server and opens it too.
    await go(page, 'tables');
    await openNewOrder(page, menu.tables['Garden 1'].id);
    await addProduct(page, menu.products.lemonade);
    await waitSynced(page);
    const { clientOrderId } = await ticketFigures(page);
    const b = tillB.page;
    await go(b, 'sync');
    await b.click('[data-action="sync-now"]');
    await go(b, 'tables');
    await b.click(`.table-tile[data-order="${clientOrderId}"]`);
    await b.waitForSelector(`.order-screen[data-order="${clientOrderId}"] .ticket-line[data-product="${menu.products.lemonade.id}"]`);

    // B adds a line while its network is down; meanwhile A adds one online.
    await tillB.context.setOffline(true);
    await addProduct(b, menu.products.raki);
    await addProduct(page, menu.products.burger);
    await waitSynced(page);
    await tillB.context.setOffline(false);
    await waitSynced(b);
    assert.deepEqual(conflicts.map((c) => c.replace(/ord_[^/]+/, '{id}')), ['POST /orders/{id}/items']);
    await b.waitForSelector('[data-notice="changedElsewhere"]');
    assert.match(await b.textContent('[data-notice="changedElsewhere"]'), /Changed on another device.*Added: 1 × Bistro burger\./s);
    await shot(b, 'conflict');

    const figuresB = await ticketFigures(b);
    const local = await tillOrder(b, clientOrderId);
    let server = await serverOrder(local.orderId);
    assert.deepEqual(server.items.map((i) => i.productId), [menu.products.lemonade.id, menu.products.burger.id, menu.products.raki.id]);
    assertSameFigures(server, figuresB);

    // A catches up on "Sync now"; B takes the payment and closes.
    await go(page, 'sync');
    await page.click('[data-action="sync-now"]');
    await page.goto(`${base}${TILL}#/order/${encodeURIComponent(clientOrderId)}`);
    await page.waitForFunction((n) => document.querySelectorAll('.ticket-line').length === n, 3);
    assert.deepEqual(await ticketFigures(page), figuresB);
    await b.click('[data-notice="changedElsewhere"] button');
    await takePayment(b, 'card', 'exact');
    await closeOrder(b);
    await waitSynced(b);
    server = await serverOrder(local.orderId);
    assert.equal(server.status, 'closed');
    assert.equal(server.paidMinor, 63000);
    await replayCreate(server);
    payments.count += 1;
    payments.sum += 63000;
  });

  test('a revoked token stops the sync with the queue intact; pairing again sends it', async () => {
    const { page, context } = tillA;
    await context.setOffline(true);
    await page.waitForSelector('[data-connection="offline"]');
    await go(page, 'tables');
    await openNewOrder(page, menu.tables.T2.id);
    await addProduct(page, menu.products.lemonade);
    await takePayment(page, 'cash', 'exact');
    const figures = await ticketFigures(page);
    assert.equal(await pendingCount(page), 3);
    const before = await page.evaluate(() => window.till.state.device);
    assert.equal((await api('DELETE', `/api/companies/lokanta/access-tokens/${before.tokenId}`)).status, 200);

    await context.setOffline(false);
    await page.waitForSelector('[data-connection="halted"]');
    assert.equal(await pendingCount(page), 3);
    await go(page, 'sync');
    assert.match(await page.textContent('[data-role="halted"]'), /no longer accepts this till’s token/);
    await shot(page, 'halted');
    await page.click('[data-role="halted"] [data-action="repair"]');
    await page.waitForSelector('section[data-mode="repair"] #pair-form, section[data-mode="repair"] [data-action="sign-in"]');
    if (await page.locator('[data-action="sign-in"]').count()) {
      // The session cookie did not outlive the browser closed in the test before.
      await page.click('[data-action="sign-in"]');
      await page.fill('#email', EMAIL);
      await page.fill('#password', PASSWORD);
      await Promise.all([page.waitForURL(`${base}${TILL}#/repair`), page.click('button[type="submit"]')]);
    }
    await page.waitForSelector('section[data-mode="repair"] #pair-form');
    await page.waitForFunction(() => document.querySelector('#pair-form select[name="branch"]').value !== '');
    assert.deepEqual(await page.$$eval('#pair-form select[name="branch"] option:not([disabled])', (o) => o.map((x) => x.textContent)), ['Moda']);
    assert.equal(await page.inputValue('#pair-form input[name="deviceName"]'), 'Front counter');
    await page.click('#pair-form [data-role="submit"]');
    await page.waitForSelector('section[data-screen="sync"]');
    await waitSynced(page);
    const after = await page.evaluate(() => window.till.state.device);
    assert.notEqual(after.tokenId, before.tokenId);

    const local = await tillOrder(page, figures.clientOrderId);
    const server = await serverOrder(local.orderId);
    assertSameFigures(server, figures);
    assert.deepEqual(server.payments.map((p) => [p.method, p.amountMinor]), [['cash', 9000]]);
    await replayCreate(server);
    payments.count += 1;
    payments.sum += 9000;
    await page.goto(`${base}${TILL}#/order/${encodeURIComponent(figures.clientOrderId)}`);
    await tillReady(page);
    await closeOrder(page);
    await waitSynced(page);
    assert.equal((await serverOrder(local.orderId)).status, 'closed');
  });

  test('an action the server refuses for good is dropped, the order read again, and the person told why', async () => {
    const { page, context } = tillA;
    await context.setOffline(true);
    await page.waitForSelector('[data-connection="offline"]');
    await go(page, 'tables');
    await openNewOrder(page, menu.tables.T3.id);
    await addProduct(page, menu.products.lemonade);
    await addProduct(page, menu.products.raki);
    const { clientOrderId } = await ticketFigures(page);
    // Taken off sale in the back office while the till was offline.
    assert.equal((await api('PATCH', `/products/${menu.products.raki.id}`, { active: false })).status, 200);
    await context.setOffline(false);
    await waitSynced(page);
    await page.waitForSelector('[data-notice="refused"][data-code="product_inactive"]');
    assert.match(await page.textContent('[data-notice="refused"]'), /Not done on the server.*Adding 1 × Raki \(glass\) was refused: This product is not on sale\./s);
    await shot(page, 'refused');
    const figures = await ticketFigures(page);
    assert.deepEqual(figures.lines.map((l) => l.productId), [menu.products.lemonade.id]);
    // The refusal brought the menu up to date: the product is gone from it.
    await page.waitForSelector(`.product-button[data-product="${menu.products.raki.id}"]`, { state: 'detached' });
    const local = await tillOrder(page, clientOrderId);
    const server = await serverOrder(local.orderId);
    assertSameFigures(server, figures);
    assert.equal((await api('PATCH', `/products/${menu.products.raki.id}`, { active: true })).status, 200);
    await go(page, 'settings');
    await page.click('[data-action="refresh-menu"]');
    await page.goto(`${base}${TILL}#/order/${encodeURIComponent(clientOrderId)}`);
    await page.waitForSelector(`.product-button[data-product="${menu.products.raki.id}"]`);
    await page.click('[data-notice="refused"] button');
    await takePayment(page, 'card', 'exact');
    await closeOrder(page);
    await waitSynced(page);
    assert.equal((await serverOrder(local.orderId)).status, 'closed');
    payments.count += 1;
    payments.sum += 9000;
  });

  test('Turkish, a tablet in portrait and a phone', async () => {
    const { page } = tillA;
    await go(page, 'settings');
    await Promise.all([page.waitForEvent('load'), page.click('.lang-choice [data-lang="tr"]')]);
    await tillReady(page);
    assert.equal(await page.getAttribute('html', 'lang'), 'tr');
    assert.equal(await page.textContent('.till-tab[data-screen="tables"] .till-tab-label'), 'Masalar');
    await go(page, 'tables');
    await page.click(`.table-tile[data-table="${menu.tables.T1.id}"]`);
    await addProduct(page, menu.products.raki);
    assert.equal(await page.textContent('.ticket-line-vat'), 'KDV %20: 36,67');
    assert.equal(await page.textContent('[data-action="close"]'), 'Siparişi kapat');
    await page.setViewportSize({ width: 768, height: 1024 });
    await shot(page, 'order_tr_tablet');
    await removeLine(page, menu.products.raki.id);
    // An emptied order closes at once (nothing due).
    await closeOrder(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'tables_phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    await go(page, 'settings');
    await Promise.all([page.waitForEvent('load'), page.click('.lang-choice [data-lang="en"]')]);
    await tillReady(page);
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    await waitSynced(page);
  });

  test('the ledger holds every payment exactly once', async () => {
    const overview = await api('GET', `/overview?branchId=${menu.branch.id}`);
    assert.equal(overview.status, 200);
    const today = overview.data.branches[0].today;
    assert.equal(today.orderPaymentCount, payments.count);
    assert.equal(today.orderPaymentsMinor, payments.sum);
  });

  test('unpairing, once everything is synced, revokes the device token and forgets the device', async () => {
    const { page } = tillA;
    // This till's own writes never came back as "changed on another device" (the refusal was dismissed).
    assert.deepEqual(await page.evaluate(() => window.till.state.records.flatMap((r) => r.notices)), []);
    const device = await page.evaluate(() => window.till.state.device);
    await go(page, 'settings');
    await page.click('[data-action="unpair"]');
    await page.click('dialog[open] [data-action="confirm"]');
    await page.waitForSelector('[data-screen="pair"]');
    const tokens = await api('GET', `/api/companies/lokanta/access-tokens`);
    assert.ok(tokens.data.find((t) => t.id === device.tokenId).revokedAt);
    const refused = await fetch(`${base}/api/restaurant/companies/lokanta/products`, { headers: { authorization: `Bearer ${device.token}` } });
    assert.equal(refused.status, 401);
    assert.equal(await page.evaluate(async () => (await window.till.reload(), window.till.state.records.length)), 0);
    await shot(page, 'unpaired');
  });

  test('no page errors', () => {
    assert.deepEqual(tillA.problems, []);
    assert.deepEqual(tillB.problems, []);
  });
});
