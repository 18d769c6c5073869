// The counter board of the offline till (web/till/board.html, docs/till.md "Board") served by a real edge
// and driven in Chromium through playwright-core: it uses the till's pairing from IndexedDB, reads
// GET /orders/board/events (Server-Sent Events over fetch) and shows the branch's open orders as kitchen
// tickets. An order created on the till, then one created, extended, paid and closed through the API by
// another device, appear and change without a reload; closed orders leave; after the edge restarts the
// board reconnects and starts from a fresh snapshot. Screenshots: build/screenshots/till_board*.png.
//
// Needs: the native build with the board events route (EDGE_BIN), the wasm build (PLATFORM_WASM_DIR),
// `npm ci` (playwright-core) and /usr/bin/chromium.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { assertBinaries, makeTempDir, removeTempDir, repo, screenshots, startEdge, stopEdgeCleanly } from '../support/edge.mjs';
import { addProduct, launchTill, pairTill, seedRestaurant, startTillEdge, waitSynced, wasmRoot } from './till_support.mjs';

let tmp;
let edge;
let base;
let api;
let dataDir;
let menu;
let till;
let board; // the board's page, in the till's browser profile

async function shot(name) {
  await mkdir(screenshots, { recursive: true });
  await board.waitForTimeout(200);
  await board.screenshot({ path: path.join(screenshots, `till_${name}.png`), fullPage: true });
}

const tickets = () =>
  board.evaluate(() =>
    [...document.querySelectorAll('.board-ticket')].map((t) => ({
      number: Number(t.dataset.number),
      place: t.querySelector('.board-ticket-place').textContent,
      lines: [...t.querySelectorAll('.board-line')].map((l) => l.textContent),
      paid: t.querySelector('.board-ticket-foot').textContent,
    })),
  );

// Waits until the board shows exactly `expected` (as tickets() reads it).
async function boardShows(expected, timeout = 10_000) {
  const deadline = Date.now() + timeout;
  let seen;
  while (Date.now() < deadline) {
    seen = await tickets();
    try {
      assert.deepEqual(seen, expected);
      return;
    } catch {
      await board.waitForTimeout(100);
    }
  }
  assert.deepEqual(seen, expected);
}

before(async () => {
  assertBinaries();
  tmp = await makeTempDir('till-board-');
  ({ edge, base, api, dataDir } = await startTillEdge(tmp));
  menu = await seedRestaurant(api);
  till = await launchTill(path.join(tmp, 'profile'));
  await pairTill(till.page, base, { branchName: 'Moda', deviceName: 'Counter screen' });
  board = await till.context.newPage();
  board.setDefaultTimeout(20_000);
  board.on('pageerror', (error) => till.problems.push(`board page error: ${error.message}`));
});

after(async () => {
  await till?.context.close().catch(() => {});
  await stopEdgeCleanly(edge);
  await removeTempDir(tmp);
});

describe('counter board', { timeout: 180_000 }, () => {
  test('opens live with the paired branch and no open orders', async () => {
    await board.goto(`${base}/web/till/board.html`);
    await board.waitForSelector('#board[data-connection="live"]');
    assert.equal(await board.textContent('.board-title .muted'), 'Moda');
    assert.equal(await board.textContent('[data-role="count"]'), '0 open');
    assert.ok(await board.locator('.board-empty').isVisible());
  });

  test('an order created on the till appears without a reload', async () => {
    const page = till.page;
    await page.click(`.table-tile[data-table="${menu.tables.T1.id}"]`);
    await addProduct(page, menu.products.burger, { options: [menu.fries.id], quantity: 2 });
    await addProduct(page, menu.products.lemonade);
    await waitSynced(page);
    await boardShows([{ number: 1, place: 'T1', lines: ['2×Bistro burgerFries', '1×Lemonade'], paid: 'Not paid' }]);
    await shot('board');
  });

  test('another device creates, extends, pays and closes an order: the board follows each write', async () => {
    const created = await api('POST', '/orders', {
      branchId: menu.branch.id,
      tableId: null,
      clientOrderId: 'kiosk-1',
      items: [{ productId: menu.products.raki.id, quantity: 3 }],
    });
    assert.equal(created.status, 201);
    const order = created.data;
    await boardShows([
      { number: 1, place: 'T1', lines: ['2×Bistro burgerFries', '1×Lemonade'], paid: 'Not paid' },
      { number: 2, place: 'Counter', lines: ['3×Raki (glass)'], paid: 'Not paid' },
    ]);
    const added = await api('POST', `/orders/${order.id}/items`, { version: order.version, productId: menu.products.fish.id, quantity: 1 });
    assert.equal(added.status, 201);
    await boardShows([
      { number: 1, place: 'T1', lines: ['2×Bistro burgerFries', '1×Lemonade'], paid: 'Not paid' },
      { number: 2, place: 'Counter', lines: ['3×Raki (glass)', '1×Grilled sea bass'], paid: 'Not paid' },
    ]);
    const paid = await api('POST', `/orders/${order.id}/payments`, { paymentId: 'kiosk-pay-1', amountMinor: added.data.dueMinor, method: 'card' });
    assert.equal(paid.status, 201);
    await boardShows([
      { number: 1, place: 'T1', lines: ['2×Bistro burgerFries', '1×Lemonade'], paid: 'Not paid' },
      { number: 2, place: 'Counter', lines: ['3×Raki (glass)', '1×Grilled sea bass'], paid: 'Paid' },
    ]);
    assert.equal((await api('POST', `/orders/${order.id}/close`)).status, 200);
    await boardShows([{ number: 1, place: 'T1', lines: ['2×Bistro burgerFries', '1×Lemonade'], paid: 'Not paid' }]);
    assert.equal(await board.textContent('[data-role="count"]'), '1 open');
  });

  test('after the edge restarts the board reconnects and shows a fresh snapshot', async () => {
    const port = edge.port;
    await stopEdgeCleanly(edge);
    await board.waitForSelector('#board[data-connection="reconnecting"]');
    await shot('board_reconnecting');
    edge = await startEdge({
      dataDir,
      workDir: tmp,
      listen: `127.0.0.1:${port}`,
      args: ['--web-root', path.join(repo, 'web'), '--bindings-root', path.join(repo, 'bindings'), '--wasm-root', wasmRoot],
    });
    // Written while the board was away: it comes with the snapshot of the new connection.
    const created = await api('POST', '/orders', { branchId: menu.branch.id, tableId: menu.tables.T2.id, clientOrderId: 'kiosk-2', items: [{ productId: menu.products.lemonade.id, quantity: 1 }] });
    assert.equal(created.status, 201);
    await board.waitForSelector('#board[data-connection="live"]', { timeout: 45_000 });
    await boardShows([
      { number: 1, place: 'T1', lines: ['2×Bistro burgerFries', '1×Lemonade'], paid: 'Not paid' },
      { number: 3, place: 'T2', lines: ['1×Lemonade'], paid: 'Not paid' },
    ]);
  });

  test('no page errors', () => {
    assert.deepEqual(till.problems, []);
  });
});
