// The mail dashboard (web/dashboard/, docs/dashboard.md) served by a real edge and driven in the system
// Chromium through playwright-core: sign-in through /login, the domains page against a real dnsmasq (add a
// domain, see and copy its records, verify it), the template editor's live preview from the wasm core
// (missing-variable warning and syntax errors while typing, save creates the template), suppressions (add,
// look up, remove), the logs of a real send, Turkish texts, the session route and the CSRF refusal.
// Screenshots go to build/screenshots/dashboard-*.png.
//
// Needs: the native build (EDGE_BIN), the wasm build (PLATFORM_WASM_DIR, default build/wasm/wasm), `npm ci`
// (playwright-core, mjml-browser), /usr/bin/chromium and dnsmasq (dnsmasq-base).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';


import {
  assertBinaries,
  chromiumBin,
  chromiumFlags,
  edgeAdmin,
  fetchClosing,
  makeTempDir,
  removeTempDir,
  repo,
  screenshots,
  startEdge,
  stopEdgeCleanly,
} from '../support/edge.mjs';
import { launchBrowser, watchPage } from '../support/browser.mjs';
import { chromium } from 'playwright-core';
import { freeDnsPort, optionsFor, startZone } from './dns_zone.mjs';

const wasmRoot = path.resolve(repo, process.env.PLATFORM_WASM_DIR ?? 'build/wasm/wasm');
const SLUG = 'acme';
const EMAIL = 'ayse@acme.test';
const PASSWORD = 'correct horse battery staple';
const DOMAIN = 'mail.acme.example.test';

let tmp;
let edge;
let base;
let dnsPort;
let zone;
let context;
let page;
let token; // an access token of the company, for the API calls a test makes beside the browser
let domainId;
let templateId;
const problems = [];
const refusals = []; // every answer >= 400 the pages got
const expectedRefusals = []; // the ones the tests asked for, in order

