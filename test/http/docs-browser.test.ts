// "Try it out" in the API reference, in a real browser (Debian chromium through
// playwright-core): authorize with an API key, get a token from GET /v3/token, authorize
// with it as the Bearer token, and run a query from the document's example, all in /docs.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { startWebServer, type WebServer } from '../web/helpers/server.ts';

const SHOTS = new URL('../../test-results/web/', import.meta.url).pathname;

let server: WebServer;
let context: BrowserContext;
let page: Page;
let profile: string;
const external: string[] = [];

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startWebServer();
  profile = mkdtempSync(join(tmpdir(), 'quarry-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1366, height: 900 },
  });
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (url.startsWith(server.url) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    external.push(url);
    return route.abort();
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (error) => assert.fail(`script error in the page: ${error.message}`));
});

after(async () => {
  await context?.close();
  await server?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

/** Fills one security scheme's value in the Authorize dialog and closes it. */
async function authorize(scheme: string, value: string): Promise<void> {
  await page.locator('.scheme-container button.authorize').click();
  const dialog = page.locator('.dialog-ux .modal-ux');
  // Each scheme's heading reads "NAME (type)"; match the name at its start only.
  const container = dialog.locator('.auth-container', {
    has: page.locator('h4').filter({ hasText: new RegExp(`^\\s*${scheme}\\s`) }),
  });
  const logout = container.locator('button:has-text("Logout")');
  if ((await logout.count()) > 0) await logout.click();
  await container.locator('input').first().fill(value);
  await container.locator('button.authorize').click();
  await dialog.locator('button.close-modal').click();
}

/** Opens an operation, runs it with Try it out, and returns its response status and body. */
async function execute(operation: Locator): Promise<{ status: string; body: string }> {
  if (!(await operation.locator('.opblock-body').isVisible()))
    await operation.locator('.opblock-summary').first().click();
  const tryOut = operation.locator('button.try-out__btn');
  if ((await tryOut.count()) > 0 && (await tryOut.innerText()).trim() === 'Try it out') await tryOut.click();
  await operation.locator('button.execute').click();
  const row = operation.locator('.live-responses-table tbody tr.response').first();
  await row.waitFor({ timeout: 20_000 });
  return {
    status: (await row.locator('.response-col_status').innerText()).trim(),
    body: (await row.locator('.response-col_description pre').first().innerText()).trim(),
  };
}

test('Try it out in /docs: API key → token → Bearer → a query from the examples', { timeout: 90_000 }, async () => {
  const { key } = await server.accounts.createKey('ana@example.org', 'docs');
  await page.goto(`${server.url}/docs/`);
  await page.locator('.opblock').first().waitFor();

  await authorize('apiKey', key);
  const token = await execute(page.locator('#operations-token-path-getTokenV3'));
  assert.equal(token.status, '200', token.body);
  assert.match(token.body, /^\S{40,}$/);

  await authorize('bearerToken', token.body);
  const query = page.locator('#operations-token-path-queryV3');
  await query.locator('.opblock-summary').first().click();
  const example = await query.locator('textarea.body-param__text').inputValue();
  assert.match(example, /^search publications for /);
  const result = await execute(query);
  assert.equal(result.status, '200', result.body);
  const body = JSON.parse(result.body) as { publications: unknown[]; _stats: { total_count: number } };
  assert.ok(body.publications.length > 0 && body._stats.total_count > 0, 'the example finds records');
  assert.match(await query.locator('.curl-command').innerText(), /Authorization: Bearer /);
  await page.screenshot({ path: join(SHOTS, 'docs-try-it-out-1366.png'), fullPage: false });
  assert.deepEqual(external, [], 'nothing fetched from other hosts');
});
