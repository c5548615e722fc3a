// The API reference in a real browser (Debian chromium through playwright-core): "Try it
// out" end to end for both families (token-path: authorize with an API key, get a token from
// GET /v3/token, authorize with it as the Bearer token, run a query from the document's
// example; auth-path: POST /api/auth with the key in its JSON body, authorize with
// the token alone (the page adds the word `JWT`), run POST /api/dsl/v2), and axe with every rule on /docs and the language
// reference pages, with screenshots at 1366 and 390 px.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { assertAccessible, launchBrowser, newContext, shots } from '../web/helpers/browser.ts';
import { startWebServer, type WebServer } from '../web/helpers/server.ts';

let server: WebServer;
let browser: Browser;

before(async () => {
  server = await startWebServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** Fills one security scheme's value in the Authorize dialog and closes it. */
async function authorize(page: Page, scheme: string, value: string): Promise<void> {
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
  const tryOut = operation.locator('button.try-out__btn').first();
  if ((await tryOut.count()) > 0 && (await tryOut.innerText()).trim() === 'Try it out') await tryOut.click();
  // A second run would otherwise read the previous response's row before the new one is
  // drawn: clear it first and wait until it is gone.
  const clear = operation.locator('button.btn-clear');
  if ((await clear.count()) > 0 && (await clear.isVisible())) {
    await clear.click();
    await operation.locator('.live-responses-table').waitFor({ state: 'detached', timeout: 10_000 });
  }
  await operation.locator('button.execute').click();
  const row = operation.locator('.live-responses-table tbody tr.response').first();
  await row.waitFor({ timeout: 20_000 });
  return {
    status: (await row.locator('.response-col_status').innerText()).trim(),
    body: (await row.locator('.response-col_description pre').first().innerText()).trim(),
  };
}

test('Try it out in /docs: API key → token → Bearer → a query from the examples', { timeout: 90_000 }, async () => {
  const { context, page, external } = await newContext(browser, server.url);
  try {
    const { key } = await server.accounts.createKey('ana@example.org', 'docs');
    await page.goto(`${server.url}/docs/`);
    await page.locator('.opblock').first().waitFor();

    await authorize(page, 'apiKey', key);
    const token = await execute(page.locator('#operations-token-path-getTokenV3'));
    assert.equal(token.status, '200', token.body);
    assert.match(token.body, /^\S{40,}$/);

    await authorize(page, 'bearerToken', token.body);
    const query = page.locator('#operations-token-path-queryV3');
    await query.locator('.opblock-summary').first().click();
    const example = await query.locator('textarea.body-param__text').inputValue();
    assert.match(example, /^search publications for /);
    const result = await execute(query);
    assert.equal(result.status, '200', result.body);
    const body = JSON.parse(result.body) as { publications: unknown[]; _stats: { total_count: number } };
    assert.ok(body.publications.length > 0 && body._stats.total_count > 0, 'the example finds records');
    assert.match(await query.locator('.curl-command').innerText(), /Authorization: Bearer /);
    await assertAccessible(page, '/docs after Try it out');
    await shots(page, 'docs-try-it-out');
    assert.deepEqual(external, [], 'nothing fetched from other hosts');
  } finally {
    await context.close();
  }
});

test('Try it out in /docs: API key → POST /api/auth → JWT → POST /api/dsl/v2', { timeout: 90_000 }, async () => {
  const { context, page, external } = await newContext(browser, server.url);
  try {
    const { key } = await server.accounts.createKey('ana@example.org', 'docs-jwt');
    await page.goto(`${server.url}/docs/`);
    await page.locator('.opblock').first().waitFor();

    // The login takes the key in its JSON body (no security scheme): the example is replaced.
    const login = page.locator('#operations-auth-path-login');
    await login.locator('.opblock-summary').first().click();
    const loginBody = login.locator('textarea.body-param__text');
    assert.deepEqual(JSON.parse(await loginBody.inputValue()), { key: 'qry_your_api_key' });
    await loginBody.fill(JSON.stringify({ key }));
    const auth = await execute(login);
    assert.equal(auth.status, '200', auth.body);
    const jwt = (JSON.parse(auth.body) as { token: string }).token;
    assert.match(jwt, /^[\w-]+\.[\w-]+\.[\w-]+$/, 'a JWT');

    // The token alone: the page adds the scheme word.
    await authorize(page, 'jwt', jwt);
    const query = page.locator('#operations-auth-path-queryDslV2');
    await query.locator('.opblock-summary').first().click();
    const example = await query.locator('textarea.body-param__text').inputValue();
    assert.match(example, /^search publications for /);
    const result = await execute(query);
    assert.equal(result.status, '200', result.body);
    const body = JSON.parse(result.body) as { publications: unknown[]; _stats: { total_count: number } };
    assert.ok(body.publications.length > 0 && body._stats.total_count > 0, 'the example finds records');
    assert.ok((await query.locator('.curl-command').innerText()).includes(`Authorization: JWT ${jwt}`));

    // Without the JWT the same operation is refused with the protocol's error body.
    await page.locator('.scheme-container button.authorize').click();
    await page.locator('.dialog-ux .modal-ux button:has-text("Logout")').first().click();
    await assertAccessible(page, 'the Authorize dialog of /docs');
    await page.locator('.dialog-ux .modal-ux button.close-modal').click();
    const refused = await execute(query);
    assert.equal(refused.status, '401', refused.body);
    assert.ok('errors' in (JSON.parse(refused.body) as object), refused.body);
    await shots(page, 'docs-try-it-out-jwt');
    assert.deepEqual(external, [], 'nothing fetched from other hosts');
  } finally {
    await context.close();
  }
});

test('axe: /docs, /docs/language and /docs/errors, every rule', { timeout: 90_000 }, async () => {
  const { context, page } = await newContext(browser, server.url);
  try {
    await page.goto(`${server.url}/docs/`);
    await page.locator('.opblock').first().waitFor();
    // No rule is left out: the fixes to Swagger UI's markup are in src/http/docs-theme.ts.
    await assertAccessible(page, '/docs');
    await shots(page, 'docs');
    for (const path of ['/docs/language', '/docs/errors']) {
      await page.goto(`${server.url}${path}`);
      await assertAccessible(page, path);
      await shots(page, `reference${path.replace(/\//g, '-')}`);
    }
  } finally {
    await context.close();
  }
});