async function api(method, route, body) {
  const response = await fetchClosing(`${base}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const envelope = await response.json();
  return { status: response.status, data: envelope.data, error: envelope.error, headers: response.headers };
}

const dashboard = (rest = '', query = '') => `${base}/dashboard/${SLUG}/mail/${rest}${query}`;

async function shot(name) {
  await mkdir(screenshots, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(250); // transitions (the sliding navigation) settle
  const file = path.join(screenshots, `dashboard-${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  assert.ok(existsSync(file));
}

// The page the shell mounted, once its data is in (tables and editors mark themselves busy while loading).
async function pageReady(id) {
  await page.waitForSelector(`.page-body[data-page="${id}"]`);
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"], .loading-block'), null, { timeout: 15_000 });
}

before(async () => {
  assertBinaries();
  assert.ok(existsSync(path.join(wasmRoot, 'platform_templates.wasm')), `no wasm build in ${wasmRoot}: see docs/wasm.md`);
  tmp = await makeTempDir('dashboard-mail-');
  const dataDir = path.join(tmp, 'data');
  await edgeAdmin(dataDir, ['company', 'create', '--slug', SLUG, '--name', 'Acme Inc.']);
  await edgeAdmin(dataDir, ['company', 'create', '--slug', 'globex', '--name', 'Globex']);
  await edgeAdmin(dataDir, ['user', 'create', '--email', EMAIL, '--name', 'Ayşe Yılmaz', '--password-stdin'], { input: `${PASSWORD}\n` });
  await edgeAdmin(dataDir, ['member', 'add', '--company', SLUG, '--email', EMAIL, '--role', 'owner']);
  await edgeAdmin(dataDir, ['member', 'add', '--company', 'globex', '--email', EMAIL, '--role', 'admin']);
  const created = await edgeAdmin(dataDir, [
    'token', 'create', '--company', SLUG, '--name', 'browser test',
    '--permission', 'domains.manage', '--permission', 'templates.manage', '--permission', 'send.execute',
    '--permission', 'logs.view', '--permission', 'suppressions.manage',
  ]);
  token = created.token;
  dnsPort = await freeDnsPort();
  edge = await startEdge({
    dataDir,
    workDir: tmp,
    args: [
      '--web-root', path.join(repo, 'web'),
      '--wasm-root', wasmRoot,
      '--bindings-root', path.join(repo, 'bindings'),
      '--node-modules-root', path.join(repo, 'node_modules'),
      '--mail-nameserver', `127.0.0.1:${dnsPort}`,
      '--mail-delivery-workers', '0',
    ],
  });
  base = edge.baseUrl;
  ({ context, page } = await launchBrowser(path.join(tmp, 'profile'), { clipboardOrigin: base }));
  watchPage(page, { problems, refusals });
});

after(async () => {
  await context?.close();
  await zone?.stop();
  await stopEdgeCleanly(edge);
  await removeTempDir(tmp);
});

describe('mail dashboard', { timeout: 120_000 }, () => {
  test('GET /api/session answers 401 in the envelope without a session', async () => {
    const response = await fetchClosing(`${base}/api/session`);
    assert.equal(response.status, 401);
    assert.deepEqual(await response.json(), { data: null, error: 'not signed in' });
    assert.equal(response.headers.get('cache-control'), 'no-store');
    // The dashboard itself sends a browser without a session to the sign-in page and back.
    const shell = await fetchClosing(`${base}/dashboard/${SLUG}/mail/domains?lang=tr`, { redirect: 'manual' });
    assert.equal(shell.status, 303);
    assert.equal(
      shell.headers.get('location'),
      `/login?next=${encodeURIComponent(`/dashboard/${SLUG}/mail/domains?lang=tr`)}&ui_locales=tr`,
    );
  });

  test('signs in through /login and lands on the empty domains page', async () => {
    await page.goto(dashboard('domains'));
    assert.equal(new URL(page.url()).pathname, '/login');
    await page.fill('#email', EMAIL);
    await page.fill('#password', PASSWORD);
    const [response] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === `/dashboard/${SLUG}/mail/domains`),
      page.click('button[type="submit"]'),
    ]);
    // The shell carries the page policy: no inline script, wasm allowed, no framing.
    const policy = response.headers()['content-security-policy'];
    assert.match(policy, /script-src 'self' 'wasm-unsafe-eval';/);
    assert.match(policy, /frame-ancestors 'none'/);
    assert.doesNotMatch(policy, /script-src[^;]*'unsafe-inline'/);
    await pageReady('mail/domains');
    assert.equal(await page.locator('h1').textContent(), 'Domains');
    assert.equal(await page.locator('.empty-title').textContent(), 'No sending domains yet');
    assert.equal(await page.locator('.nav-link[aria-current="page"]').textContent(), 'Domains');
    assert.equal(await page.locator('.user-name').textContent(), 'Ayşe Yılmaz');
    // Both companies are in the switcher, the current one chosen.
    assert.deepEqual(await page.locator('#company-switch option').allTextContents(), ['Acme Inc.', 'Globex']);
    assert.equal(await page.inputValue('#company-switch'), SLUG);
    assert.equal(await page.title(), 'Domains · Acme Inc. · Platform');
    await shot('domains-empty');
  });

  test('GET /api/session names the user, the CSRF token and the companies', async () => {
    const session = await page.evaluate(async () => (await fetch('/api/session')).json());
    assert.equal(session.error, null);
    assert.equal(session.data.user.email, EMAIL);
    assert.equal(session.data.user.name, 'Ayşe Yılmaz');
    assert.match(session.data.user.id, /^usr_/);
    assert.match(session.data.csrfToken, /^[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(
      session.data.companies.map((c) => [c.slug, c.name, c.role]),
      [['acme', 'Acme Inc.', 'owner'], ['globex', 'Globex', 'admin']],
    );
  });

  test('a signed-in write without the CSRF header is refused with 403', async () => {
    const answers = await page.evaluate(async (slug) => {
      const post = (headers) =>
        fetch(`/api/companies/${slug}/domains`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...headers },
          body: JSON.stringify({ name: 'csrf.example.test' }),
        }).then(async (r) => [r.status, (await r.json()).error]);
      return [await post({}), await post({ 'X-CSRF-Token': 'not-the-token' })];
    }, SLUG);
    expectedRefusals.push(`403 POST /api/companies/${SLUG}/domains`, `403 POST /api/companies/${SLUG}/domains`);
    for (const [status, error] of answers) {
      assert.equal(status, 403);
      assert.equal(error, 'missing or wrong X-CSRF-Token header for a signed-in write');
    }
    assert.equal((await api('GET', `/api/companies/${SLUG}/domains`)).data.length, 0);
  });

  test('adds a domain and shows the DNS records to publish, with copy buttons', async () => {
    await page.click('[data-action="add-domain"]');
    // The form's own validation first.
    await page.click('#add-domain [data-role="submit"]');
    assert.equal(await page.locator('#add-domain .field-error').textContent(), 'Required.');
    await page.fill('#add-domain input[name="name"]', 'not a domain');
    await page.click('#add-domain [data-role="submit"]');
    assert.match(await page.locator('#add-domain .field-error').textContent(), /without spaces/);
    // The server's rule: its sentence shows in the form.
    await page.fill('#add-domain input[name="name"]', 'bad..example.test');
    await page.click('#add-domain [data-role="submit"]');
    await page.waitForSelector('#add-domain .form-error:not([hidden])');
    expectedRefusals.push(`400 POST /api/companies/${SLUG}/domains`);
    assert.match(await page.locator('#add-domain .form-error').textContent(), /domain/i);

    await page.fill('#add-domain input[name="name"]', DOMAIN.toUpperCase());
    await page.click('#add-domain [data-role="submit"]');
    await page.waitForURL(/\/mail\/domains\/dom_/);
    domainId = new URL(page.url()).pathname.split('/').pop();
    await pageReady('mail/domains');
    assert.equal(await page.locator('h1 >> nth=0').innerText().then((s) => s.split('\n')[0]), DOMAIN);
    assert.equal(await page.locator('.page-status [data-status]').getAttribute('data-status'), 'pending');
    assert.match(await page.locator('.toast').first().textContent(), /added/);

    const rows = page.locator('#dns-records tbody tr');
    assert.equal(await rows.count(), 4);
    assert.deepEqual(await page.locator('#dns-records tbody tr').evaluateAll((trs) => trs.map((tr) => tr.dataset.purpose)), ['spf', 'dkim', 'dkim', 'dmarc']);
    const spf = page.locator('#dns-records tr[data-purpose="spf"]');
    assert.equal(await spf.locator('.copyable-text').nth(0).textContent(), DOMAIN);
    assert.equal(await spf.locator('.copyable-text').nth(1).textContent(), 'v=spf1 include:spf.mail.platform.test ~all');
    // Copy puts the exact value on the clipboard and says so.
    const dkimValue = await page.locator('#dns-records tr[data-purpose="dkim"] .copyable-text').nth(1).textContent();
    await page.locator('#dns-records tr[data-purpose="dkim"] .btn-copy').nth(1).click();
    await page.waitForSelector('#dns-records .btn-copy[data-state="copied"]');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), dkimValue);
    // Not checked yet: every check says so.
    assert.deepEqual(await page.locator('#verification .check-row').evaluateAll((rows_) => rows_.map((r) => r.dataset.state)), ['null', 'null', 'null']);
    await shot('domain-pending');
  });

  test('Verify looks the records up in DNS and shows the domain verified', async () => {
    // First without the records: DMARC, SPF and DKIM all missing, still pending.
    zone = await startZone(dnsPort);
    await page.click('[data-action="verify"]');
    await page.waitForSelector('#verification .check-row[data-state="false"]');
    assert.deepEqual(await page.locator('#verification .check-row').evaluateAll((rows) => rows.map((r) => `${r.dataset.check}:${r.dataset.state}`)), ['spf:false', 'dkim:false', 'dmarc:false']);
    assert.equal(await page.locator('.page-status [data-status]').getAttribute('data-status'), 'pending');
    // Published: verified.
    await zone.stop();
    const domain = await api('GET', `/api/companies/${SLUG}/domains/${domainId}`);
    zone = await startZone(dnsPort, optionsFor(domain.data.dnsRecords));
    await page.click('[data-action="verify"]');
    await page.waitForSelector('.page-status [data-status="verified"]');
    assert.deepEqual(await page.locator('#verification .check-row').evaluateAll((rows) => rows.map((r) => `${r.dataset.check}:${r.dataset.state}`)), ['spf:true', 'dkim:true', 'dmarc:true']);
    assert.match(await page.locator('#verification .note').textContent(), /Verified/);
    await shot('domain-verified');
    // The list shows it with its status and checks.
    await page.click('.back-link');
    await pageReady('mail/domains');
    const row = page.locator(`tr[data-domain="${DOMAIN}"]`);
    assert.equal(await row.locator('[data-status]').getAttribute('data-status'), 'verified');
    assert.equal(await row.locator('.check-success').count(), 3);
  });

  test('the template editor previews with the wasm engine, warns about missing variables and syntax errors as you type, and saves', async () => {
    await page.click('.nav-link[data-page="mail/templates"]');
    await pageReady('mail/templates');
    assert.equal(await page.locator('.empty-title').textContent(), 'No templates yet');
    await page.click('[data-action="new-template"]');
    await page.waitForURL(/\/templates\/new$/);
    await page.waitForSelector('#preview-frame');
    // The only verified domain is chosen already.
    assert.equal(await page.inputValue('select[name="domainId"]'), domainId);

    await page.fill('input[name="name"]', 'Order receipt');
    await page.fill('input[name="subject"]', 'Your order {order_id}');
    // Typing, not filling: the warning follows each keystroke.
    await page.locator('textarea[name="body"]').pressSequentially('<p>Hello {name}!</p>');
    await page.waitForSelector('#missing [data-missing="order_id,name"]');
    assert.deepEqual(await page.locator('#missing .chip').allTextContents(), ['order_id', 'name']);
    assert.deepEqual(await page.locator('#variables .chip').allTextContents(), ['order_id', 'name']);
    // Missing names show as {name} in the preview; the subject line too.
    assert.equal(await page.locator('#preview-subject').textContent(), 'Your order {order_id}');
    const frame = page.frameLocator('#preview-frame');
    assert.equal(await frame.locator('p').textContent(), 'Hello {name}!');

    // Sample variables: escaped as HTML in the body, as they are in the subject.
    await page.fill('#sample', JSON.stringify({ name: 'Ayşe <3', order_id: 'A-1' }));
    await page.waitForSelector('#missing', { state: 'hidden' });
    assert.equal(await frame.locator('p').textContent(), 'Hello Ayşe <3!');
    assert.equal(await page.locator('#preview-subject').textContent(), 'Your order A-1');

    // A section over a list, then a stray closing tag: the error names line and column and selects the tag.
    const body = page.locator('textarea[name="body"]');
    await body.press('End');
    await body.pressSequentially('\n<ul>{#items}<li>{sku}</li>{/items}</ul>');
    await page.waitForSelector('#missing [data-missing="items"]');
    await page.click('[data-action="fill-sample"]');
    await page.waitForSelector('#missing', { state: 'hidden' });
    assert.deepEqual(JSON.parse(await page.inputValue('#sample')).items, [{ sku: 'sku 1' }]);
    assert.equal(await frame.locator('li').textContent(), 'sku 1');
    await body.pressSequentially('\n{/oops}');
    await page.waitForSelector('.syntax-error[data-field="body"]');
    assert.equal(
      await page.locator('.syntax-error[data-field="body"]').evaluate((e) => e.firstChild.textContent),
      'This closing tag has no open section at line 3, column 1. ',
    );
    assert.match(await page.locator('#preview-error').textContent(), /Fix the template error/);
    await page.click('[data-action="show-error"]');
    assert.deepEqual(
      await body.evaluate((e) => e.value.slice(e.selectionStart, e.selectionEnd)),
      '{/oops}',
    );
    await shot('template-syntax-error');
    // Saving is refused while the error is there.
    await page.click('[data-action="save"]');
    assert.match(await page.locator('.form-error').first().textContent(), /Fix the template errors/);
    // The tag is still selected: one Backspace takes it, a second the line break before it.
    await body.press('Backspace');
    await body.press('Backspace');
    await page.waitForSelector('.syntax-error', { state: 'detached' });

    await shot('template-editor');
    await page.click('[data-action="save"]');
    await page.waitForURL(/\/templates\/tpl_/);
    templateId = new URL(page.url()).pathname.split('/').pop();
    await page.waitForSelector('#preview-frame');
    const stored = await api('GET', `/api/companies/${SLUG}/templates/${templateId}`);
    assert.equal(stored.status, 200);
    assert.deepEqual(
      { name: stored.data.name, subject: stored.data.subject, body: stored.data.body, domainId: stored.data.domainId, variables: stored.data.variables },
      {
        name: 'Order receipt',
        subject: 'Your order {order_id}',
        body: '<p>Hello {name}!</p>\n<ul>{#items}<li>{sku}</li>{/items}</ul>',
        domainId,
        variables: ['order_id', 'name', 'items'],
      },
    );
    // The sample typed for the new template stays with it.
    assert.equal(await frame.locator('li').textContent(), 'sku 1');
  });

  test('a template gets English and Turkish versions (PATCH), each previewed in its tab', async () => {
    await page.click('[data-name="languages"] input[value="localized"]', { force: true });
    await page.waitForSelector('[role="tab"][data-tab="tr"]');
    await page.click('[role="tab"][data-tab="tr"]');
    await page.fill('input[name="subject"]', 'Siparişiniz {order_id}');
    await page.fill('textarea[name="body"]', '<p>Merhaba {name}!</p>');
    assert.equal(await page.frameLocator('#preview-frame').locator('p').textContent(), 'Merhaba Ayşe <3!');
    await page.click('[data-action="save"]');
    await page.waitForSelector('.toast:has-text("version 2")');
    const stored = await api('GET', `/api/companies/${SLUG}/templates/${templateId}`);
    assert.equal(stored.data.version, 2);
    assert.equal(stored.data.name, 'Order receipt'); // the same in both languages: a plain string
    assert.deepEqual(stored.data.subject, { en: 'Your order {order_id}', tr: 'Siparişiniz {order_id}' });
    assert.deepEqual(stored.data.body, {
      en: '<p>Hello {name}!</p>\n<ul>{#items}<li>{sku}</li>{/items}</ul>',
      tr: '<p>Merhaba {name}!</p>',
    });
    await page.click('.back-link');
    await pageReady('mail/templates');
    const row = page.locator(`tr[data-template="${templateId}"]`);
    assert.equal(await row.locator('td').nth(2).textContent(), DOMAIN);
    assert.deepEqual(await row.locator('.chip').allTextContents(), ['order_id', 'name', 'items']);
  });

  test('MJML mode: compiled to HTML by mjml-browser for the preview and the save, and reopened as MJML', async () => {
    await page.goto(dashboard('templates/new'));
    await page.waitForSelector('[data-name="format"]');
    await page.click('[data-name="format"] input[value="mjml"]', { force: true });
    await page.fill('input[name="name"]', 'Welcome');
    await page.fill('input[name="subject"]', 'Welcome, {name}');
    const source =
      '<mjml><mj-body><mj-section><mj-column><mj-text>Hi {name}</mj-text>' +
      '<mj-button href="https://acme.example.test/start/{token}">Start</mj-button></mj-column></mj-section></mj-body></mjml>';
    await page.fill('textarea[name="body"]', source);
    await page.fill('#sample', JSON.stringify({ name: 'Ali', token: 't-1' }));
    const frame = page.frameLocator('#preview-frame');
    await frame.locator('text=Hi Ali').waitFor();
    assert.equal(await frame.locator('a:has-text("Start")').getAttribute('href'), 'https://acme.example.test/start/t-1');
    assert.deepEqual(await page.locator('#variables .chip').allTextContents(), ['name', 'token']);
    await shot('template-mjml');
    await page.click('[data-action="save"]');
    await page.waitForURL(/\/templates\/tpl_/);
    await page.waitForSelector('#preview-frame');
    const id = new URL(page.url()).pathname.split('/').pop();
    const stored = await api('GET', `/api/companies/${SLUG}/templates/${id}`);
    // The API got HTML (with the source in a closing comment), and extracted the variables from it.
    assert.match(stored.data.body, /^<!doctype html>/i);
    assert.match(stored.data.body, /<!-- mjml-source:v1 [A-Za-z0-9+/=]+ -->\n$/);
    assert.doesNotMatch(stored.data.body, /<mj-/);
    assert.deepEqual(stored.data.variables, ['name', 'token']);
    // Reopened: MJML again, the source as typed.
    assert.equal(await page.locator('[data-name="format"] input[value="mjml"]').isChecked(), true);
    assert.equal(await page.inputValue('textarea[name="body"]'), source);
    await frame.locator('text=Hi Ali').waitFor();
    assert.equal((await api('DELETE', `/api/companies/${SLUG}/templates/${id}`)).status, 200);
  });

  test('suppressions: add an address, look it up, remove it', async () => {
    await page.click('.nav-link[data-page="mail/suppressions"]');
    await pageReady('mail/suppressions');
    assert.equal(await page.locator('.empty-title').textContent(), 'No suppressed addresses');
    await page.click('[data-action="add-suppression"]');
    await page.fill('#add-suppression input[name="address"]', 'Blocked@Customer.example.test');
    await page.click('#add-suppression [data-role="submit"]');
    await page.waitForSelector('tr[data-address="blocked@customer.example.test"]');
    assert.equal(await page.locator('tr[data-address="blocked@customer.example.test"] [data-reason]').getAttribute('data-reason'), 'manual');

    await page.fill('#lookup input[name="address"]', 'blocked@customer.example.test');
    await page.click('#lookup [data-role="submit"]');
    await page.waitForSelector('#lookup-result [data-listed="true"]');
    assert.match(await page.locator('#lookup-result').textContent(), /blocked@customer\.example\.test is suppressed\./);
    assert.match(await page.locator('#lookup-result').textContent(), /added it to the list by hand/);
    await page.fill('#lookup input[name="address"]', 'someone@customer.example.test');
    await page.click('#lookup [data-role="submit"]');
    await page.waitForSelector('#lookup-result [data-listed="false"]');
    expectedRefusals.push(`404 GET /api/companies/${SLUG}/suppressions/someone%40customer.example.test`);
    assert.match(await page.locator('#lookup-result').textContent(), /someone@customer\.example\.test is not suppressed\./);
    await shot('suppressions');

    await page.click('tr[data-address="blocked@customer.example.test"] [data-action="remove"]');
    await page.click('dialog [data-action="confirm"]');
    await page.waitForSelector('tr[data-address="blocked@customer.example.test"]', { state: 'detached' });
    assert.equal((await api('GET', `/api/companies/${SLUG}/suppressions`)).data.length, 0);
  });

  test('logs: a send is listed, filtered and opened with its recipients and timeline', async () => {
    // One recipient suppressed, one queued (no delivery workers in this edge).
    assert.equal((await api('POST', `/api/companies/${SLUG}/suppressions`, { address: 'gone@customer.example.test' })).status, 201);
    const sent = await api('POST', `/api/companies/${SLUG}/send`, {
      domainId,
      from: `orders@${DOMAIN}`,
      to: ['ali@customer.example.test', 'gone@customer.example.test'],
      templateId,
      locale: 'tr',
      variables: { name: 'Ali', order_id: 'A-7', items: [] },
    });
    assert.equal(sent.status, 201, sent.error);
    await page.click('.nav-link[data-page="mail/logs"]');
    await pageReady('mail/logs');
    const row = page.locator(`tr[data-log="${sent.data.mailLogId}"]`);
    assert.equal(await row.locator('td').nth(1).textContent(), 'Siparişiniz A-7');
    assert.equal(await row.locator('td').nth(3).textContent(), 'ali@customer.example.test +1');
    // A filter with no match, then one with.
    await page.selectOption('#log-filters select[name="status"]', 'bounced');
    await page.click('#log-filters [data-role="submit"]');
    await page.waitForSelector('.empty-title:has-text("No sends match")');
    assert.equal(new URL(page.url()).searchParams.get('status'), 'bounced');
    await page.selectOption('#log-filters select[name="status"]', 'queued');
    await page.fill('#log-filters input[name="to"]', 'gone@customer.example.test');
    await page.click('#log-filters [data-role="submit"]');
    await page.waitForSelector(`tr[data-log="${sent.data.mailLogId}"]`);
    await shot('logs');
    await page.click(`tr[data-log="${sent.data.mailLogId}"] a.row-anchor`);
    await page.waitForSelector('#log-timeline');
    assert.deepEqual(
      await page.locator('#log-recipients tbody tr').evaluateAll((rows) => rows.map((r) => `${r.dataset.recipient}:${r.querySelector('[data-status]').dataset.status}`)),
      ['ali@customer.example.test:queued', 'gone@customer.example.test:suppressed'],
    );
    assert.deepEqual(await page.locator('#log-timeline .timeline-item').evaluateAll((items) => items.map((i) => i.dataset.event)), ['queued', 'suppressed']);
    await shot('log-detail');
    // From the log to the reason: the suppressions page looks the address up.
    await page.click('#log-recipients a:has-text("Why suppressed?")');
    await page.waitForSelector('#lookup-result [data-listed="true"]');
    assert.equal(await page.inputValue('#lookup input[name="address"]'), 'gone@customer.example.test');
    await page.click('[data-action="remove-looked-up"]');
    await page.click('dialog [data-action="confirm"]');
    await page.waitForSelector('#lookup-result [data-listed="false"]');
    expectedRefusals.push(`404 GET /api/companies/${SLUG}/suppressions/gone%40customer.example.test`);
  });

  test('Turkish with ?lang=tr, remembered, and switched back from the top bar', async () => {
    await page.goto(dashboard('domains', '?lang=tr'));
    await pageReady('mail/domains');
    assert.equal(await page.locator('html').getAttribute('lang'), 'tr');
    assert.equal(await page.locator('h1').textContent(), 'Alan adları');
    // The mail pages, then the other products' (auth projects, the company's access tokens).
    assert.deepEqual(await page.locator('.nav-link').allTextContents(), ['Alan adları', 'Şablonlar', 'Kayıtlar', 'Engellenenler', 'Projeler', 'Durum sayfaları', 'Kovalar', 'Kasa projeleri', 'Erişim anahtarları']);
    assert.equal(await page.locator(`tr[data-domain="${DOMAIN}"] [data-status]`).textContent(), 'Doğrulandı');
    assert.equal(await page.locator('.signout button').textContent(), 'Çıkış yap');
    await shot('domains-tr');
    // Remembered without the query.
    await page.goto(dashboard('templates'));
    await pageReady('mail/templates');
    assert.equal(await page.locator('h1').textContent(), 'Şablonlar');
    await page.goto(dashboard(`templates/${templateId}`));
    await page.waitForSelector('#preview-frame');
    assert.equal(await page.locator('[role="tab"][aria-selected="true"]').textContent(), 'Türkçe');
    assert.equal(await page.locator('#preview-subject').textContent(), 'Siparişiniz A-1');
    await page.click('.lang-switch [data-lang="en"]');
    await page.waitForSelector('h1:has-text("Order receipt")');
    assert.equal(await page.locator('html').getAttribute('lang'), 'en');
    assert.equal(await page.evaluate(() => localStorage.getItem('platform.dashboard.lang')), 'en');
  });

  test("a browser whose language is Turkish gets Turkish without ?lang (a fresh profile: nothing remembered)", async () => {
    const browser = await chromium.launch({ executablePath: chromiumBin, headless: true, args: chromiumFlags });
    try {
      const turkish = await browser.newContext({ locale: 'tr-TR', viewport: { width: 1100, height: 800 } });
      const other = await turkish.newPage();
      await other.goto(dashboard('suppressions'));
      // The sign-in page speaks Turkish too (Accept-Language), then the dashboard.
      assert.equal(await other.locator('h1').textContent(), 'Giriş yap');
      await other.fill('#email', EMAIL);
      await other.fill('#password', PASSWORD);
      await other.click('button[type="submit"]');
      await other.waitForSelector('.page-body[data-page="mail/suppressions"]');
      assert.equal(await other.locator('html').getAttribute('lang'), 'tr');
      assert.equal(await other.locator('.nav-link[aria-current="page"]').textContent(), 'Engellenenler');
      assert.equal(await other.locator('.lang-switch [aria-pressed="true"]').textContent(), 'TR');
      await turkish.close();
    } finally {
      await browser.close();
    }
  });

  test('a 429 shows in the banner with its Retry-After counted down, and the list offers to try again', async () => {
    // The edge's limit is 100 requests a second per user: the refusal is made here, in its exact shape.
    const route = new RegExp(`/api/companies/${SLUG}/domains\\?`);
    await page.route(route, (r) =>
      r.fulfill({
        status: 429,
        headers: { 'retry-after': '3', 'content-type': 'application/json' },
        body: JSON.stringify({ data: null, error: 'rate limit exceeded' }),
      }),
    );
    await page.goto(dashboard('domains'));
    await page.waitForSelector('.banner[data-kind="rate-limited"]');
    assert.equal(await page.locator('.banner-text').textContent(), 'Too many requests. Try again in 3 seconds.');
    await page.waitForFunction(() => document.querySelector('.banner-text')?.textContent.includes('2 seconds'));
    assert.equal(await page.locator('.table-failed').isVisible(), true);
    expectedRefusals.push(`429 GET /api/companies/${SLUG}/domains`);
    await page.unroute(route);
    await page.click('.table-failed button');
    await page.waitForSelector(`tr[data-domain="${DOMAIN}"]`);
  });

  test('the company switcher, unknown pages and narrow screens', async () => {
    await page.goto(dashboard('domains'));
    await pageReady('mail/domains');
    await page.selectOption('#company-switch', 'globex');
    await page.waitForURL(/\/dashboard\/globex\/mail\/domains$/);
    await pageReady('mail/domains');
    assert.equal(await page.locator('.empty-title').textContent(), 'No sending domains yet');
    await page.goto(`${base}/dashboard/initech/mail/domains`);
    await page.waitForSelector('.empty-title');
    assert.equal(await page.locator('.empty-title').textContent(), 'Company not found');
    await page.goto(`${base}/dashboard/${SLUG}/mail/nowhere`);
    await page.waitForSelector('.empty-title');
    assert.equal(await page.locator('.empty-title').textContent(), 'Page not found');
    // /dashboard alone opens the first company's first page.
    await page.goto(`${base}/dashboard`);
    await page.waitForURL(new RegExp(`/dashboard/${SLUG}/mail/domains$`));

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(dashboard(`domains/${domainId}`));
    await pageReady('mail/domains');
    assert.equal(await page.locator('.sidenav').isVisible(), false);
    await page.click('.nav-toggle');
    await page.waitForSelector('.app[data-nav="open"]');
    await shot('mobile-nav');
    // Escape closes it, as does a tap beside it.
    await page.keyboard.press('Escape');
    await page.waitForSelector('.app[data-nav="closed"]');
    await page.click('.nav-toggle');
    await page.click('.nav-scrim', { position: { x: 370, y: 400 } });
    await page.waitForSelector('.app[data-nav="closed"]');
    await shot('mobile-domain');
    await page.setViewportSize({ width: 1280, height: 900 });
    assert.deepEqual(problems, []);
    // Only the refusals the tests asked for (the CSRF test's writes, a bad domain name, lookups of addresses
    // that are not listed).
    assert.deepEqual(refusals, expectedRefusals);
  });
});
