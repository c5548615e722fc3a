// The pages in a real browser: Debian's chromium, headless, driven by playwright-core, against
// a real Quarry server (build() + listen on 127.0.0.1 with the SQLite engine). Screenshots of
// every page at 1366 and 390 px go to test-results/web/ for review (helpers/browser.ts), and
// no page scrolls sideways on the phone. Every request the browser makes is checked to stay
// on this server. This file keeps a persistent profile (a real user's browser, with the
// page's Content-Security-Policy applied).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { SOURCE_NAMES } from '../../src/model/sources.ts';
import { parseCsv } from '../../src/web/console/csv.ts';
import { CHROMIUM_ARGS, SHOTS, shots, WIDE } from './helpers/browser.ts';
import { ADMIN, HOLDER, PENDING, startWebServer, type WebServer } from './helpers/server.ts';

const FACET_QUERY = 'search publications where year >= 2015\nreturn year limit 10';
/** `retrun` is misspelt: the API reports line 2, column 19. */
const BAD_QUERY = 'search publications\nwhere year = 2019 retrun year';

let server: WebServer;
let context: BrowserContext;
let page: Page;
let profile: string;
const external: string[] = [];

/** Screenshots at both widths, named for this file (`profile-NAME-1366.png`, `-390.png`). */
async function shot(name: string): Promise<void> {
  await shots(page, `profile-${name}`);
}

/** Every form control on the page has an accessible name (a label or aria-label). */
async function assertLabelled(target: Page = page): Promise<void> {
  const unlabelled = await target.evaluate(() =>
    [...document.querySelectorAll('input:not([type=hidden]), select, textarea, button')]
      .filter((el) => {
        const control = el as HTMLInputElement;
        const labelled =
          (control.labels?.length ?? 0) > 0 ||
          control.getAttribute('aria-label') ||
          control.getAttribute('aria-labelledby');
        return !labelled && !(el.tagName === 'BUTTON' && el.textContent?.trim());
      })
      .map((el) => el.outerHTML.slice(0, 80)),
  );
  assert.deepEqual(unlabelled, []);
}

async function signIn(email: string, password: string): Promise<void> {
  await context.clearCookies();
  await page.goto(`${server.url}/`);
  await page.getByLabel('E-mail address (or username)').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(`${server.url}/`);
}

