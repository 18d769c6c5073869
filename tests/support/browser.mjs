// Chromium for the page suites: a persistent profile with DESIGN.md's headless flags, and a watcher for what a
// finished page must never do (an uncaught error, a console error other than a refused request, a failed
// request), which also records every answer >= 400 so a test can assert it saw only the refusals it caused.
import path from 'node:path';

import { chromium } from 'playwright-core';

import { chromiumBin, chromiumFlags } from './edge.mjs';

// A persistent context on `profileDir` and its first page (15 s default timeout). `clipboardOrigin`: grant
// that origin the clipboard (copy buttons).
export async function launchBrowser(
  profileDir,
  { viewport = { width: 1280, height: 900 }, locale = 'en-GB', timezoneId = 'UTC', clipboardOrigin } = {},
) {
  const context = await chromium.launchPersistentContext(path.resolve(profileDir), {
    executablePath: chromiumBin,
    headless: true,
    args: chromiumFlags,
    viewport,
    locale,
    timezoneId,
  });
  if (clipboardOrigin) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: clipboardOrigin });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(15_000);
  return { context, page };
}

// Watches `page`; `problems` and `refusals` fill as it runs (`refusals` as "<status> <METHOD> <path>").
export function watchPage(page, { problems = [], refusals = [] } = {}) {
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // Refused requests are logged by Chromium too; they are checked one by one through `refusals`.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      problems.push(`console error: ${message.text()}`);
    }
  });
  page.on('requestfailed', (request) => {
    // A load the next page.goto cut short is not a failure of the page.
    if (request.failure()?.errorText !== 'net::ERR_ABORTED') problems.push(`request failed: ${request.url()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) {
      refusals.push(`${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`);
    }
  });
  return { problems, refusals };
}