async function apiToken(key: string): Promise<Response> {
  return fetch(`${server.url}/v3/token?api_key=${encodeURIComponent(key)}`);
}

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startWebServer();
  profile = mkdtempSync(join(tmpdir(), 'quarry-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: WIDE,
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

describe('in the browser', () => {
  test('a holder signs in, generates a key, uses it with the API, revokes it and is refused', async () => {
    await context.clearCookies();
    await page.goto(`${server.url}/`);
    await assertLabelled();
    await shot('home-signed-out');
    assert.equal(await page.locator('#base-url').textContent(), server.url);

    await signIn(HOLDER.email, HOLDER.password);
    await page.getByLabel('Name for the key (where you will use it)').fill('browser test');
    await page.getByRole('button', { name: 'Generate key' }).click();
    const key = (await page.locator('#new-key-value').textContent())?.trim() ?? '';
    assert.match(key, /^qry_[\w-]{40,}$/);
    assert.ok(
      (await page.locator('#curl-token-path').textContent())?.includes(`${server.url}/v3/token?api_key=${key}`),
    );
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await page.getByRole('button', { name: 'Copy the key' }).click();
    await page.locator('#copy-status', { hasText: 'Copied.' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), key);
    await shot('home-new-key');

    const tokenResponse = await apiToken(key);
    assert.equal(tokenResponse.status, 200);
    const token = (await tokenResponse.text()).trim();
    const query = await fetch(`${server.url}/v3/api/query`, {
      method: 'POST',
      body: 'search publications return publications[id + title] limit 3',
      headers: { Authorization: `Bearer ${token}` },
    });
    assert.equal(query.status, 200);
    const result = (await query.json()) as { publications: unknown[]; _stats: { total_count: number } };
    assert.equal(result.publications.length, 3);

    // The key is listed with its name and times; the page no longer shows the key itself.
    await page.goto(`${server.url}/`);
    const row = page.locator('#key-list tr', { hasText: 'browser test' });
    assert.match((await row.textContent()) ?? '', /browser test[\s\S]*UTC[\s\S]*UTC[\s\S]*active/);
    assert.equal(await page.locator('#new-key-value').count(), 0);
    await row.getByRole('link', { name: 'Revoke the key browser test' }).click();
    await page.getByRole('button', { name: 'Revoke the key' }).click();
    await page.locator('.notice', { hasText: 'The key is revoked' }).waitFor();
    assert.match((await page.locator('#key-list tr', { hasText: 'browser test' }).textContent()) ?? '', /revoked/);

    const refused = await apiToken(key);
    assert.equal(refused.status, 401);
    assert.equal(
      ((await refused.json()) as { errors: { query: { code: string } } }).errors.query.code,
      'SERVICE_CREDENTIALS_INVALID',
    );
    const oldToken = await fetch(`${server.url}/v3/api/query`, {
      method: 'POST',
      body: 'search grants return grants',
      headers: { Authorization: `Bearer ${token}` },
    });
    assert.equal(oldToken.status, 403, 'tokens of a revoked key stop working');
  });

  test('the account page shows status, subscription, keys and usage', async () => {
    await page.goto(`${server.url}/account`);
    assert.equal(await page.locator('#account-state').textContent(), 'active');
    assert.match(
      (await page.locator('#subscription').textContent()) ?? '',
      /token-path[\s\S]*auth-path[\s\S]*all sources/,
    );
    assert.match((await page.locator('#usage').textContent()) ?? '', /\d{4}-\d\d-\d\d\s*1\s*0/);
    await assertLabelled();
    await shot('account');
  });

  test('the console runs a facet query, shows a table and a chart, and downloads a CSV matching the API', async () => {
    await page.goto(`${server.url}/console`);
    await page.locator('body[data-console-ready="true"]').waitFor();
    await assertLabelled();
    const editor = page.locator('.cm-content');
    await editor.click();
    // Completion offers the sources after `search`, from describe schema.
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText('search ');
    await page.keyboard.press('Control+Space');
    const options = page.locator('.cm-tooltip-autocomplete li');
    await options.first().waitFor();
    assert.deepEqual((await options.allTextContents()).map((t) => t.trim()).sort(), [...SOURCE_NAMES].sort());
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(FACET_QUERY);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+Enter');
    await page.locator('#console-results[data-state="done"]').waitFor();

    const { key } = await server.accounts.createKey(HOLDER.email, 'compare');
    const token = (await (await apiToken(key)).text()).trim();
    const api = (await (
      await fetch(`${server.url}/v3/api/query`, {
        method: 'POST',
        body: FACET_QUERY,
        headers: { Authorization: `Bearer ${token}` },
      })
    ).json()) as { year: { id: number; count: number }[] };
    assert.ok(api.year.length >= 3);

    const cells = await page
      .locator('table[data-result="year"] tbody tr')
      .evaluateAll((rows) =>
        rows.map((r) => [...r.querySelectorAll('td:not(:last-child)')].map((td) => td.textContent)),
      );
    assert.deepEqual(
      cells,
      api.year.map((r) => [String(r.id), String(r.count)]),
    );
    const canvas = page.locator('canvas[data-result="year"]');
    assert.equal(await canvas.getAttribute('data-bars'), String(api.year.length));
    const drawn = await canvas.evaluate((c) => {
      const canvasEl = c as HTMLCanvasElement;
      const pixels =
        canvasEl.getContext('2d')?.getImageData(0, 0, canvasEl.width, canvasEl.height).data ?? new Uint8ClampedArray();
      let coloured = 0;
      for (let i = 0; i < pixels.length; i += 4)
        if (pixels[i + 3]! > 0 && pixels[i + 2]! > 150 && pixels[i]! < 80) coloured++;
      return coloured;
    });
    assert.ok(drawn > 500, `the bars are drawn (${drawn} bar-coloured pixels)`);
    await shot('console-facet');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download year as CSV' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'year.csv');
    const csv = parseCsv(readFileSync(await download.path(), 'utf8'));
    assert.deepEqual(csv, [['id', 'count'], ...api.year.map((r) => [String(r.id), String(r.count)])]);
    const [json] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download JSON' }).click(),
    ]);
    assert.deepEqual(JSON.parse(readFileSync(await json.path(), 'utf8')).year, api.year);
  });

  test('the console marks a syntax error at its line and column', async () => {
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(BAD_QUERY);
    await page.keyboard.press('Escape');
    // The syntax check in the browser marks the word before the query runs.
    assert.equal(await page.locator('.cm-lintRange-error').textContent(), 'retrun');
    await page.getByRole('button', { name: /^Run/ }).click();
    // The results panel is empty after an error, so wait for it to be attached, not visible.
    await page.locator('#console-results[data-state="error"]').waitFor({ state: 'attached' });
    const error = page.locator('#console-error');
    const expectedColumn = 'where year = 2019 '.length + 1;
    assert.equal(await error.getAttribute('data-line'), '2');
    assert.equal(await error.getAttribute('data-column'), String(expectedColumn));
    assert.match(
      (await error.textContent()) ?? '',
      /1 QueryError found[\s\S]*found 'retrun'[\s\S]*DSL_UNEXPECTED_TOKEN/,
    );
    // The marker sits on the misspelt word, on the second line.
    const marked = page.locator('.cm-lintRange-error');
    assert.equal(await marked.textContent(), 'retrun');
    const markedLine = await marked.evaluate((el) => el.closest('.cm-line')?.textContent);
    assert.equal(markedLine, 'where year = 2019 retrun year');
    await shot('console-error');

    // On a phone the console and the home page need no sideways scrolling (shot checks it).
    for (const path of ['/console', '/', '/account']) {
      await page.goto(server.url + path);
      await shot(`phone${path === '/' ? '-home' : path.replace('/', '-')}`);
    }
  });

  test('a browser reaching an unknown address gets a page that leads back', async () => {
    const response = await page.goto(`${server.url}/no-such-page`);
    assert.equal(response?.status(), 404);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Page not found');
    await shot('not-found');
    await page.getByRole('link', { name: 'The API home' }).click();
    await page.waitForURL(`${server.url}/`);
  });

  test('a pending account is told at sign-in that it is not activated, and gets no session', async () => {
    await context.clearCookies();
    await page.goto(`${server.url}/`);
    await page.getByLabel('E-mail address (or username)').fill(PENDING.email);
    await page.getByLabel('Password', { exact: true }).fill(PENDING.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${server.url}/sign-in`);
    assert.match(
      (await page.locator('.error-box').textContent()) ?? '',
      /awaits activation by the administrator[^]*contact data-office@example\.org/,
    );
    await shot('sign-in-pending');
    assert.ok(!(await context.cookies()).some((c) => c.name === 'quarry_session'), 'no session');
    await page.goto(`${server.url}/account`);
    assert.equal(new URL(page.url()).pathname, '/', 'the account section asks to sign in');
  });

  test('an administrator activates the pending account', async () => {
    await signIn(ADMIN.email, ADMIN.password);
    await page.getByRole('link', { name: 'Administration' }).click();
    await assertLabelled();
    await shot('admin');
    const row = page.locator('#accounts tr', { hasText: PENDING.email });
    assert.match((await row.textContent()) ?? '', /pending/);
    await row.getByRole('button', { name: `Activate ${PENDING.email}` }).click();
    await page.locator('.notice', { hasText: 'The account is activated.' }).waitFor();
    assert.match((await page.locator('#accounts tr', { hasText: PENDING.email }).textContent()) ?? '', /active/);
    assert.equal((await server.accounts.getAccount(PENDING.email)).state, 'active');
    await shot('admin-activated');
    assert.deepEqual(external, [], 'the pages made no request to another host');
  });
});
